/**
 * A resumable results CSV (csv-stringify), for `penguin eval` and the experiments:
 *
 * - a new file is created whole (header written to a temp file, then renamed into place);
 * - an existing file must have the same header, and every row the same values in the `fixed`
 *   columns (the settings fingerprint: rules, agent with options, …); otherwise opening throws a
 *   one-line UsageError and the file is not touched;
 * - rows are appended as complete lines, one write per batch; a run killed mid-write can leave at
 *   most one trailing partial line, which the next open drops (truncating to the last newline)
 *   after the checks pass. So no partial row, no lost row, no duplicate.
 *
 * Fields must not contain newlines (every value here is a label or a number).
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { stringify } from "csv-stringify/sync";
import { UsageError } from "../errors.js";

export type CsvValue = string | number | boolean;

export interface CsvSpec {
  readonly path: string;
  readonly columns: readonly string[];
  /** Column that names a row (e.g. `deal`); rows already present are reported by this key. */
  readonly key: string;
  /** Columns whose value every row must share with this run (the settings fingerprint). */
  readonly fixed?: Readonly<Record<string, string>>;
}

/** Parses one CSV line written by csv-stringify (RFC 4180 quoting, no embedded newlines). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let v = "";
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new SyntaxError("unterminated quoted field");
        v += line.slice(i, q);
        if (line[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
    } else {
      const c = line.indexOf(",", i);
      out.push(line.slice(i, c < 0 ? line.length : c));
      i = c < 0 ? line.length : c;
    }
    if (i >= line.length) return out;
    if (line[i] !== ",") throw new SyntaxError(`unexpected character after a quoted field at ${i}`);
    i++;
  }
}

export function csvLine(values: readonly CsvValue[]): string {
  return stringify([values.map((v) => (typeof v === "boolean" ? (v ? "true" : "false") : String(v)))], { record_delimiter: "\n" });
}

function cannotWrite(path: string, e: unknown): UsageError {
  const why = (e as { code?: string }).code ?? (e instanceof Error ? e.message : String(e));
  return new UsageError(`cannot write ${path}: ${why}`);
}

export class ResumableCsv {
  /** Rows already in the file (complete lines only), in file order, as records keyed by column. */
  readonly existing: Record<string, string>[] = [];
  readonly keys = new Set<string>();
  private fd: number;
  private readonly keyIndex: number;

  private constructor(
    readonly spec: CsvSpec,
    fd: number,
  ) {
    this.fd = fd;
    this.keyIndex = spec.columns.indexOf(spec.key);
  }

  /**
   * Opens (or creates) the file. Throws UsageError, leaving any existing file untouched, when it
   * cannot be written or holds other columns or other settings.
   */
  static open(spec: CsvSpec): ResumableCsv {
    const { path, columns } = spec;
    if (!columns.includes(spec.key)) throw new Error(`key column ${spec.key} is not among the columns`);
    const header = csvLine(columns);
    if (!existsSync(path) || readFileSync(path).length === 0) {
      const tmp = `${path}.tmp-${process.pid}`;
      try {
        writeFileSync(tmp, header);
        renameSync(tmp, path);
      } catch (e) {
        rmSync(tmp, { force: true });
        throw cannotWrite(path, e);
      }
    }
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new UsageError(`cannot read ${path}: ${(e as { code?: string }).code ?? String(e)}`);
    }
    const complete = text.lastIndexOf("\n") + 1;
    const lines = text.slice(0, complete).split("\n");
    lines.pop();
    if (lines[0] + "\n" !== header)
      throw new UsageError(`${path} has other columns (${JSON.stringify(lines[0] ?? "")}); expected ${header.trim()}: use another --out`);
    let fd: number;
    try {
      fd = openSync(path, "r+");
    } catch (e) {
      throw cannotWrite(path, e);
    }
    const csv = new ResumableCsv(spec, fd);
    try {
      csv.load(lines.slice(1));
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    // Checks passed: drop a partial last line left by a killed run, then append from there.
    if (complete < Buffer.byteLength(text)) ftruncateSync(fd, Buffer.byteLength(text.slice(0, complete)));
    return csv;
  }

  private load(lines: string[]): void {
    const { columns, fixed = {}, path } = this.spec;
    const fixedIdx = Object.entries(fixed).map(([col, v]) => [columns.indexOf(col), col, v] as const);
    for (const [i, col] of fixedIdx) if (i < 0) throw new Error(`fixed column ${col} is not among the columns`);
    lines.forEach((line, n) => {
      let f: string[];
      try {
        f = parseCsvLine(line);
      } catch (e) {
        throw new UsageError(`${path} line ${n + 2} is not valid CSV (${(e as Error).message}): use another --out`);
      }
      if (f.length !== columns.length) throw new UsageError(`${path} line ${n + 2} has ${f.length} fields, expected ${columns.length}: use another --out`);
      for (const [i, col, v] of fixedIdx)
        if (f[i] !== v) throw new UsageError(`${path} was written with other settings (${col} ${JSON.stringify(f[i])}, this run ${JSON.stringify(v)}): use another --out`);
      const key = f[this.keyIndex]!;
      if (this.keys.has(key)) throw new UsageError(`${path} holds ${this.spec.key} ${key} twice: use another --out`);
      this.keys.add(key);
      const rec: Record<string, string> = {};
      columns.forEach((c, j) => (rec[c] = f[j]!));
      this.existing.push(rec);
    });
  }

  /** Appends complete rows (values in column order) with one write. */
  append(rows: readonly (readonly CsvValue[])[]): void {
    if (rows.length === 0) return;
    let text = "";
    for (const r of rows) {
      if (r.length !== this.spec.columns.length) throw new Error(`row has ${r.length} values, expected ${this.spec.columns.length}`);
      text += csvLine(r);
      this.keys.add(String(r[this.keyIndex]));
    }
    const buf = Buffer.from(text);
    let off = 0;
    const end = fstatSync(this.fd).size;
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off, end + off);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
