/**
 * The project's resumable results CSV (csv-stringify to write, src/util/csv to read), for
 * `penguin eval` and the experiments:
 *
 * - the output must be a regular file or a new path (a symlink is followed); a device, FIFO or
 *   directory is refused, since the file is read back to resume;
 * - an exclusive lock beside the file keeps a second run off it while this one writes;
 * - a new file is created whole (header written to a temp file, then renamed into place);
 * - an existing file must have the same header, and every row the same values in the `fixed`
 *   columns (the settings fingerprint: rules, agent with options, …) and pass `check` (the
 *   content of each row); otherwise opening throws a one-line UsageError and the file is not
 *   touched. It is read in chunks, so its size does not bound memory;
 * - rows are appended as complete lines, one write per batch; a run killed mid-write can leave at
 *   most one trailing partial line, which the next open drops (truncating to the last newline)
 *   after the checks pass. So no partial row, no lost row, no duplicate.
 *
 * Fields must not contain newlines (every value here is a label or a number).
 */
import { closeSync, ftruncateSync, writeSync } from "node:fs";
import { stringify } from "csv-stringify/sync";
import { UsageError } from "../errors.js";
import { forEachCsvRecord } from "../util/csv.js";
import { lockFile, type Lock } from "../util/lock.js";
import { resumableTarget, writeFailure, writeFileAtomic } from "../util/output.js";
import { openRegularFile } from "../util/read.js";
import { printable } from "../util/text.js";

export type CsvValue = string | number | boolean;

export interface CsvSpec {
  readonly path: string;
  readonly columns: readonly string[];
  /** Columns whose value every row must share with this run (the settings fingerprint). */
  readonly fixed?: Readonly<Record<string, string>>;
  /**
   * Called with each existing row (by column) in file order, after the shape and `fixed`
   * checks; throws UsageError to refuse the file. `line` is its 1-based line number, `fields`
   * the same values in column order.
   */
  readonly onRow?: (
    row: Readonly<Record<string, string>>,
    line: number,
    fields: readonly string[],
  ) => void;
  /** What the file is, for the message that refuses a file without a header line. */
  readonly what?: string;
}

export function csvLine(values: readonly CsvValue[]): string {
  return stringify(
    [values.map((v) => (typeof v === "boolean" ? (v ? "true" : "false") : String(v)))],
    { record_delimiter: "\n" },
  );
}

export class ResumableCsv {
  private fd: number;
  private end: number;

  private constructor(
    readonly spec: CsvSpec,
    /** The file written (the symlink's target when spec.path is a link). */
    readonly path: string,
    fd: number,
    end: number,
    private readonly lock: Lock,
    /** Rows already in the file (complete lines). */
    readonly rows: number,
  ) {
    this.fd = fd;
    this.end = end;
  }

  /**
   * Opens (or creates) the file. Throws UsageError, leaving any existing file untouched, when it
   * cannot be written, is being written by another run, or holds other columns, other settings
   * or a row that fails `onRow`.
   */
  static open(spec: CsvSpec): ResumableCsv {
    const { columns } = spec;
    const target = resumableTarget(spec.path);
    const path = target.path;
    const shown = printable(spec.path);
    const lock = lockFile(path);
    try {
      const header = csvLine(columns);
      let opened = target.exists ? openRegularFile(path, "--out", "r+") : undefined;
      if (!opened || opened.size === 0) {
        if (opened) closeSync(opened.fd);
        writeFileAtomic(path, header);
        opened = openRegularFile(path, "--out", "r+");
      }
      const { fd, size } = opened;
      try {
        const fixedIdx = Object.entries(spec.fixed ?? {}).map(
          ([col, v]) => [columns.indexOf(col), col, v] as const,
        );
        for (const [i, col] of fixedIdx)
          if (i < 0) throw new Error(`fixed column ${col} is not among the columns`);
        let rows = 0;
        const complete = forEachCsvRecord(fd, shown, ({ fields: f, raw }, n) => {
          if (n === 0) {
            if (`${raw}\n` !== header)
              throw new UsageError(
                `${shown} has other columns (${JSON.stringify(raw.slice(0, 120))}); expected ${header.trim()}: use another --out`,
              );
            return;
          }
          if (f.length !== columns.length)
            throw new UsageError(
              `${shown} line ${n + 1} has ${f.length} fields, expected ${columns.length}: use another --out`,
            );
          for (const [i, col, v] of fixedIdx)
            if (f[i] !== v)
              throw new UsageError(
                `${shown} was written with other settings (${col} ${JSON.stringify(f[i])}, this run ${JSON.stringify(v)}): use another --out`,
              );
          if (spec.onRow) {
            const rec: Record<string, string> = {};
            columns.forEach((c, j) => (rec[c] = f[j]!));
            spec.onRow(rec, n + 1, f);
          }
          rows++;
        });
        if (complete === 0)
          throw new UsageError(
            `${shown} has no complete header line: not a CSV of ${spec.what ?? "penguin eval"}; use another --out`,
          );
        // Checks passed: drop a partial last line left by a killed run, then append from there.
        if (complete < size) ftruncateSync(fd, complete);
        return new ResumableCsv(spec, path, fd, complete, lock, rows);
      } catch (e) {
        closeSync(fd);
        throw e;
      }
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  /** Appends complete rows (values in column order) with one write. */
  append(rows: readonly (readonly CsvValue[])[]): void {
    if (rows.length === 0) return;
    let text = "";
    for (const r of rows) {
      if (r.length !== this.spec.columns.length)
        throw new Error(`row has ${r.length} values, expected ${this.spec.columns.length}`);
      text += csvLine(r);
    }
    const buf = Buffer.from(text);
    let off = 0;
    try {
      while (off < buf.length)
        off += writeSync(this.fd, buf, off, buf.length - off, this.end + off);
    } catch (e) {
      // A full disk: cut what this write left back to whole rows, so a rerun resumes cleanly.
      try {
        ftruncateSync(this.fd, this.end);
      } catch {}
      throw writeFailure(
        this.path,
        e,
        "the complete rows written before are kept; rerun the same command to resume",
      );
    }
    this.end += buf.length;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.lock.release();
  }
}
