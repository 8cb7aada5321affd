/**
 * Win rate by base rank (the beak's rank). The seeds say low bases (A, 2, 3) are harder, because
 * an empty column then takes only a card just below the base (a K for an ace base), which comes
 * free late. Deals are ordinary random deals grouped by their beak, so each rank gets about 1/13
 * of them; `--deals 2600` gives ≈ 200 per rank.
 *
 *   npx tsx experiments/base-rank.ts [--deals 1300] [--rules penguin] [--agent greedy,solver]
 */
import { RANKS } from "../src/engine/card.js";
import { exitOnUsageError, isMain, shared } from "./lib/options.js";
import { runExperiment, type Experiment } from "./lib/runner.js";
import { playerOptions, playerSpec } from "./lib/players.js";
import { plotData, rateChart } from "./lib/plot.js";

const options = {
  rules: shared("rules", {
    default: "penguin",
    choices: ["penguin", "penguin-relaxed", "opus", "penguin-beak-home"],
    detail: "a beak-based one",
  }),
  ...playerOptions(["greedy", "solver"]),
} as const;

const ORDER = [...RANKS];

export const baseRank: Experiment<typeof options> = {
  name: "base-rank",
  options,
  labelColumns: [],
  conditions: (o) =>
    o.agent.map((p) => ({
      labels: {},
      preset: o.rules,
      overrides: {},
      player: playerSpec(p, o),
    })),
  groupBy: ["base", "player"],
  sortSummary: (rows) =>
    [...rows].sort(
      (a, b) =>
        a.group.player!.localeCompare(b.group.player!) ||
        ORDER.indexOf(a.group.base!) - ORDER.indexOf(b.group.base!),
    ),
  plot: (s, o) =>
    rateChart(plotData(s), {
      title: `${o.rules}: win rate by base rank (95% intervals)`,
      x: { field: "base", title: "base rank (the beak)", type: "ordinal", sort: ORDER },
      color: { field: "player", title: "player" },
      mark: "line",
    }),
};

if (isMain(import.meta.url))
  await exitOnUsageError(
    "base-rank",
    async () => void (await runExperiment(baseRank, process.argv.slice(2))),
  );
