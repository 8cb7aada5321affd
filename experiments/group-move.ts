/**
 * Group moves: Parlett's unlimited run moves against the supermove limit of the Portuguese rule text (docs/rules.md)
 * ((free flippers + 1) × 2^(empty columns)) and single-card moves only, at each flipper count;
 * Penguin rules otherwise. The seeds disagree on this rule (docs/rules.md settles it as unlimited);
 * this measures how much the reading matters.
 *
 *   npx tsx experiments/group-move.ts [--deals 200] [--cells 0-7] [--group-move unlimited,supermove,single]
 *                                     [--agent greedy,solver] [--workers 2] [--shard i/n]
 */
import { GROUP_MOVE_RULES } from "../src/engine/rules.js";
import { exitOnUsageError, isMain, shared } from "./lib/options.js";
import { runExperiment, type Experiment } from "./lib/runner.js";
import { playerOptions, playerSpec } from "./lib/players.js";
import { plotData, rateChart } from "./lib/plot.js";

const options = {
  rules: shared("rules", { default: "penguin", choices: ["penguin", "penguin-relaxed"] }),
  cells: shared("cells", {
    default: [0, 1, 2, 3, 4, 5, 6, 7],
    list: true,
    detail: "a sweep: 0-7 or 3,5,7",
  }),
  "group-move": shared("group-move", {
    default: GROUP_MOVE_RULES,
    list: true,
    choices: GROUP_MOVE_RULES,
    detail: "a sweep: a comma list",
  }),
  ...playerOptions(["greedy", "solver"]),
} as const;

export const groupMove: Experiment<typeof options> = {
  name: "group-move",
  options,
  labelColumns: ["flippers", "group_move"],
  conditions: (o) =>
    o["group-move"].flatMap((groupMove) =>
      o.cells.flatMap((cells) =>
        o.agent.map((p) => ({
          labels: { flippers: cells, group_move: groupMove },
          preset: o.rules,
          overrides: { cells, groupMove },
          player: playerSpec(p, o),
        })),
      ),
    ),
  plot: (s, o) =>
    rateChart(plotData(s), {
      title: `${o.rules}: win rate by flippers and group-move rule (95% intervals)`,
      x: { field: "flippers", title: "flippers (free cells)", type: "quantitative" },
      color: { field: "group_move", title: "group moves" },
      column: { field: "player", title: "player" },
      mark: "line",
    }),
};

if (isMain(import.meta.url))
  await exitOnUsageError(
    "group-move",
    async () => void (await runExperiment(groupMove, process.argv.slice(2))),
  );
