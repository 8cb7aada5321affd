/**
 * The resumable per-deal CSV of an experiment. It differs from src/eval's ResumableCsv (one
 * agent and rule set per file, keyed by deal) because an experiment file holds many conditions
 * per deal; the guarantees are the same. Rows are appended in task order, whole lines at a
 * time; a run killed part way leaves at most one partial line, which the next run cuts off
 * before it carries on after the last complete row. On reopening, every existing row is checked
 * against the task this run would put at that position (deal, rules, player, condition), so a
 * file written with other settings is refused, never extended: nothing lost, nothing duplicated,
 * nothing mixed. The file is read in chunks, so a merged million-deal file (gigabytes) can be
 * resumed or summarized without holding it in memory.
 */
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { UsageError } from "../../src/errors.js";
import { parseCsv, writeFileAtomic } from "../../src/cli/merge.js";
import { csvLine } from "../../src/eval/csv.js";

export { csvLine };

export interface OpenedStore {
  /** Complete rows already in the file (tasks 0 … done−1 are finished). */
  readonly done: number;
  append(rows: readonly (readonly string[])[]): void;
  close(): void;
}

/**
 * Calls `onLine(text)` for each complete line of the file at `fd` (no line ending) and returns
 * the byte length of the complete lines: anything after it is a partial line. Fields here never
 * hold line breaks (labels and numbers only), so a line is a record.
 */
function forEachLine(fd: number, onLine: (line: string, index: number) => void): number {
  const buf = Buffer.allocUnsafe(1 << 20);
  let carry = Buffer.alloc(0);
  let pos = 0;
  let complete = 0;
  let index = 0;
  for (;;) {
    const got = readSync(fd, buf, 0, buf.length, pos);
    if (got === 0) break;
    pos += got;
    let chunk = carry.length ? Buffer.concat([carry, buf.subarray(0, got)]) : buf.subarray(0, got);
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      onLine(chunk.toString("utf8", start, nl), index++);
      complete += nl + 1 - start;
      start = nl + 1;
    }
    chunk = chunk.subarray(start);
    carry = Buffer.from(chunk);
  }
  return complete;
}

/**
 * Opens (or creates) `path` for a run whose task i must produce a row whose first `keyColumns`
 * fields equal `expectedKey(i)`; `total` is the run's number of tasks. Each existing row is
 * handed to `onExisting` (in order) once it has passed its check.
 */
export function openStore(
  path: string,
  header: readonly string[],
  keyColumns: number,
  total: number,
  expectedKey: (i: number) => readonly string[],
  onExisting: (fields: string[]) => void,
): OpenedStore {
  const headerLine = csvLine(header);
  try {
    mkdirSync(dirname(path), { recursive: true });
    if (!existsSync(path) || statSync(path).size === 0) writeFileAtomic(path, headerLine);
  } catch (e) {
    throw new UsageError(`cannot write ${path}: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
  let fd: number;
  try {
    fd = openSync(path, "r+");
  } catch (e) {
    throw new UsageError(`cannot open ${path} to resume it: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
  let rows = 0;
  let complete: number;
  try {
    complete = forEachLine(fd, (line, i) => {
      if (i === 0) {
        if (line + "\n" !== headerLine)
          throw new UsageError(`${path} has other columns (${line.slice(0, 80)}): written by another experiment; choose another --out`);
        return;
      }
      const fields = parseCsv(line + "\n").records[0]!.fields;
      if (rows >= total)
        throw new UsageError(`${path} already holds more than this run's ${total} rows: written with other settings (--deals?); choose another --out`);
      const want = expectedKey(rows);
      if (want.some((w, k) => w !== fields[k]))
        throw new UsageError(`${path} row ${rows + 1} is [${fields.slice(0, keyColumns).join(" ")}] where this run expects [${want.join(" ")}]: written with other settings; choose another --out`);
      onExisting(fields);
      rows++;
    });
    if (complete === 0) throw new UsageError(`${path} has no header line: not an experiment CSV; choose another --out`);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  // Checks passed: cut off a killed writer's half line; that row is recomputed, not lost.
  if (statSync(path).size > complete) ftruncateSync(fd, complete);
  let end = complete;
  return {
    done: rows,
    append(batch) {
      if (batch.length === 0) return;
      // One write per batch of whole lines; a kill can only cut the last line short.
      const buf = Buffer.from(batch.map(csvLine).join(""));
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, end + off);
      end += buf.length;
    },
    close() {
      if (fd >= 0) closeSync(fd);
      fd = -1;
    },
  };
}
