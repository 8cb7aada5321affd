/**
 * What each greedy feature is worth: the greedy agent with its full preset, then with each of
 * the preset's features switched off in turn (`--without f`), on the same deals. The `parlett`
 * preset is Parlett's tips (the Portuguese rule text's "Dicas e estratégias"; docs/rules.md) plus foundation moves first; with
 * `--heuristic tuned` the extra features are ablated too. Same deals for every variant, so the
 * differences are paired.
 *
 *   npx tsx experiments/heuristics.ts [--deals 500] [--heuristic parlett] [--rules penguin]
 */
import { HEURISTIC_NAMES, HEURISTIC_PRESETS } from "../src/agents/heuristic.js";
import { PRESET_NAMES } from "../src/engine/rules.js";
import { exitOnUsageError, isMain, shared } from "./lib/options.js";
import { runExperiment, type Experiment } from "./lib/runner.js";
import { plotData, rateChart } from "./lib/plot.js";

const options = {
  rules: shared("rules", { default: "penguin", choices: PRESET_NAMES }),
  heuristic: shared("heuristic", {
    default: "parlett",
    choices: HEURISTIC_NAMES,
    detail: "the preset whose features are switched off in turn",
  }),
  agent: shared("agent", { default: "greedy", choices: ["greedy", "lookahead"] }),
} as const;

export const ALL_ON = "(none: full preset)";

export const heuristics: Experiment<typeof options> = {
  name: "heuristics",
  options,
  labelColumns: ["without"],
  conditions: (o) => {
    const features = Object.keys(HEURISTIC_PRESETS[o.heuristic]!);
    return [ALL_ON, ...features].map((f) => ({
      labels: { without: f },
      preset: o.rules,
      overrides: {},
      player: {
        kind: "agent" as const,
        agent: o.agent,
        options: f === ALL_ON ? { heuristic: o.heuristic } : { heuristic: o.heuristic, without: f },
      },
    }));
  },
  groupBy: ["without"],
  plot: (s, o) =>
    rateChart(plotData(s), {
      title: `${o.agent}(${o.heuristic}) on ${o.rules}: win rate with one feature switched off (95% intervals)`,
      x: {
        field: "without",
        title: "feature switched off",
        type: "nominal",
        sort: s.map((r) => r.group.without!),
      },
      mark: "point",
      yFit: true,
    }),
};

if (isMain(import.meta.url))
  await exitOnUsageError(
    "heuristics",
    async () => void (await runExperiment(heuristics, process.argv.slice(2))),
  );
