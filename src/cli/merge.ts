/**
 * `penguin merge a.csv b.csv … --out all.csv`: joins the CSVs of a sharded run (experiments'
 * `--shard i/n`, or any per-deal CSV with a `deal` column written deal by deal) into exactly the
 * file one unsharded run writes. Rows are copied byte for byte; files are put in order of their
 * first deal, and the merge refuses, with one line saying why, anything that would not be such a
 * file: different headers, a partial last row, overlapping or missing deals, or a deal with fewer
 * rows than the others (a shard killed part way: rerun it, it resumes, then merge again).
 */
import { closeSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../errors.js";
import { forEachCsvRecord, parseCsvText, type CsvRecord } from "../util/csv.js";
import { lockFile } from "../util/lock.js";
import { OutputWriter, outputTarget } from "../util/output.js";
import { checkRegularFile, openRegularFile } from "../util/read.js";
import { printable } from "../util/text.js";
import { flag } from "../options/registry.js";
import { heartbeat } from "./progress.js";

/**
 * Checks the records of shard files handed over in deal order, one record at a time, and passes
 * on the lines of the merged file. Deals must run on without a gap from file to file and every
 * deal must have the same number of rows (one per condition), so a shard that stopped early is
 * caught here. Only one deal's rows are held at a time.
 */
class ShardJoiner {
  #header: string | undefined;
  #firstFile = "";
  #dealAt = -1;
  #rowsPerDeal = -1;
  #expectDeal = NaN;
  #name = "";
  #rowsInFile = 0;
  #prevInFile = -Infinity;
  #group: string[] = [];
  #groupDeal = NaN;
  rows = 0;

  constructor(private readonly emit: (text: string) => void) {}

  /** Starts the next file; `header` is its first record. */
  begin(name: string, head: CsvRecord | undefined): void {
    this.#name = name;
    this.#rowsInFile = 0;
    this.#prevInFile = -Infinity;
    if (!head) throw new UsageError(`${name} is empty: no header row`);
    if (this.#header === undefined) {
      const dealAt = head.fields.indexOf("deal");
      if (dealAt < 0)
        throw new UsageError(
          `${name} has no "deal" column; merge joins per-deal CSVs (columns: ${head.fields.join(", ")})`,
        );
      this.#header = head.raw;
      this.#firstFile = name;
      this.#dealAt = dealAt;
      this.emit(`${head.raw}\n`);
    } else if (head.raw !== this.#header)
      throw new UsageError(
        `${name} has another header than ${this.#firstFile}: not shards of one run`,
      );
  }

  row(r: CsvRecord): void {
    const name = this.#name;
    const d = Number(r.fields[this.#dealAt]);
    if (!/^-?\d+$/.test(r.fields[this.#dealAt] ?? "") || !Number.isSafeInteger(d))
      throw new UsageError(
        `${name}: deal ${JSON.stringify(r.fields[this.#dealAt])} is not an integer`,
      );
    if (d < this.#prevInFile)
      throw new UsageError(
        `${name}: rows are not in deal order (deal ${d} after ${this.#prevInFile})`,
      );
    if (this.#rowsInFile === 0) {
      if (Number.isNaN(this.#expectDeal)) this.#expectDeal = d;
      if (d < this.#expectDeal)
        throw new UsageError(
          `${name} overlaps another file at deal ${d}: each deal must come from one shard`,
        );
      if (d > this.#expectDeal)
        throw new UsageError(
          `deals ${this.#expectDeal}…${d - 1} are missing before ${name}: merge every shard`,
        );
    }
    this.#prevInFile = d;
    this.#rowsInFile++;
    if (d !== this.#groupDeal) {
      this.#flush();
      if (d !== this.#expectDeal)
        throw new UsageError(
          `${name}: deal ${this.#expectDeal} is missing (next row is deal ${d})`,
        );
      this.#groupDeal = d;
    }
    if (this.#group.includes(r.raw))
      throw new UsageError(`${name}: a row of deal ${d} appears twice`);
    this.#group.push(r.raw);
  }

  /** Ends the current file: its last deal must be complete. */
  end(): void {
    if (this.#rowsInFile === 0) throw new UsageError(`${this.#name} holds no rows`);
    this.#flush();
  }

  #flush(): void {
    if (this.#group.length === 0) return;
    const n = this.#group.length;
    if (this.#rowsPerDeal < 0) this.#rowsPerDeal = n;
    else if (n !== this.#rowsPerDeal)
      throw new UsageError(
        `${this.#name}: deal ${this.#groupDeal} has ${n} rows, other deals ${this.#rowsPerDeal} (a shard stopped part way? rerun it)`,
      );
    this.emit(`${this.#group.join("\n")}\n`);
    this.rows += n;
    this.#group = [];
    this.#expectDeal = this.#groupDeal + 1;
    this.#groupDeal = NaN;
  }
}

/** First deal of a shard's text (Number.MAX_SAFE_INTEGER when it has none), for ordering. */
function firstDealOf(records: readonly CsvRecord[]): number {
  const at = records[0]?.fields.indexOf("deal") ?? -1;
  const v = records[1] && at >= 0 ? Number(records[1].fields[at]) : NaN;
  return Number.isFinite(v) ? v : Number.MAX_SAFE_INTEGER;
}

/** The merged text of shard files held in memory (files in any order). */
export function mergeShardTexts(files: readonly { name: string; text: string }[]): string {
  if (files.length === 0) throw new UsageError("name at least one CSV to merge");
  const parsed = files.map((f) => {
    const { records, partial } = parseCsvText(f.text, f.name);
    if (partial !== "")
      throw new UsageError(
        `${f.name} ends in a partial row (its run was killed): rerun that shard to finish it, then merge`,
      );
    return { name: f.name, records };
  });
  parsed.sort((a, b) => firstDealOf(a.records) - firstDealOf(b.records));
  let out = "";
  const j = new ShardJoiner((t) => (out += t));
  for (const f of parsed) {
    j.begin(f.name, f.records[0]);
    for (const r of f.records.slice(1)) j.row(r);
    j.end();
  }
  return out;
}

/**
 * Shard files are named …shard-i-of-n… by the experiments (0 ≤ i < n). When the inputs carry
 * such names, every shard of the run must be there: a missing first or last shard leaves no gap
 * between the files given, so only the names can show it.
 */
function checkShardSet(inputs: readonly string[]): void {
  const labels = inputs.map((p) => ({ p, m: /shard-(\d+)-of-(\d+)/.exec(basename(p)) }));
  const named = labels.filter((l) => l.m);
  if (named.length === 0) return;
  const unnamed = labels.find((l) => !l.m);
  if (unnamed)
    throw new UsageError(
      `${printable(unnamed.p)} is not named shard-i-of-n like the other inputs: merge the shards of one run`,
    );
  const counts = new Set(named.map((l) => Number(l.m![2])));
  if (counts.size > 1)
    throw new UsageError(
      `the inputs are shards of runs split ${[...counts].join(" and ")} ways: merge the shards of one run`,
    );
  const n = [...counts][0]!;
  const have = new Set<number>();
  for (const l of named) {
    const i = Number(l.m![1]);
    if (i >= n)
      throw new UsageError(
        `${printable(l.p)}: shard ${i} of ${n} does not exist (shards are 0 to ${n - 1})`,
      );
    if (have.has(i)) throw new UsageError(`shard ${i} of ${n} is named twice`);
    have.add(i);
  }
  const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !have.has(i));
  if (missing.length)
    throw new UsageError(
      `shard${missing.length > 1 ? "s" : ""} ${missing.join(", ")} of ${n} ${missing.length > 1 ? "are" : "is"} missing: merge needs every shard of the run (0 to ${n - 1})`,
    );
}

/** Reads the header and first row of a shard (a 1 MiB chunk at most) to order the files. */
function firstDeal(path: string): number {
  const { fd } = openRegularFile(path, "merge input");
  const records: CsvRecord[] = [];
  try {
    forEachCsvRecord(fd, path, (r) => {
      records.push(r);
      if (records.length === 2) throw records;
    });
  } catch (e) {
    if (e !== records) throw e;
  } finally {
    closeSync(fd);
  }
  return firstDealOf(records);
}

/**
 * Merges shard files into `out` with bounded memory (a million-deal study is many gigabytes):
 * each shard is read in chunks and checked as it is copied. A regular `out` appears (by rename)
 * only when every check has passed; a device or FIFO (`/dev/stdout`) is written as a stream.
 */
export function mergeFiles(
  inputs: readonly string[],
  out: string,
): { files: number; rows: number } {
  if (inputs.length === 0) throw new UsageError("name at least one CSV to merge");
  const seen = new Set<string>();
  for (const p of inputs) {
    checkRegularFile(p, "merge input");
    if (seen.has(resolve(p))) throw new UsageError(`${printable(p)} is named twice`);
    seen.add(resolve(p));
  }
  checkShardSet(inputs);
  const target = outputTarget(out, { stream: true, what: "--out" });
  if (seen.has(target.path))
    throw new UsageError(
      `--out ${printable(out)} is also an input; write the merged file elsewhere`,
    );
  const ordered = inputs.map((p) => ({ p, first: firstDeal(p) })).sort((a, b) => a.first - b.first);
  const lock = target.kind === "file" ? lockFile(target.path) : undefined;
  try {
    const w = new OutputWriter(target);
    try {
      const j = new ShardJoiner((t) => w.write(t));
      for (const { p } of ordered) {
        const { fd, size } = openRegularFile(p, "merge input");
        try {
          const complete = forEachCsvRecord(fd, p, (r, i) => (i === 0 ? j.begin(p, r) : j.row(r)));
          if (complete === 0) j.begin(p, undefined);
          if (complete < size)
            throw new UsageError(
              `${printable(p)} ends in a partial row (its run was killed): rerun that shard to finish it, then merge`,
            );
          j.end();
        } finally {
          closeSync(fd);
        }
      }
      w.commit();
      return { files: inputs.length, rows: j.rows };
    } catch (e) {
      w.abort();
      throw e;
    }
  } finally {
    lock?.release();
  }
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
      .positional("files", {
        type: "string",
        array: true,
        demandOption: true,
        describe: "shard CSVs, in any order",
      })
      .option("out", {
        ...flag("out", { detail: "the merged CSV (written via temp file + rename)" }),
        demandOption: true,
      }) as unknown as Argv<MergeArgs>,
  handler: (a) => {
    // Millions of rows take a while: a line every 10 s meanwhile.
    const quiet = heartbeat("penguin merge");
    let merged: ReturnType<typeof mergeFiles>;
    try {
      merged = mergeFiles(a.files.map(String), a.out);
    } finally {
      quiet();
    }
    const { files, rows } = merged;
    process.stdout.write(`merged ${files} files, ${rows} rows -> ${a.out}\n`);
  },
};
