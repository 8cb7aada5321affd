/**
 * Output files of the viewer: written whole through a temporary file and a rename, and only over
 * a regular file (never over a device, a directory or through a symbolic link). And a bounded
 * reader for one row of a results CSV.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readSync } from "node:fs";
import { UsageError } from "../engine/rules.js";
import { parseCsvLine } from "../eval/csv.js";
import { writeAtomic } from "../train/files.js";

/** Refuses a path that exists and is not a plain file. */
export function checkOutputFile(path: string): void {
  if (path.trim() === "") throw new UsageError("--out needs a file name");
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (st.isSymbolicLink()) throw new UsageError(`${path} is a symbolic link; give a plain file name`);
  if (!st.isFile()) throw new UsageError(`${path} exists and is not a plain file`);
}

export function writeOutput(path: string, text: string): void {
  checkOutputFile(path);
  try {
    writeAtomic(path, text);
  } catch (e) {
    throw new UsageError(`cannot write ${path}: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
}

/** Refuses a DIR that exists and is not a directory (checked before any work is done). */
export function checkOutputDir(dir: string): void {
  if (dir.trim() === "") throw new UsageError("--html needs a folder name");
  try {
    if (!lstatSync(dir).isDirectory()) throw new UsageError(`${dir} exists and is not a directory`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
  }
}

/** Makes DIR when it is missing. */
export function makeOutputDir(dir: string): void {
  checkOutputDir(dir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UsageError(`cannot make ${dir}: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
}

/** Longest line accepted in a results CSV (rows are a few dozen characters). */
const MAX_LINE = 1 << 16;

/**
 * The header and data row `row` (1 = the first row after the header) of a CSV, as records; reads
 * the file in chunks and stops at that row, so a huge file costs only what precedes the row.
 */
export function readCsvRow(path: string, row: number): Record<string, string> {
  if (!Number.isInteger(row) || row < 1) throw new UsageError(`--row must be a positive integer (1 = the first row after the header), got ${row}`);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
  try {
    const buf = Buffer.alloc(MAX_LINE);
    let pending = "";
    let header: string[] | undefined;
    let seen = 0;
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, null);
      const text = pending + buf.toString("utf8", 0, got);
      const lines = text.split("\n");
      pending = got === 0 ? "" : lines.pop()!;
      if (pending.length > MAX_LINE) throw new UsageError(`${path}: a line longer than ${MAX_LINE} characters; not a results CSV`);
      for (const raw of lines) {
        const line = raw.replace(/\r$/, "");
        if (line === "") continue;
        const cells = parseCsvLine(line);
        if (!header) {
          header = cells;
          for (const need of ["deal", "rules", "agent"])
            if (!header.includes(need)) throw new UsageError(`${path} has no "${need}" column; expected a CSV written by penguin eval`);
          continue;
        }
        if (++seen === row) return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""]));
      }
      if (got === 0) break;
    }
    throw new UsageError(`${path} has ${seen} rows; --row must be 1 to ${seen}`);
  } finally {
    closeSync(fd);
  }
}
