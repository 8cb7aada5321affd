/**
 * The atlas's merge: reads every shard file under `<out>/shards/`, refuses a set that does not
 * fit together, and writes the atlas from the rest:
 *
 * - `summary.csv`: per row, the solver's solvable, proved-lost and unknown counts, each with its
 *   95 % Wilson interval, the budget and the verdict version (atlas-version.ts);
 * - `players.csv`: per row and agent, wins with their interval and the share of the solvable
 *   deals (on the same deals) the agent won;
 * - `deals/<row>.txt`: the proved-lost and unknown deals, as ranges or a bitset (atlas-deals.ts),
 *   to re-check;
 * - `flippers-empty.svg`, `flippers-group.svg`: solvable share and win rates against flippers;
 * - `shards.csv`: every shard file's range, budget, verdict version, the builds that played it
 *   and CPU seconds.
 *
 * All but `shards.csv` depend only on the verdicts, never on how the deals were split or how
 * long they took, so any sharding gives them byte for byte; `shards.csv` is the ledger of how
 * the work was done (it is the one file that differs between a 1-shard and a 4-shard run).
 *
 * Refused: a shard of a run missing or unfinished, two runs whose deals overlap or leave a gap,
 * and shards of one row and player that differ in rules, deck, budget or verdict version.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../src/errors.js";
import { csvLine } from "../../src/eval/csv.js";
import { makeFolder, writeOutput } from "../../src/util/output.js";
import { wilson } from "../../src/util/wilson.js";
import { ATLAS_ROWS } from "./atlas-rows.js";
import { dealLines } from "./atlas-deals.js";
import { readShard, type ShardContent, type ShardKey } from "./atlas-shard.js";
import { rateChart, writeSvg } from "./plot.js";

/** A player's totals over a run's merged shards: the shards' key (less the shard) and counts. */
export interface PlayerTotals extends Omit<ShardKey, "shard"> {
  readonly n: number;
  readonly won: number;
  readonly lost: number[];
  readonly unknown: number[];
  readonly cpuMs: number;
  readonly shards: readonly ShardContent[];
}

const SUMMARY_HEADER = [
  "row",
  "rules",
  "deck",
  "first_deal",
  "last_deal",
  "n",
  "solvable",
  "lost",
  "unknown",
  "rate",
  "low",
  "high",
  "lost_rate",
  "lost_low",
  "lost_high",
  "unknown_rate",
  "unknown_low",
  "unknown_high",
  "max_states",
  "version",
];

const PLAYERS_HEADER = [
  "row",
  "rules",
  "deck",
  "player",
  "first_deal",
  "last_deal",
  "n",
  "won",
  "rate",
  "low",
  "high",
  "solvable",
  "share_of_solvable",
  "version",
];

const SHARDS_HEADER = [
  "row",
  "player",
  "first",
  "last",
  "shard",
  "deals",
  "max_states",
  "version",
  "code",
  "cpu_seconds",
];

const frac = (x: number): string => x.toFixed(6);

/** Every shard file under `dir/shards/<row>/`, read and checked. */
function readAll(dir: string, rows: readonly string[] | undefined): ShardContent[] {
  const root = join(dir, "shards");
  if (!existsSync(root)) throw new UsageError(`${root} does not exist: play some shards first`);
  const out: ShardContent[] = [];
  for (const row of readdirSync(root).sort()) {
    if (rows && !rows.includes(row)) continue;
    const rd = join(root, row);
    if (!statSync(rd).isDirectory()) continue;
    for (const f of readdirSync(rd).sort()) {
      if (!f.endsWith(".csv")) continue;
      const s = readShard(join(rd, f));
      if (s.row !== row)
        throw new UsageError(
          `${join(rd, f)} holds row ${s.row}, not ${row}: move it to its folder`,
        );
      out.push(s);
    }
  }
  return out;
}

