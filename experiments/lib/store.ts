/**
 * The resumable per-deal CSV of an experiment. It differs from src/eval's ResumableCsv (one
 * agent and rule set per file, keyed by deal) because an experiment file holds many conditions
 * per deal; the guarantees are the same. Rows are appended in task order, whole lines at a
 * time; a run killed part way leaves at most one partial line, which the next run cuts off
 * before it carries on after the last complete row. On reopening, every existing row is checked
 * against the task this run would put at that position (deal, rules, player, condition), so a
 * file written with other settings is refused, never extended: nothing lost, nothing duplicated,
 * nothing mixed. Each row's outcome columns are checked too (outcome, cards home, counts). An
 * exclusive lock beside the file keeps a second run off it. The file is read in chunks, so a merged million-deal file (gigabytes) can be
 * resumed or summarized without holding it in memory.
 */
import { closeSync, ftruncateSync, mkdirSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { UsageError } from "../../src/errors.js";
import { forEachCsvRecord } from "../../src/util/csv.js";
import { lockFile } from "../../src/util/lock.js";
import { resumableTarget, writeFileAtomic } from "../../src/util/output.js";
import { openRegularFile } from "../../src/util/read.js";
import { printable } from "../../src/util/text.js";
import { csvLine } from "../../src/eval/csv.js";

export { csvLine };

export interface OpenedStore {
  /** Complete rows already in the file (tasks 0 … done−1 are finished). */
  readonly done: number;
  append(rows: readonly (readonly string[])[]): void;
  close(): void;
}

const COUNT = /^(0|[1-9]\d{0,14})$/;

/** Why the outcome columns of a row (…, base, outcome, cards_home, moves, states) are wrong. */
function outcomeProblem(f: readonly string[]): string | undefined {
  const [base, outcome, home, moves, states] = f.slice(-5);
  if (!/^[A2-9TJQK]$/.test(base!)) return `base is ${JSON.stringify(base)}, expected a rank letter`;
  if (outcome !== "won" && outcome !== "lost" && outcome !== "unknown")
    return `outcome is ${JSON.stringify(outcome)}, expected won, lost or unknown`;
  if (!COUNT.test(home!) || Number(home) > 52)
    return `cards_home is ${JSON.stringify(home)}, expected an integer from 0 to 52`;
  if (outcome === "won" && home !== "52") return `outcome is won with ${home} cards home`;
  if (!COUNT.test(moves!)) return `moves is ${JSON.stringify(moves)}, expected a count`;
  if (!COUNT.test(states!)) return `states is ${JSON.stringify(states)}, expected a count`;
  return undefined;
}

/**
 * Opens or creates \`path\` for a run whose task i must produce a row whose first \`keyColumns\`
 * fields equal \`expectedKey(i)\`; \`total\` is the run's number of tasks. Each existing row is
 * handed to \`onExisting\` (in order) once it has passed its check.
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
  const shown = printable(path);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw new UsageError(
      `cannot write ${shown}: ${(e as { code?: string }).code ?? (e as Error).message}`,
    );
  }
  const target = resumableTarget(path);
  const real = target.path;
  const lock = lockFile(real);
  let fd = -1;
  try {
    let opened = target.exists ? openRegularFile(real, "--out", "r+") : undefined;
    if (!opened || opened.size === 0) {
      if (opened) closeSync(opened.fd);
      writeFileAtomic(real, headerLine);
      opened = openRegularFile(real, "--out", "r+");
    }
    fd = opened.fd;
    let rows = 0;
    const complete = forEachCsvRecord(fd, shown, ({ fields, raw }, i) => {
      if (i === 0) {
        if (`${raw}\n` !== headerLine)
          throw new UsageError(
            `${shown} has other columns (${raw.slice(0, 80)}): written by another experiment; choose another --out`,
          );
        return;
      }
      if (rows >= total)
        throw new UsageError(
          `${shown} already holds more than this run's ${total} rows: written with other settings (--deals?); choose another --out`,
        );
      if (fields.length !== header.length)
        throw new UsageError(
          `${shown} line ${i + 1} has ${fields.length} fields, expected ${header.length}; choose another --out`,
        );
      const want = expectedKey(rows);
      if (want.some((w, k) => w !== fields[k]))
        throw new UsageError(
          `${shown} row ${rows + 1} is [${fields.slice(0, keyColumns).join(" ")}] where this run expects [${want.join(" ")}]: written with other settings; choose another --out`,
        );
      const problem = outcomeProblem(fields);
      if (problem) throw new UsageError(`${shown} line ${i + 1}: ${problem}; choose another --out`);
      onExisting(fields);
      rows++;
    });
    if (complete === 0)
      throw new UsageError(
        `${shown} has no header line: not an experiment CSV; choose another --out`,
      );
    // Checks passed: cut off a killed writer's half line; that row is recomputed, not lost.
    if (opened.size > complete) ftruncateSync(fd, complete);
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
        lock.release();
      },
    };
  } catch (e) {
    if (fd >= 0) closeSync(fd);
    lock.release();
    throw e;
  }
}
