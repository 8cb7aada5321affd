/**
 * The atlas's shard files: one per row, player and shard, under `<out>/shards/<row>/`, each a
 * resumable CSV (src/eval/csv.ts) with one line per finished block of deals. A line holds the
 * block's counts, the process CPU time it took, the deals not won (solver: proved lost and
 * unknown), written as ranges, and the build that played it (`code`). Every line repeats the
 * shard's settings (rules, player, budget, verdict version, deal range, shard), so a resumed run
 * with other settings is refused, and the merge can check that shards belong together without
 * trusting file names.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../src/errors.js";
import { ResumableCsv } from "../../src/eval/csv.js";
import { readCsvFile } from "../../src/util/csv.js";
import { parseShard, type Shard } from "./shard.js";

export const SHARD_COLUMNS = [
  "row",
  "rules",
  "deck",
  "player",
  "max_states",
  "version",
  "first",
  "last",
  "shard",
  "from",
  "to",
  "won",
  "lost",
  "unknown",
  "cpu_ms",
  "lost_deals",
  "unknown_deals",
  "code",
] as const;

/** What identifies a shard: every line of its file carries these. */
export interface ShardKey {
  readonly row: string;
  readonly rules: string;
  readonly deck: string;
  readonly player: string;
  /** The solver's budget in positions; "" for an agent. */
  readonly maxStates: string;
  /** The verdict version (atlas-version.ts). */
  readonly version: string;
  /** The whole run's deal range (all shards), inclusive. */
  readonly first: number;
  readonly last: number;
  readonly shard: Shard;
}

export interface ShardContent extends ShardKey {
  readonly path: string;
  /** This shard's deals [start, end): the run's range cut by shardRange. */
  readonly start: number;
  readonly end: number;
  /** Deals finished: start … done−1. */
  readonly done: number;
  readonly won: number;
  readonly lost: number[];
  readonly unknown: number[];
  readonly cpuMs: number;
  /** The builds that played its blocks (codeVersion), in order, each once. */
  readonly codes: string[];
}

/** Sorted deal numbers as "71 1295-1297 1974": compact where lost deals come in runs. */
export function rangesText(deals: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < deals.length; ) {
    let j = i;
    while (j + 1 < deals.length && deals[j + 1] === deals[j]! + 1) j++;
    parts.push(j === i ? String(deals[i]) : `${deals[i]}-${deals[j]}`);
    i = j + 1;
  }
  return parts.join(" ");
}

export function parseRanges(text: string, what: string): number[] {
  const out: number[] = [];
  for (const part of text.split(" ")) {
    if (part === "") continue;
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new UsageError(`${what}: ${JSON.stringify(part)} is not a deal or a range a-b`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new UsageError(`${what}: range ${part} runs backwards`);
    for (let d = a; d <= b; d++) out.push(d);
  }
  return out;
}

export function shardFileName(k: ShardKey, playerName: string): string {
  return `${playerName}.${k.first}-${k.last}.shard-${k.shard.index}-of-${k.shard.count}.csv`;
}

/** Folders whose source decides each kind of result: their hash is the code version. */
const VERSION_DIRS = {
  solver: ["src/engine", "src/solver"],
  agent: ["src/engine", "src/agents", "src/eval", "src/solver", "src/train"],
} as const;

const versions = new Map<string, string>();

/**
 * `<package version>+<12 hex digits>`: a hash of the source files a result comes from (the
 * TypeScript sources in a clone, the built JavaScript in an installed package), written beside
 * every block as the build that played it. Any edit to those folders changes it, refactors
 * included, so it only records: whether shards fit together is the verdict version's question
 * (atlas-version.ts).
 */
export function codeVersion(kind: keyof typeof VERSION_DIRS): string {
  const known = versions.get(kind);
  if (known) return known;
  let root = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(root, "package.json")) && dirname(root) !== root) root = dirname(root);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  const fromSource = existsSync(join(root, "src/solver/search.ts"));
  const hash = createHash("sha256");
  for (const d of VERSION_DIRS[kind]) {
    const dir = fromSource ? join(root, d) : join(root, "dist", d);
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => (fromSource ? /\.ts$/.test(f) && !f.endsWith(".d.ts") : f.endsWith(".js")))
      .sort();
    for (const f of files) {
      hash.update(`${relative(root, join(dir, f))}\n`);
      hash.update(readFileSync(join(dir, f)));
    }
  }
  const v = `${pkg.version}+${hash.digest("hex").slice(0, 12)}`;
  versions.set(kind, v);
  return v;
}

function fixedOf(k: ShardKey): Record<string, string> {
  return {
    row: k.row,
    rules: k.rules,
    deck: k.deck,
    player: k.player,
    max_states: k.maxStates,
    version: k.version,
    first: String(k.first),
    last: String(k.last),
    shard: `${k.shard.index}/${k.shard.count}`,
  };
}

