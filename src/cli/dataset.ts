/**
 * `penguin dataset`: exact move-safety labels for training (docs/train-safety.md).
 *
 *   penguin dataset --rules penguin --agent safe,greedy:heuristic=tuned --deals 2000 --out data/labels
 *
 * Resumable: run the same command again and it continues at the first missing shard.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CommandModule } from "yargs";
import type { Options } from "yargs";
import {
  rangedNumber,
  rulesFromArgs,
  withOptions,
  withRuleOptions,
  type RuleArgs,
} from "./common.js";
import { optionsFrom } from "../options/spec.js";
import { flag, spec } from "../options/registry.js";
import { TRAIN_DEAL_START } from "../train/splits.js";
import { defaultMaxSteps } from "../env/registry.js";
import { heartbeat } from "./progress.js";

interface Args extends RuleArgs {
  agent: string;
  deals: number;
  seed: string;
  "shard-deals": number;
  "max-states": number;
  "max-steps"?: number;
  workers: number;
  out: string;
  quiet: boolean;
}

/** Labelling deals are training deals: never the evaluation seeds below 100000. */
const SEED = spec("seed", { min: 100_000, max: 2 ** 31 - 1 });

const OPTIONS = {
  agent: flag("agent", {
    default: "safe",
    detail:
      "a comma list of players: safe[:shuffle=P] (greedy among solver-safe moves), or agents such as greedy:heuristic=tuned, safety:model=DIR",
  }),
  deals: flag("deals", { default: 1000, detail: "training deals to label" }),
  seed: flag("seed", {
    default: String(TRAIN_DEAL_START),
    detail:
      "training deals, 100000 and above (seeds below 100000 are reserved for evaluation and refused)",
  }),
  "shard-deals": rangedNumber(
    "deals per shard",
    { min: 1, max: 100_000, integer: true },
    { default: 20 },
  ),
  "max-states": flag("max-states", { default: 20_000, detail: "per labelled move" }),
  "max-steps": flag("max-steps", { detail: "default: the game's registered move limit" }),
  workers: flag("workers", { default: 1 }),
  out: {
    ...flag("out", { detail: "dataset directory (index.json + shard-NNNNN/*.npy)" }),
    demandOption: true,
  },
  quiet: flag("quiet", { default: false }),
} as const satisfies Record<string, Options>;

export const datasetCommand: CommandModule<object, Args> = {
  command: "dataset",
  describe:
    "label every legal move of played training positions with the exact solver (winnable / lost / unknown) into .npy shards",
  builder: (y) => withOptions(withRuleOptions(y), OPTIONS) as never,
  handler: async (a) => {
    const { seed } = optionsFrom({ seed: SEED }, a) as { seed: number };
    const rules = rulesFromArgs(a);
    const { parsePlayers, readIndex, runDataset } = await import("../train/safety/dataset.js");
    const players = parsePlayers(String(a.agent));
    let stopping = false;
    // Interrupted runs exit 130 (SIGINT) or 143 (SIGTERM), like every other command.
    let stopCode = 130;
    const onSignal = (sig: NodeJS.Signals): void => {
      if (stopping) process.exit(sig === "SIGINT" ? 130 : 143);
      stopping = true;
      stopCode = sig === "SIGINT" ? 130 : 143;
      process.stderr.write(
        "penguin dataset: stopping after the shards in flight (again to quit at once)\n",
      );
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    // A shard can take minutes: a line on stderr every 10 s, with the shards the index holds
    // (it is rewritten before each shard's line is logged).
    const beat = heartbeat("penguin dataset", { unit: "shards" });
    const shards = Math.ceil(a.deals / a["shard-deals"]);
    const log = (line: string): void => {
      if (existsSync(join(a.out, "index.json")))
        beat.count(Math.min(readIndex(a.out).shards.length, shards), shards);
      if (!a.quiet) process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
    };
    const idx = await runDataset(
      {
        rules,
        players,
        deals: a.deals,
        dealStart: seed,
        shardDeals: a["shard-deals"],
        maxStates: a["max-states"],
        maxSteps: a["max-steps"] ?? defaultMaxSteps(rules),
        workers: a.workers,
        out: a.out,
      },
      log,
      () => stopping,
    ).finally(beat);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    const moves = idx.shards.reduce((n, s) => n + s.moves, 0);
    const lost = idx.shards.reduce((n, s) => n + s.lost, 0);
    const total = Math.ceil(idx.deals / idx.shardDeals);
    process.stdout.write(
      `${a.out}: ${idx.shards.length}/${total} shards, ${moves} labelled moves (${lost} lost)${stopping ? "; stopped, run the same command to continue" : ""}\n`,
    );
    if (stopping) process.exitCode = stopCode;
  },
};
