/**
 * `npm start`: the small default experiment (about 10 s). Penguin as
 * Parlett wrote it, relaxed Penguin, and Penguin with 5, 3 and 0 flippers, each played by the
 * random agent, the best greedy preset and the exact solver (which gives solvability) on the same
 * 200 deals. Prints a table with 95% intervals and writes runs/quick.csv (one row per deal and
 * player, resumable) and runs/quick.svg. The other scripts in experiments/ ask one question
 * each at larger scale; see docs/experiments.md.
 *
 *   npx tsx experiments/quick.ts [--deals 200] [--seed 1] [--workers 1] [--agent random,greedy,solver]
 */
import type { RuleOverrides } from "../src/engine/rules.js";
import { COMMON_OPTIONS, exitOnUsageError, isMain } from "./lib/options.js";
import { runExperiment, type Experiment } from "./lib/runner.js";
import { playerOptions, playerSpec } from "./lib/players.js";
import { plotData, rateChart } from "./lib/plot.js";

/** Penguin has 7 flippers; "relaxed" lets any card fill an empty column; opus is Penguin with 5. */
const VARIANTS: Record<string, { preset: string; overrides: RuleOverrides }> = {
  penguin: { preset: "penguin", overrides: {} },
  relaxed: { preset: "penguin-relaxed", overrides: {} },
  "5-flippers": { preset: "opus", overrides: {} },
  "3-flippers": { preset: "penguin", overrides: { cells: 3 } },
  "0-flippers": { preset: "penguin", overrides: { cells: 0 } },
};
const NAMES = Object.keys(VARIANTS);

const options = {
  deals: { ...COMMON_OPTIONS.deals, default: 200 },
  variants: { type: "list", default: NAMES, choices: NAMES, help: "rule variants" },
  ...playerOptions(["random", "greedy", "solver"]),
} as const;

export const quick: Experiment<typeof options> = {
  name: "quick",
  options,
  labelColumns: ["variant"],
  conditions: (o) =>
    NAMES.filter((n) => o.variants.includes(n)).flatMap((name) =>
      o.agent.map((p) => ({
        labels: { variant: name },
        preset: VARIANTS[name]!.preset,
        overrides: VARIANTS[name]!.overrides,
        player: playerSpec(p, o),
      })),
    ),
  plot: (s) =>
    rateChart(plotData(s), {
      title: "Penguin variants: win rate by player (95% intervals)",
      x: { field: "variant", title: "rules", type: "nominal", sort: NAMES },
      color: { field: "player", title: "player" },
      mark: "point",
    }),
};

if (isMain(import.meta.url))
  await exitOnUsageError(
    "quick",
    async () => void (await runExperiment(quick, process.argv.slice(2))),
  );
