/**
 * Win rate against the number of flippers (0–7) under each empty-column rule (below-base, any,
 * none), for the random agent, the best greedy preset and the exact solver (solvability); Penguin
 * rules otherwise. Tests the seeds' claims: 5–6 flippers harder than 7, 3 flippers about strict
 * FreeCell, no flippers below 40 %, relaxed (any card in an empty column) easier.
 *
 *   npx tsx experiments/flippers.ts [--deals 200] [--cells 0-7] [--empty below-base,any,none]
 *                                   [--agent random,greedy,solver] [--workers 2] [--shard i/n]
 */
import { EMPTY_COLUMN_RULES } from "../src/engine/rules.js";
import { exitOnUsageError, isMain, shared } from "./lib/options.js";
import { runExperiment, type Experiment } from "./lib/runner.js";
import { playerOptions, playerSpec } from "./lib/players.js";
import { plotData, rateChart } from "./lib/plot.js";

const options = {
  rules: shared("rules", { default: "penguin", choices: ["penguin", "penguin-beak-home"] }),
  cells: shared("cells", {
    default: [0, 1, 2, 3, 4, 5, 6, 7],
    list: true,
    detail: "a sweep: 0-7 or 3,5,7",
  }),
  empty: shared("empty", {
    default: EMPTY_COLUMN_RULES,
    list: true,
    choices: EMPTY_COLUMN_RULES,
    detail: "a sweep: a comma list",
  }),
  ...playerOptions(["random", "greedy", "solver"]),
} as const;

export const flippers: Experiment<typeof options> = {
  name: "flippers",
  options,
  labelColumns: ["flippers", "empty"],
  conditions: (o) =>
    o.empty.flatMap((empty) =>
      o.cells.flatMap((cells) =>
        o.agent.map((p) => ({
          labels: { flippers: cells, empty },
          preset: o.rules,
          overrides: { cells, emptyColumn: empty },
          player: playerSpec(p, o),
        })),
      ),
    ),
  plot: (s, o) =>
    rateChart(plotData(s), {
      title: `${o.rules}: win rate by flippers and empty-column rule (95% intervals)`,
      x: { field: "flippers", title: "flippers (free cells)", type: "quantitative" },
      color: { field: "player", title: "player" },
      column: { field: "empty", title: "empty-column rule", sort: [...o.empty] },
      mark: "line",
    }),
};

if (isMain(import.meta.url))
  await exitOnUsageError(
    "flippers",
    async () => void (await runExperiment(flippers, process.argv.slice(2))),
  );