/** One row and player: its runs checked complete, disjoint and consistent, then summed. */
function combine(shards: ShardContent[]): PlayerTotals {
  const s0 = shards[0]!;
  const what = `${s0.row} ${s0.player}`;
  for (const s of shards)
    for (const [k, a, b] of [
      ["rules", s.rules, s0.rules],
      ["deck", s.deck, s0.deck],
      ["budget", s.maxStates, s0.maxStates],
      ["verdict version", s.version, s0.version],
    ] as const)
      if (a !== b)
        throw new UsageError(
          `${what}: shard ${s.path} has ${k} ${a}, ${s0.path} has ${b}: replay one of them under the other's settings`,
        );
  // Runs: one deal range cut into n shards; every shard of each run must be there and finished.
  const runs = new Map<string, ShardContent[]>();
  for (const s of shards) {
    const key = `${s.first}-${s.last}/${s.shard.count}`;
    runs.set(key, [...(runs.get(key) ?? []), s]);
  }
  const ordered: ShardContent[] = [];
  for (const [key, list] of runs) {
    const [range, n] = key.split("/");
    const have = new Map(list.map((s) => [s.shard.index, s]));
    for (let i = 0; i < Number(n); i++) {
      const s = have.get(i);
      if (!s)
        throw new UsageError(
          `${what}: deals ${range} were split into ${n} shards and shard ${i}/${n} is missing: play it (--shard ${i}/${n})`,
        );
      if (s.done < s.end)
        throw new UsageError(
          `${what}: shard ${i}/${n} of deals ${range} is unfinished (${s.done - s.start} of ${s.end - s.start} deals): rerun it to resume`,
        );
    }
    if (have.size !== list.length)
      throw new UsageError(`${what}: deals ${range}, ${n} shards: a shard appears twice`);
    ordered.push(...list);
  }
  ordered.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < ordered.length; i++) {
    const [a, b] = [ordered[i - 1]!, ordered[i]!];
    if (b.start < a.end)
      throw new UsageError(
        `${what}: ${a.path} (deals ${a.start}-${a.end - 1}) and ${b.path} (deals ${b.start}-${b.end - 1}) overlap: remove one run`,
      );
    if (b.start > a.end)
      throw new UsageError(
        `${what}: no shard has deals ${a.end}-${b.start - 1} (between ${a.path} and ${b.path}): play them`,
      );
  }
  const lost: number[] = [];
  const unknown: number[] = [];
  let won = 0;
  let cpuMs = 0;
  for (const s of ordered) {
    won += s.won;
    cpuMs += s.cpuMs;
    for (const d of s.lost) lost.push(d);
    for (const d of s.unknown) unknown.push(d);
  }
  const first = ordered[0]!.start;
  const last = ordered[ordered.length - 1]!.end - 1;
  return {
    row: s0.row,
    rules: s0.rules,
    deck: s0.deck,
    player: s0.player,
    maxStates: s0.maxStates,
    version: s0.version,
    first,
    last,
    n: last - first + 1,
    won,
    lost,
    unknown,
    cpuMs,
    shards: ordered,
  };
}

const rowOrder = (row: string): number => {
  const i = ATLAS_ROWS.findIndex((r) => r.name === row);
  return i < 0 ? ATLAS_ROWS.length : i;
};

