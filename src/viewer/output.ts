/**
 * Output files of the viewer, through the project's one output path (src/util/output.ts: whole
 * files by temp file and rename, links followed, devices streamed, directories refused), and a
 * reader for one row of a results CSV that stops at that row.
 */
import { lstatSync } from "node:fs";
import { UsageError } from "../errors.js";
import { readCsvFile } from "../util/csv.js";
import { makeFolder, outputTarget, writeOutput as writeWhole } from "../util/output.js";
import { printable } from "../util/text.js";

/** Refuses, before any work is done, a path that cannot take a whole-file output. */
export function checkOutputFile(path: string): void {
  if (path.trim() === "") throw new UsageError("--out needs a file name");
  outputTarget(path, { stream: true, what: "--out" });
}

export function writeOutput(path: string, text: string): void {
  writeWhole(path, text, { what: "--out" });
}

/** Refuses a DIR that exists and is not a directory (checked before any work is done). */
export function checkOutputDir(dir: string): void {
  if (dir.trim() === "") throw new UsageError("--html needs a folder name");
  try {
    if (!lstatSync(dir).isDirectory())
      throw new UsageError(`${printable(dir)} exists and is not a directory`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
  }
}

/** Makes DIR when it is missing. */
export function makeOutputDir(dir: string): void {
  checkOutputDir(dir);
  makeFolder(dir, "--html");
}

/** Thrown inside the reader's callback to stop at the wanted row. */
class Found extends Error {
  constructor(readonly record: Record<string, string>) {
    super("found");
  }
}

/**
 * Data row `row` (1 = the first row after the header) of a results CSV, as a record; stops at
 * that row, so a huge file costs only what precedes the row.
 */
export function readCsvRow(path: string, row: number): Record<string, string> {
  if (!Number.isInteger(row) || row < 1)
    throw new UsageError(
      `--row must be a positive integer (1 = the first row after the header), got ${row}`,
    );
  let header: string[] | undefined;
  let seen = 0;
  try {
    readCsvFile(path, "--from", ({ fields }) => {
      if (fields.length === 1 && fields[0] === "") return;
      if (!header) {
        header = fields;
        for (const need of ["deal", "rules", "agent"])
          if (!header.includes(need))
            throw new UsageError(
              `${printable(path)} has no "${need}" column; expected a CSV written by penguin eval`,
            );
        return;
      }
      if (++seen === row)
        throw new Found(Object.fromEntries(header.map((h, i) => [h, fields[i] ?? ""])));
    });
  } catch (e) {
    if (e instanceof Found) return e.record;
    throw e;
  }
  throw new UsageError(`${printable(path)} has ${seen} rows; --row must be 1 to ${seen}`);
}
