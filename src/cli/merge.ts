/**
 * `penguin merge a.csv b.csv … --out all.csv`: joins the CSVs of a sharded run (experiments'
 * `--shard i/n`, or any per-deal CSV with a `deal` column written deal by deal) into exactly the
 * file one unsharded run writes. Rows are copied byte for byte; files are put in order of their
 * first deal, and the merge refuses, with one line saying why, anything that would not be such a
 * file: different headers, a partial last row, overlapping or missing deals, or a deal with fewer
 * rows than the others (a shard killed part way: rerun it, it resumes, then merge again).
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../errors.js";

export interface CsvRecord {
  readonly fields: string[];
  /** The record exactly as written, without its line ending. */
  readonly raw: string;
}

/**
 * RFC 4180 records (quoted fields may hold commas, quotes as "", and line breaks). Returns the
 * complete records and `partial`: text after the last record ending, left by a killed writer.
 */
export function parseCsv(text: string): { records: CsvRecord[]; partial: string } {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let start = 0;
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ",") {
      fields.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      fields.push(field);
      records.push({ fields, raw: text.slice(start, i) });
      if (ch === "\r" && text[i + 1] === "\n") i++;
      fields = [];
      field = "";
      start = i + 1;
    } else field += ch;
    i++;
  }
  return { records, partial: text.slice(start) };
}

interface ShardFile {
  name: string;
  header: string;
  body: CsvRecord[];
  first: number;
  last: number;
}

function readShard(name: string, text: string): ShardFile {
  const { records, partial } = parseCsv(text);
  if (partial !== "") throw new UsageError(`${name} ends in a partial row (its run was killed): rerun that shard to finish it, then merge`);
  const head = records[0];
  if (!head) throw new UsageError(`${name} is empty: no header row`);
  const dealAt = head.fields.indexOf("deal");
  if (dealAt < 0) throw new UsageError(`${name} has no "deal" column; merge joins per-deal CSVs (columns: ${head.fields.join(", ")})`);
  const body = records.slice(1);
  if (body.length === 0) throw new UsageError(`${name} holds no rows`);
  let prev = -Infinity;
  for (const r of body) {
    const d = Number(r.fields[dealAt]);
    if (!Number.isSafeInteger(d)) throw new UsageError(`${name}: deal ${JSON.stringify(r.fields[dealAt])} is not an integer`);
    if (d < prev) throw new UsageError(`${name}: rows are not in deal order (deal ${d} after ${prev})`);
    prev = d;
  }
  return { name, header: head.raw, body, first: Number(body[0]!.fields[dealAt]), last: prev };
}

/**
 * Checks shard files handed over in deal order and returns the text each adds to the merged
 * file. Deals must run on without a gap from file to file and every deal must have the same
 * number of rows (one per condition), so a shard that stopped early is caught here.
 */
class ShardJoiner {
  private header: string | undefined;
  private first = "";
  private dealAt = -1;
  private rowsPerDeal = -1;
  private expectDeal = NaN;

  push(s: ShardFile): string {
    if (this.header === undefined) {
      this.header = s.header;
      this.first = s.name;
      this.dealAt = parseCsv(s.header + "\n").records[0]!.fields.indexOf("deal");
      this.expectDeal = s.first;
    }
    if (s.header !== this.header) throw new UsageError(`${s.name} has another header than ${this.first}: not shards of one run`);
    if (s.first < this.expectDeal) throw new UsageError(`${s.name} overlaps another file at deal ${s.first}: each deal must come from one shard`);
    if (s.first > this.expectDeal) throw new UsageError(`deals ${this.expectDeal}…${s.first - 1} are missing before ${s.name}: merge every shard`);
    const lines: string[] = [];
    let i = 0;
    while (i < s.body.length) {
      const deal = Number(s.body[i]!.fields[this.dealAt]);
      if (deal !== this.expectDeal) throw new UsageError(`${s.name}: deal ${this.expectDeal} is missing (next row is deal ${deal})`);
      let j = i;
      while (j < s.body.length && Number(s.body[j]!.fields[this.dealAt]) === deal) j++;
      if (this.rowsPerDeal < 0) this.rowsPerDeal = j - i;
      else if (j - i !== this.rowsPerDeal)
        throw new UsageError(`${s.name}: deal ${deal} has ${j - i} rows, other deals ${this.rowsPerDeal} (a shard stopped part way? rerun it)`);
      const seen = new Set<string>();
      for (let k = i; k < j; k++) {
        if (seen.has(s.body[k]!.raw)) throw new UsageError(`${s.name}: a row of deal ${deal} appears twice`);
        seen.add(s.body[k]!.raw);
        lines.push(s.body[k]!.raw);
      }
      this.expectDeal = deal + 1;
      i = j;
    }
    return lines.join("\n") + "\n";
  }