/** Checks one block line against the lines before it; returns the deals it covers. */
function checkBlock(
  f: Readonly<Record<string, string>>,
  expectFrom: number,
  end: number,
  where: string,
): { to: number; won: number; lost: number[]; unknown: number[]; cpuMs: number } {
  const from = Number(f.from);
  const to = Number(f.to);
  const won = Number(f.won);
  const lostN = Number(f.lost);
  const unknownN = Number(f.unknown);
  const cpuMs = Number(f.cpu_ms);
  if (from !== expectFrom || !(to > from) || to > end)
    throw new UsageError(
      `${where}: block ${f.from}-${f.to} does not follow on from deal ${expectFrom} within the shard (ends ${end}): the file is damaged; delete it to replay the shard`,
    );
  const lost = parseRanges(f.lost_deals ?? "", where);
  const unknown = parseRanges(f.unknown_deals ?? "", where);
  const inBlock = (d: number): boolean => d >= from && d < to;
  if (
    ![won, lostN, unknownN, cpuMs].every((v) => Number.isSafeInteger(v) && v >= 0) ||
    won + lostN + unknownN !== to - from ||
    unknown.length !== unknownN ||
    (lost.length !== lostN && lost.length !== 0) ||
    !lost.every(inBlock) ||
    !unknown.every(inBlock)
  )
    throw new UsageError(
      `${where}: block ${from}-${to} has inconsistent counts: the file is damaged; delete it to replay the shard`,
    );
  return { to, won, lost, unknown, cpuMs };
}

/** This shard's deals [start, end) of the run first … last (see shard.ts). */
export function shardDeals(k: ShardKey): { start: number; end: number } {
  const total = k.last - k.first + 1;
  return {
    start: k.first + Math.floor((k.shard.index * total) / k.shard.count),
    end: k.first + Math.floor(((k.shard.index + 1) * total) / k.shard.count),
  };
}

/** Opens (or creates) a shard file to play on; `done` is the first deal not yet played. */
export function openShard(path: string, k: ShardKey): { file: ResumableCsv; done: number } {
  const { start, end } = shardDeals(k);
  let done = start;
  const file = ResumableCsv.open({
    path,
    columns: SHARD_COLUMNS,
    fixed: fixedOf(k),
    onRow: (f, line) => {
      done = checkBlock(f, done, end, `${path} line ${line}`).to;
    },
  });
  return { file, done };
}

/** Reads a whole shard file for the merge, checking each line as a resumed run would. */
export function readShard(path: string): ShardContent {
  let key: ShardKey | undefined;
  let fixed: Record<string, string> | undefined;
  let start = 0;
  let end = 0;
  let done = 0;
  let won = 0;
  let cpuMs = 0;
  const lost: number[] = [];
  const unknown: number[] = [];
  const codes: string[] = [];
  readCsvFile(path, "shard file", ({ fields, raw }, i) => {
    const where = `${path} line ${i + 1}`;
    if (i === 0) {
      if (raw === SHARD_COLUMNS.filter((c) => c !== "code").join(","))
        throw new UsageError(
          `${path} was written before verdict versions: convert it with scripts/atlas/restamp.ts (docs/atlas.md)`,
        );
      if (raw !== SHARD_COLUMNS.join(","))
        throw new UsageError(`${path} is not an atlas shard file (its header differs)`);
      return;
    }
    if (fields.length !== SHARD_COLUMNS.length)
      throw new UsageError(
        `${where} has ${fields.length} fields, expected ${SHARD_COLUMNS.length}`,
      );
    const f: Record<string, string> = {};
    SHARD_COLUMNS.forEach((c, j) => (f[c] = fields[j]!));
    if (!key) {
      const [a, b] = [Number(f.first), Number(f.last)];
      if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || b < a)
        throw new UsageError(`${where}: bad deal range ${f.first}-${f.last}`);
      key = {
        row: f.row!,
        rules: f.rules!,
        deck: f.deck!,
        player: f.player!,
        maxStates: f.max_states!,
        version: f.version!,
        first: a,
        last: b,
        shard: parseShard(f.shard!),
      };
      fixed = fixedOf(key);
      ({ start, end } = shardDeals(key));
      done = start;
    }
    for (const [c, v] of Object.entries(fixed!))
      if (f[c] !== v)
        throw new UsageError(
          `${where}: ${c} ${JSON.stringify(f[c])} differs from line 2's ${JSON.stringify(v)}`,
        );
    const b = checkBlock(f, done, end, where);
    done = b.to;
    won += b.won;
    cpuMs += b.cpuMs;
    lost.push(...b.lost);
    unknown.push(...b.unknown);
    if (!codes.includes(f.code!)) codes.push(f.code!);
  });
  if (!key)
    throw new UsageError(`${path} holds no finished block yet: finish its shard or delete it`);
  return { ...key, path, start, end, done, won, lost, unknown, cpuMs, codes };
}
