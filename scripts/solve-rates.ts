/**
 * Solvable rates measured by the exact solver: Baker's Game over Microsoft deals, Penguin over
 * seeded deals at several flipper counts (and FreeCell, on request). Prints one line per row and
 * a JSON summary at the end.
 *
 *   npx tsx scripts/solve-rates.ts                       # the default table (docs/solver.md)
 *   npx tsx scripts/solve-rates.ts --rows penguin:7,penguin:3 --deals 200
 *   npx tsx scripts/solve-rates.ts --rows bakers-game:4:ms,freecell:4:ms --ms-from 1 --deals 1000
 *
 * Args: --rows (comma list of preset:cells[:ms]; `ms` = Microsoft deals from --ms-from, else
 * seeds from --seed), --deals (per row, default 1000), --seed (first seed, default 0),
 * --ms-from (first MS deal, default 1), --max-states (default the solver's), --timeout-ms.
 * "ms" in the output is wall time and "cpuMs" process CPU time, less disturbed by a busy machine.
 */
import { deal, dealMs } from "../src/engine/deal.js";
import { resolveRules } from "../src/engine/rules.js";
import { UsageError } from "../src/errors.js";
import { DEFAULT_MAX_STATES, MAX_STATES_LIMIT, solve } from "../src/solver/search.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";
import { printable } from "../src/util/text.js";

const DEFAULT_ROWS = "bakers-game:4:ms,penguin:7,penguin:6,penguin:5,penguin:4,penguin:3";

const OPTIONS = {
  rows: {
    type: "string",
    default: DEFAULT_ROWS,
    help: "comma list of preset:cells[:ms] (ms: Microsoft deals from --ms-from, else seeds from --seed)",
  },
  deals: { type: "int", default: 1000, min: 1, max: 10_000_000, help: "deals per row" },
  seed: { type: "int", default: 0, min: 0, max: 2 ** 31 - 1, help: "first seed" },
  "ms-from": { type: "int", default: 1, min: 1, max: 2 ** 31 - 1, help: "first Microsoft deal" },
  "max-states": {
    type: "int",
    default: DEFAULT_MAX_STATES,
    min: 1,
    max: MAX_STATES_LIMIT,
    help: "solver budget per deal",
  },
  "timeout-ms": {
    type: "int",
    default: 0,
    min: 0,
    max: 86_400_000,
    help: "wall-clock budget per deal (0 = none)",
  },
} as const;

interface RowSpec {
  preset: string;
  cells?: number;
  ms: boolean;
}

/** `preset:cells[:ms]` items, each checked before anything is solved. */
function parseRows(text: string): RowSpec[] {
  return text.split(",").map((item) => {
    const m = /^([a-z][a-z-]*)(?::(\d+))?(?::(ms))?$/.exec(item.trim());
    if (!m)
      throw new UsageError(
        `--rows item ${JSON.stringify(printable(item))} is not preset[:cells][:ms], e.g. penguin:7 or bakers-game:4:ms`,
      );
    const cells = m[2] === undefined ? undefined : Number(m[2]);
    resolveRules(m[1]!, cells === undefined ? {} : { cells }); // throws a UsageError naming the allowed presets / cells
    return { preset: m[1]!, cells, ms: m[3] === "ms" };
  });
}

await exitOnUsageError("solve-rates", async () => {
  const args = parseOptions("solve-rates", OPTIONS, process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${helpText("scripts/solve-rates", OPTIONS)}\n`);
    return;
  }
  const rowSpecs = parseRows(args.rows);
  const timeoutMs = args["timeout-ms"] || undefined;

  interface Row {
    rules: string;
    deals: string;
    solved: number;
    unsolvable: number;
    unknown: number;
    solvableRate: number;
    medianMs: number;
    worstMs: number;
    ms: number;
    cpuMs: number;
  }

  const out: Row[] = [];
  for (const { preset, cells, ms } of rowSpecs) {
    const rules = resolveRules(preset, cells === undefined ? {} : { cells });
    const first = ms ? args["ms-from"] : args.seed;
    const counts = { solved: 0, unsolvable: 0, unknown: 0 };
    const times: number[] = [];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < args.deals; i++) {
      const start = ms ? dealMs(rules, first + i) : deal(rules, first + i);
      const r = solve(start, { maxStates: args["max-states"], timeoutMs });
      counts[r.result]++;
      times.push(r.ms);
    }
    const cpu = process.cpuUsage(cpu0);
    times.sort((a, b) => a - b);
    const decided = counts.solved + counts.unsolvable;
    const row: Row = {
      rules: `${preset}:${rules.cells}`,
      deals: `${ms ? "MS" : "seeds"} ${first}-${first + args.deals - 1}`,
      ...counts,
      solvableRate: decided ? Math.round((counts.solved / args.deals) * 10000) / 100 : 0,
      medianMs: times[Math.floor(times.length / 2)] ?? 0,
      worstMs: times[times.length - 1] ?? 0,
      ms: Math.round(performance.now() - t0),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    };
    out.push(row);
    console.log(
      `${row.rules.padEnd(16)} ${row.deals.padEnd(14)} solved ${row.solved}, unsolvable ${row.unsolvable}, unknown ${row.unknown}: ` +
        `${row.solvableRate}% solvable; median ${row.medianMs} ms, worst ${row.worstMs} ms; total ${(row.ms / 1000).toFixed(1)} s wall, ${(row.cpuMs / 1000).toFixed(1)} s CPU`,
    );
  }
  console.log(JSON.stringify(out));
});
