/**
 * The difficulty atlas: one seeded deal range through every rule set of experiments/lib/atlas-rows.ts,
 * played by the exact solver (solvable, proved lost, unknown) and, with `--agent`, by the
 * agents, into `results/atlas/` (see experiments/lib/atlas-merge.ts for the files).
 *
 *   npx tsx experiments/atlas.ts [--rows penguin-7,...] [--deals N] [--seed 1] [--max-states 1000000]
 *                                [--agent solver|random,greedy,lookahead,safety] [--workers 1]
 *                                [--shard i/n] [--merge [--shards DIR]] [--out results/atlas]
 *
 * Without `--shard` it plays every selected row and then merges. With `--shard i/n` it plays only
 * that shard of each row (into `<out>/shards/`) and stops; `--merge` then plays nothing and
 * writes the atlas from the shards (SLURM: scripts/atlas/atlas.sbatch; Kubernetes:
 * scripts/atlas/atlas-job.yaml). A killed run resumes where it stopped when rerun unchanged.
 */
import { join } from "node:path";
import { UsageError } from "../src/errors.js";
import { TaskPool, workerModule } from "../src/util/pool.js";
import { exitWithWrappers } from "../src/util/parent.js";
import { mkdirSync } from "node:fs";
import { resolveRules, rulesLabel } from "../src/engine/rules.js";
import {
  COMMON_OPTIONS,
  exitOnUsageError,
  helpText,
  isMain,
  parseOptions,
  shared,
} from "./lib/options.js";
import { ROW_NAMES, atlasRow } from "./lib/atlas-rows.js";
import {
  codeVersion,
  openShard,
  rangesText,
  shardDeals,
  shardFileName,
  type ShardKey,
} from "./lib/atlas-shard.js";
import { writeAtlas, type PlayerTotals } from "./lib/atlas-merge.js";
import { verdictVersion } from "./lib/atlas-version.js";
import type { BlockResult, BlockTask } from "./lib/atlas-play.js";
import { describe } from "./lib/play-condition.js";
import { condition } from "./lib/atlas-play.js";
import type { PlayerSpec } from "./lib/types.js";

/** The agents beside the solver, and the deals each plays at most (the sizes). */
const AGENT_DEALS = {
  random: 100_000,
  greedy: 100_000,
  lookahead: 10_000,
  safety: 10_000,
} as const;
const PLAYER_NAMES = ["solver", "random", "greedy", "lookahead", "safety"] as const;
export type PlayerName = (typeof PLAYER_NAMES)[number];
/** The network the `safety` player plays: the shipped one, which `penguin eval --agent safety` plays. */
export const SAFETY_MODEL = "models/safety";

export const ATLAS_OPTIONS = {
  rows: { type: "list", default: ROW_NAMES, choices: ROW_NAMES, help: "atlas rows, in this order" },
  deals: shared("deals", {
    default: 0,
    detail:
      "per row; default each row's target (1,000,000 or 100,000; agents at most 100,000 or 10,000)",
  }),
  seed: shared("seed", { default: 1 }),
  agent: shared("agent", {
    default: ["solver"],
    list: true,
    choices: PLAYER_NAMES,
    detail: "solver (solvability) and/or agents",
  }),
  "max-states": shared("max-states", {
    default: 1_000_000,
    detail: "a deal beyond it is counted unknown",
  }),
  shard: COMMON_OPTIONS.shard,
  merge: { type: "flag", help: "play nothing: write the atlas from the shard files" },
  workers: shared("workers", { default: 1 }),
  out: shared("out", { default: "results/atlas", detail: "the atlas folder" }),
  shards: {
    type: "string",
    default: "",
    help: "with --merge: the folder whose shards/ to merge (default: --out)",
  },
  quiet: shared("quiet"),
} as const;

export function playerSpec(name: PlayerName, maxStates: number): PlayerSpec {
  switch (name) {
    case "solver":
      return { kind: "solver", maxStates };
    case "random":
      return { kind: "agent", agent: "random", options: {} };
    case "safety":
      return { kind: "agent", agent: "safety", options: { model: SAFETY_MODEL } };
    default:
      return { kind: "agent", agent: name, options: { heuristic: "tuned" } };
  }
}

export interface AtlasRun {
  readonly played: number;
  readonly totals?: PlayerTotals[];
}

