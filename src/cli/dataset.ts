/**
 * `penguin dataset`: exact move-safety labels for training (docs/train-safety.md).
 *
 *   penguin dataset --rules penguin --players safe,greedy:heuristic=tuned --deals 2000 --out data/labels
 *
 * Resumable: run the same command again and it continues at the first missing shard.
 */
import type { CommandModule } from "yargs";
import { rulesFromArgs, withRuleOptions, type RuleArgs } from "./common.js";
import { checkAll, yargsNumber, type NumberSpec } from "../train/options.js";
import { TRAIN_DEAL_START } from "../train/splits.js";
import { MAX_STATES_LIMIT } from "../solver/index.js";
import { defaultMaxSteps } from "../env/registry.js";

interface Args extends RuleArgs {
  players: string;
  deals: number;
  "deal-start": number;
  "shard-deals": number;
  "max-states": number;
  "max-steps"?: number;
  workers: number;
  out: string;
  quiet: boolean;
}

const DATASET_NUMBERS: Readonly<Record<string, NumberSpec>> = {
  deals: { describe: "training deals to label", default: 1000, min: 1, max: 10_000_000, int: true },
  "deal-start": {
    describe: "first training deal seed (held-out seeds 1–10000 are refused)",
    default: TRAIN_DEAL_START,
    min: 10_001,
    max: 2 ** 31 - 1,
    int: true,
  },
  "shard-deals": { describe: "deals per shard", default: 20, min: 1, max: 100_000, int: true },
  "max-states": {
    describe: "solver budget per labelled move (positions)",
    default: 20_000,
    min: 1,
    max: MAX_STATES_LIMIT,
    int: true,
  },
  "max-steps": {
    describe: "move limit per game (default: the game's registered move limit)",
    min: 1,
    max: 100_000,
    int: true,
  },
  workers: { describe: "worker threads", default: 1, min: 1, max: 64, int: true },
};

export const datasetCommand: CommandModule<object, Args> = {
  command: "dataset",
  describe:
    "label every legal move of played training positions with the exact solver (winnable / lost / unknown) into .npy shards",
  builder: (y) => {
    let b = withRuleOptions(y)
      .option("players", {
        type: "string",
        default: "safe",
        describe:
          "comma list: safe[:shuffle=P] (greedy among solver-safe moves), or agents such as greedy:heuristic=tuned, safety:model=DIR",
      })
      .option("out", {
        type: "string",
        demandOption: true,
        describe: "dataset directory (index.json + shard-NNNNN/*.npy)",
      })
      .option("quiet", { type: "boolean", default: false, describe: "no progress lines" });
    for (const [k, s] of Object.entries(DATASET_NUMBERS)) b = b.option(k, yargsNumber(s));
    return b as never;
  },
  handler: async (a) => {
    checkAll(DATASET_NUMBERS, a as unknown as Record<string, unknown>);
    const rules = rulesFromArgs(a);
    const { parsePlayers, runDataset } = await import("../train/safety/dataset.js");
    const players = parsePlayers(String(a.players));
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
    const log = a.quiet
      ? () => {}
      : (line: string) =>
          process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
    const idx = await runDataset(
      {
        rules,
        players,
        deals: a.deals,
        dealStart: a["deal-start"],
        shardDeals: a["shard-deals"],
        maxStates: a["max-states"],
        maxSteps: a["max-steps"] ?? defaultMaxSteps(rules),
        workers: a.workers,
        out: a.out,
      },
      log,
      () => stopping,
    );
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