  headerText(): string {
    return this.header + "\n";
  }
}

/** The merged text of shard files held in memory (files in any order). */
export function mergeShardTexts(files: readonly { name: string; text: string }[]): string {
  if (files.length === 0) throw new UsageError("name at least one CSV to merge");
  const shards = files.map((f) => readShard(f.name, f.text)).sort((a, b) => a.first - b.first);
  const j = new ShardJoiner();
  const bodies = shards.map((s) => j.push(s));
  return j.headerText() + bodies.join("");
}

/** Writes `text` to `path` through a temp file + rename, so a reader never sees half a file. */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** First deal of a shard file, read from its first 64 KiB only. */
function firstDeal(path: string): number {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(1 << 16);
    const got = readSync(fd, buf, 0, buf.length, 0);
    const { records } = parseCsv(buf.toString("utf8", 0, got));
    const at = records[0]?.fields.indexOf("deal") ?? -1;
    const v = records[1] && at >= 0 ? Number(records[1].fields[at]) : NaN;
    return Number.isFinite(v) ? v : Number.MAX_SAFE_INTEGER;
  } finally {
    closeSync(fd);
  }
}

/**
 * Merges shard files into `out`, one shard in memory at a time (a million-deal study is many
 * gigabytes), through a temp file renamed into place only when every check has passed.
 */
export function mergeFiles(inputs: readonly string[], out: string): { files: number; rows: number } {
  if (inputs.length === 0) throw new UsageError("name at least one CSV to merge");
  const seen = new Set<string>();
  for (const p of inputs) {
    if (!existsSync(p)) throw new UsageError(`no such file: ${p}`);
    if (seen.has(resolve(p))) throw new UsageError(`${p} is named twice`);
    seen.add(resolve(p));
  }
  if (seen.has(resolve(out))) throw new UsageError(`--out ${out} is also an input; write the merged file elsewhere`);
  const ordered = inputs.map((p) => ({ p, first: firstDeal(p) })).sort((a, b) => a.first - b.first);
  const tmp = `${out}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(tmp, "w");
  } catch (e) {
    throw new UsageError(`cannot write ${out}: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
  let rows = 0;
  try {
    const j = new ShardJoiner();
    let pos = 0;
    for (const [k, { p }] of ordered.entries()) {
      const shard = readShard(p, readFileSync(p, "utf8"));
      const body = Buffer.from(j.push(shard));
      if (k === 0) pos += writeSync(fd, j.headerText(), pos);
      pos += writeSync(fd, body, 0, body.length, pos);
      rows += shard.body.length;
    }
    closeSync(fd);
    renameSync(tmp, out);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    throw e;
  }
  return { files: inputs.length, rows };
}

interface MergeArgs {
  files: string[];
  out: string;
}

export const mergeCommand: CommandModule<object, MergeArgs> = {
  command: "merge <files..>",
  describe: "join the CSVs of a sharded run (--shard i/n) into the file one unsharded run writes",
  builder: (y: Argv) =>
    y
      .positional("files", { type: "string", array: true, demandOption: true, describe: "shard CSVs, in any order" })
      .option("out", { type: "string", demandOption: true, describe: "merged CSV (written via temp file + rename)" }) as unknown as Argv<MergeArgs>,
  handler: (a) => {
    const { files, rows } = mergeFiles(a.files.map(String), a.out);
    process.stdout.write(`merged ${files} files, ${rows} rows -> ${a.out}\n`);
  },
};
