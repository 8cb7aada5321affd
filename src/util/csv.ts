/**
 * Reading CSV files (csv-parse, the sibling of the csv-stringify that writes them), line by line
 * with bounded memory: a file of any size is read in 1 MiB chunks. Every CSV this project writes
 * has one record per line (its fields are labels and numbers), so a record never spans lines;
 * a quoted line break is reported as malformed rather than guessed at.
 */
import { closeSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { parse } from "csv-parse/sync";
import { UsageError } from "../errors.js";
import { MiB, openRegularFile } from "./read.js";
import { printable } from "./text.js";

export interface CsvRecord {
  readonly fields: string[];
  /** The record exactly as written, without its line ending. */
  readonly raw: string;
}

const OPTIONS = {
  relax_column_count: true,
  record_delimiter: "\n",
  skip_empty_lines: false,
} as const;

/** Longest line accepted; longer ones mean the file is not a CSV of this project. */
const MAX_CSV_LINE = MiB;

/** Fields of each line (no line endings in `lines`); throws Error with csv-parse's reason. */
function parseLines(lines: readonly string[]): string[][] {
  if (lines.length === 0) return [];
  // Without a quote, a CSV line is its text split at commas (csv-parse agrees, and is ~10× slower).
  if (!lines.some((l) => l.includes('"'))) return lines.map((l) => l.split(","));
  const records = parse(lines.join("\n"), OPTIONS) as string[][];
  // An empty line is one record of one empty field; a quoted line break would merge two lines.
  if (records.length !== lines.length) throw new Error("a quoted field holds a line break");
  return records;
}

/** Parses one CSV line (no line ending). */
export function parseCsvLine(line: string): string[] {
  return parseLines([line.endsWith("\r") ? line.slice(0, -1) : line])[0]!;
}

/**
 * The complete records of `text` and `partial`: text after the last line ending, which a
 * killed writer can leave. Throws UsageError naming `name` and the line of a malformed record.
 */
export function parseCsvText(
  text: string,
  name = "CSV",
): { records: CsvRecord[]; partial: string } {
  const complete = text.lastIndexOf("\n") + 1;
  const raws = text.slice(0, complete).split("\n");
  raws.pop();
  const lines = raws.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  return { records: toRecords(lines, name, 1), partial: text.slice(complete) };
}

function toRecords(lines: readonly string[], name: string, firstLine: number): CsvRecord[] {
  try {
    return parseLines(lines).map((fields, i) => ({ fields, raw: lines[i]! }));
  } catch {
    // Find the bad line for the message (rare path: parse one line at a time).
    for (let i = 0; i < lines.length; i++) {
      try {
        parseLines([lines[i]!]);
      } catch (e) {
        throw new UsageError(
          `${printable(name)} line ${firstLine + i} is not valid CSV (${(e as Error).message.split(":")[0]})`,
        );
      }
    }
    throw new UsageError(`${printable(name)} near line ${firstLine} is not valid CSV`);
  }
}

/**
 * Calls `onRecord` for each complete line of the open file `fd` from its start, in order, and
 * returns the byte length of the complete lines (anything after it is a partial last line).
 * `name` names the file in messages. A line longer than MAX_CSV_LINE is refused.
 */
export function forEachCsvRecord(
  fd: number,
  name: string,
  onRecord: (r: CsvRecord, index: number) => void,
): number {
  const buf = Buffer.allocUnsafe(MiB);
  let carry = Buffer.alloc(0);
  let pos = 0;
  let complete = 0;
  let index = 0;
  for (;;) {
    const got = readSync(fd, buf, 0, buf.length, pos);
    if (got === 0) break;
    pos += got;
    const chunk = carry.length
      ? Buffer.concat([carry, buf.subarray(0, got)])
      : buf.subarray(0, got);
    const end = chunk.lastIndexOf(10) + 1;
    if (end === 0) {
      if (chunk.length > MAX_CSV_LINE)
        throw new UsageError(
          `${printable(name)} line ${index + 1} is longer than ${MAX_CSV_LINE} bytes: not a CSV of this tool`,
        );
      carry = Buffer.from(chunk);
      continue;
    }
    // Whole lines only: a chunk boundary may fall inside a line or a multi-byte character.
    const lines = new StringDecoder("utf8").end(chunk.subarray(0, end)).split("\n");
    lines.pop();
    for (const l of lines)
      if (l.length > MAX_CSV_LINE)
        throw new UsageError(
          `${printable(name)} has a line longer than ${MAX_CSV_LINE} bytes: not a CSV of this tool`,
        );
    const records = toRecords(
      lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l)),
      name,
      index + 1,
    );
    for (const r of records) onRecord(r, index++);
    complete += end;
    carry = Buffer.from(chunk.subarray(end));
    if (carry.length > MAX_CSV_LINE)
      throw new UsageError(
        `${printable(name)} line ${index + 1} is longer than ${MAX_CSV_LINE} bytes: not a CSV of this tool`,
      );
  }
  return complete;
}

/** Reads the CSV at `path` record by record (see forEachCsvRecord); returns the partial tail. */
export function readCsvFile(
  path: string,
  what: string,
  onRecord: (r: CsvRecord, index: number) => void,
): { records: number; partial: boolean } {
  const { fd, size } = openRegularFile(path, what);
  try {
    let records = 0;
    const complete = forEachCsvRecord(fd, `${what} ${path}`, (r, i) => {
      records++;
      onRecord(r, i);
    });
    return { records, partial: complete < size };
  } finally {
    closeSync(fd);
  }
}
