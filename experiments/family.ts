/**
 * The FreeCell family side by side: Penguin (and relaxed Penguin), Baker's Game, kings-only
 * Baker's Game, FreeCell, Eight Off and Seahaven Towers (and, by name, Opus, the beak-home
 * reading and Stalactites), each by solvability (the exact solver) and by the greedy agent's
 * win rate. Checks the published figures: Baker's Game ≈ 75 % solvable
 * (74.3 % of MS deals 1–10M; 75.0 % of random deals), FreeCell nearly always (all of MS 1–32000
 * but #11982).
 *
 *   npx tsx experiments/family.ts [--deals 200] [--rules penguin,...] [--agent greedy,solver]
 */
import { exitOnUsageError, isMain, shared } from "./lib/options.js";
import { runExperiment, type Experiment } from "./lib/runner.js";
import { playerOptions, playerSpec } from "./lib/players.js";
import { plotData, rateChart } from "./lib/plot.js";

const FAMILY = [
  "penguin",
  "penguin-relaxed",
  "opus",
  "penguin-beak-home",
  "bakers-game",
  "kings-only-bakers-game",
  "freecell",
  "eight-off",
  "seahaven-towers",
  "stalactites",
] as const;
/** The default rows (results/family.csv); the others are run by name (e.g. `--rules stalactites`). */
const DEFAULT_FAMILY = [
  "penguin",
  "penguin-relaxed",
  "bakers-game",
  "kings-only-bakers-game",
  "freecell",
  "eight-off",
  "seahaven-towers",
] as const;

const options = {
  rules: shared("rules", {
    default: DEFAULT_FAMILY,
    list: true,
    choices: FAMILY,
    detail: "a comma list, each a condition",
  }),
  ...playerOptions(["greedy", "solver"]),
} as const;

export const family: Experiment<typeof options> = {
  name: "family",
  options,
  labelColumns: ["family"],
  conditions: (o) =>
    o.rules.flatMap((preset) =>
      o.agent.map((p) => ({
        labels: { family: preset },
        preset,
        overrides: {},
        player: playerSpec(p, o),
      })),
    ),
  plot: (s, o) =>
    rateChart(plotData(s), {
      title: "FreeCell family: solvability (solver) and greedy win rate (95% intervals)",
      x: { field: "family", title: "rules", type: "nominal", sort: [...o.rules] },
      color: { field: "player", title: "player" },
      mark: "point",
    }),
};

if (isMain(import.meta.url))
  await exitOnUsageError(
    "family",
    async () => void (await runExperiment(family, process.argv.slice(2))),
  );