/** Row and player totals of the shards under `dir` (only `rows`, when given). */
export function atlasTotals(dir: string, rows?: readonly string[]): PlayerTotals[] {
  const groups = new Map<string, ShardContent[]>();
  for (const s of readAll(dir, rows)) {
    const key = `${s.row}\n${s.player}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const solverFirst = (p: string): string => (p.startsWith("solver") ? `0${p}` : `1${p}`);
  return [...groups.values()]
    .map(combine)
    .sort(
      (a, b) =>
        rowOrder(a.row) - rowOrder(b.row) ||
        a.row.localeCompare(b.row) ||
        solverFirst(a.player).localeCompare(solverFirst(b.player)),
    );
}

const isSolver = (t: PlayerTotals): boolean => t.player.startsWith("solver");

/**
 * Writes the atlas files under `dir` from the shards under `from` (default `dir`: a folder of
 * shards elsewhere keeps them out of a small results folder); returns the totals it wrote them from.
 */
export async function writeAtlas(
  dir: string,
  rows?: readonly string[],
  from = dir,
): Promise<PlayerTotals[]> {
  const totals = atlasTotals(from, rows);
  if (totals.length === 0) throw new UsageError(`no shard files under ${join(from, "shards")}`);
  makeFolder(dir);
  const solvers = totals.filter(isSolver);
  const agents = totals.filter((t) => !isSolver(t));
  const summary = [csvLine(SUMMARY_HEADER)];
  for (const t of solvers) {
    const ci = (k: number): string[] => {
      const w = wilson(k, t.n);
      return [frac(k / t.n), frac(w.low), frac(w.high)];
    };
    summary.push(
      csvLine([
        t.row,
        t.rules,
        t.deck,
        t.first,
        t.last,
        t.n,
        t.won,
        t.lost.length,
        t.unknown.length,
        ...ci(t.won),
        ...ci(t.lost.length),
        ...ci(t.unknown.length),
        t.maxStates,
        t.version,
      ]),
    );
  }
  const players = [csvLine(PLAYERS_HEADER)];
  for (const t of agents) {
    const w = wilson(t.won, t.n);
    // Solvable deals among the agent's own deals, when the solver covered them.
    const s = solvers.find((x) => x.row === t.row && x.first <= t.first && x.last >= t.last);
    const inRange = (d: number): boolean => d >= t.first && d <= t.last;
    const solvable = s
      ? t.n - s.lost.filter(inRange).length - s.unknown.filter(inRange).length
      : undefined;
    players.push(
      csvLine([
        t.row,
        t.rules,
        t.deck,
        t.player,
        t.first,
        t.last,
        t.n,
        t.won,
        frac(t.won / t.n),
        frac(w.low),
        frac(w.high),
        solvable ?? "",
        solvable ? frac(t.won / solvable) : "",
        t.version,
      ]),
    );
  }
  const ledger = [csvLine(SHARDS_HEADER)];
  for (const t of totals)
    for (const s of t.shards)
      ledger.push(
        csvLine([
          s.row,
          s.player,
          s.first,
          s.last,
          `${s.shard.index}/${s.shard.count}`,
          s.end - s.start,
          s.maxStates,
          s.version,
          s.codes.join(" "),
          (s.cpuMs / 1000).toFixed(1),
        ]),
      );
  writeOutput(join(dir, "summary.csv"), summary.join(""));
  writeOutput(join(dir, "players.csv"), players.join(""));
  writeOutput(join(dir, "shards.csv"), ledger.join(""));
  const dealsDir = join(dir, "deals");
  rmSync(dealsDir, { recursive: true, force: true });
  mkdirSync(dealsDir, { recursive: true });
  for (const t of solvers)
    writeOutput(
      join(dealsDir, `${t.row}.txt`),
      `# ${t.row}: rules ${t.rules}, ${t.deck === "ms" ? "Microsoft deals" : "seeded deals"} ${t.first}-${t.last}, ${t.player}, verdict version ${t.version}\n` +
        `# lost: proved unwinnable; unknown: the budget ran out. "lost 71 1295-1297": deals and ranges,\n` +
        `# both ends included. "lost-bits F B": deal F+i is lost when bit i%8 (least significant first)\n` +
        `# of byte i/8 of the base64 text B is set. Each list takes the shorter form.\n` +
        dealLines("lost", t.lost, t.first, t.last) +
        dealLines("unknown", t.unknown, t.first, t.last),
    );
  await writePlots(dir, totals);
  return totals;
}

/** Player name without options ("greedy(tuned)" → "greedy"), for the plots' legends. */
function shortPlayer(p: string): string {
  return p.startsWith("solver") ? "solvable (solver)" : p.replace(/\(.*$/, "");
}

async function writePlots(dir: string, totals: readonly PlayerTotals[]): Promise<void> {
  const points = totals.flatMap((t) => {
    const plot = ATLAS_ROWS.find((r) => r.name === t.row)?.plot;
    if (!plot) return [];
    const w = wilson(t.won, t.n);
    const pct = (x: number): number => +(100 * x).toFixed(3);
    return [
      {
        ...plot,
        player: shortPlayer(t.player),
        rate: pct(t.won / t.n),
        lo: pct(w.low),
        hi: pct(w.high),
        n: t.n,
      },
    ];
  });
  const charts = [
    {
      file: "flippers-empty.svg",
      keep: (p: { group: string }) => p.group === "unlimited",
      column: { field: "empty", title: "empty-column rule", sort: ["below-base", "any", "none"] },
      title:
        "Penguin: solvable share and win rates by flippers and empty-column rule (95 % intervals)",
    },
    {
      file: "flippers-group.svg",
      keep: (p: { empty: string }) => p.empty === "below-base",
      column: {
        field: "group",
        title: "group moves",
        sort: ["unlimited", "supermove", "free-cells"],
      },
      title:
        "Penguin: solvable share and win rates by flippers and group-move rule (95 % intervals)",
    },
  ];
  for (const c of charts) {
    const data = points.filter((p) => c.keep(p));
    const path = join(dir, c.file);
    if (data.length === 0) {
      rmSync(path, { force: true });
      continue;
    }
    await writeSvg(
      path,
      rateChart(data, {
        title: c.title,
        x: { field: "flippers", title: "flippers", type: "quantitative" },
        color: { field: "player", title: "player" },
        column: c.column,
        mark: "line",
        yTitle: "share of deals (%)",
      }),
    );
  }
}