export async function runAtlas(argv: readonly string[]): Promise<AtlasRun | undefined> {
  const o = parseOptions("atlas", ATLAS_OPTIONS, argv);
  if (o.help) {
    process.stdout.write(`${helpText("atlas", ATLAS_OPTIONS)}\n`);
    return undefined;
  }
  if (o.shards && !o.merge)
    throw new UsageError("--shards goes with --merge: a run plays into --out's shards/");
  if (o.merge && o.shard)
    throw new UsageError(
      "--merge and --shard do not go together: merge after every shard is played",
    );
  const log = (s: string): void => void (o.quiet || process.stdout.write(`${s}\n`));
  if (o.merge) {
    const totals = await writeAtlas(
      o.out,
      argv.some((a) => a.startsWith("--rows")) ? o.rows : undefined,
      o.shards || o.out,
    );
    log(table(totals));
    return { played: 0, totals };
  }
  const shard = o.shard ?? { index: 0, count: 1 };
  let pool: TaskPool<null, BlockTask, BlockResult> | undefined;
  let played = 0;
  let closing: (() => void) | undefined;
  const stop = (sig: string): void => {
    closing?.();
    process.stderr.write(`\natlas: stopped by ${sig}; rerun the same command to resume\n`);
    process.exit(sig === "SIGINT" ? 130 : 143);
  };
  const onInt = (): void => stop("SIGINT");
  const onTerm = (): void => stop("SIGTERM");
  process.once("SIGINT", onInt);
  process.once("SIGTERM", onTerm);
  const unwatch = exitWithWrappers(() => stop("the end of its npx/tsx wrapper"));
  try {
    for (const rowName of o.rows) {
      const row = atlasRow(rowName);
      const rules = rulesLabel(resolveRules(row.preset, row.overrides));
      for (const p of o.agent as PlayerName[]) {
        const spec = playerSpec(p, o["max-states"]);
        const cap = p === "solver" ? Number.POSITIVE_INFINITY : AGENT_DEALS[p];
        const deals = Math.min(o.deals || row.target, cap);
        let player: string;
        try {
          player = await describe(condition(row.name, spec));
        } catch (e) {
          // The shipped network plays the rules it was trained for (7 columns): other rows go without.
          if (p !== "safety" || !(e instanceof UsageError)) throw e;
          log(`${row.name}: no safety network row (${e.message})`);
          continue;
        }
        const key: ShardKey = {
          row: row.name,
          rules,
          deck: row.deck,
          player,
          maxStates: p === "solver" ? String(o["max-states"]) : "",
          version: await verdictVersion(row.name, p, spec),
          first: o.seed,
          last: o.seed + deals - 1,
          shard,
        };
        const code = codeVersion(p === "solver" ? "solver" : "agent");
        const { start, end } = shardDeals(key);
        const dir = join(o.out, "shards", row.name);
        mkdirSync(dir, { recursive: true });
        const { file, done } = openShard(join(dir, shardFileName(key, p)), key);
        closing = () => file.close();
        try {
          const blocks: BlockTask[] = [];
          // Blocks are cut from the shard's first deal, so a resumed run cuts them as the first did.
          for (let from = done; from < end; ) {
            const to = Math.min(
              start + (Math.floor((from - start) / row.block) + 1) * row.block,
              end,
            );
            blocks.push({ row: row.name, player: spec, from, to });
            from = to;
          }
          if (blocks.length === 0) {
            log(`${row.name} ${key.player}: deals ${start}-${end - 1} already played`);
            continue;
          }
          pool ??= new TaskPool(
            workerModule("./lib/atlas-worker.js", import.meta.url),
            null,
            o.workers,
            "atlas",
          );
          log(
            `${row.name} ${key.player}: deals ${blocks[0]!.from}-${end - 1} (shard ${shard.index}/${shard.count})`,
          );
          let cpu = process.cpuUsage();
          let i = 0;
          const t0 = Date.now();
          for await (const r of pool.ordered(blocks.length, (k) => blocks[k]!, 2 * o.workers)) {
            const b = blocks[i++]!;
            const used = process.cpuUsage(cpu);
            cpu = process.cpuUsage();
            file.append([
              [
                key.row,
                key.rules,
                key.deck,
                key.player,
                key.maxStates,
                key.version,
                key.first,
                key.last,
                `${shard.index}/${shard.count}`,
                b.from,
                b.to,
                r.won,
                b.to - b.from - r.won - r.unknown.length,
                r.unknown.length,
                Math.round((used.user + used.system) / 1000),
                // Agents' lost deals are not listed (most deals): only the solver's proofs are.
                p === "solver" ? rangesText(r.lost) : "",
                rangesText(r.unknown),
                code,
              ],
            ]);
            played += b.to - b.from;
            if (!o.quiet && process.stderr.isTTY)
              process.stderr.write(
                `\r  ${b.to - start}/${end - start} deals, ${(((b.to - blocks[0]!.from) * 1000) / (Date.now() - t0)).toFixed(0)}/s   `,
              );
          }
          if (!o.quiet && process.stderr.isTTY) process.stderr.write("\n");
        } finally {
          file.close();
          closing = undefined;
        }
      }
    }
  } finally {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    unwatch();
    await pool?.close();
  }
  if (o.shard) {
    log(
      `atlas: shard ${shard.index}/${shard.count} played; merge with --merge --out ${o.out} once every shard is done`,
    );
    return { played };
  }
  // The atlas is the whole folder: every row with shard files, not only the rows just played.
  const totals = await writeAtlas(o.out);
  log(table(totals));
  return { played, totals };
}

function pct(k: number, n: number): string {
  return `${((100 * k) / n).toFixed(2)} %`;
}

/** The atlas as a text table: one line per row and player. */
export function table(totals: readonly PlayerTotals[]): string {
  return totals
    .map((t) =>
      [
        t.row.padEnd(24),
        t.player.padEnd(28),
        `n ${t.n}`.padEnd(10),
        `won ${pct(t.won, t.n)}`.padEnd(14),
        t.player.startsWith("solver") ? `lost ${t.lost.length} unknown ${t.unknown.length}` : "",
        `cpu ${(t.cpuMs / 1000).toFixed(0)} s`,
      ].join(" "),
    )
    .join("\n");
}

if (isMain(import.meta.url))
  await exitOnUsageError("atlas", async () => void (await runAtlas(process.argv.slice(2))));
