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
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { deal, dealMs } from "../src/engine/deal.js";
import { resolveRules } from "../src/engine/rules.js";
import { DEFAULT_MAX_STATES, solve } from "../src/solver/search.js";

const DEFAULT_ROWS = "bakers-game:4:ms,penguin:7,penguin:6,penguin:5,penguin:4,penguin:3";

const args = await yargs(hideBin(process.argv))
  .option("rows", { type: "string", default: DEFAULT_ROWS })
  .option("deals", { type: "number", default: 1000 })
  .option("seed", { type: "number", default: 0 })
  .option("ms-from", { type: "number", default: 1 })
  .option("max-states", { type: "number", default: DEFAULT_MAX_STATES })
  .option("timeout-ms", { type: "number" })
  .strict()
  .parseAsync();

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
for (const spec of args.rows.split(",")) {
  const [preset, cellsText, kind] = spec.split(":");
  const rules = resolveRules(preset!, cellsText === undefined ? {} : { cells: Number(cellsText) });
  const ms = kind === "ms";
  const first = ms ? args["ms-from"] : args.seed;
  const counts = { solved: 0, unsolvable: 0, unknown: 0 };
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < args.deals; i++) {
    const start = ms ? dealMs(rules, first + i) : deal(rules, first + i);
    const r = solve(start, { maxStates: args["max-states"], timeoutMs: args["timeout-ms"] });
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
