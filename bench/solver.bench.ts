/**
 * Solver section of `npm run bench` (`npm run bench -- solver [--full]`): the exact solver at its
 * default budget and plan on the Microsoft deals of five rule sets.
 *
 *   quick (default)  the first 60 deals of each set (a few CPU seconds in all)
 *   --full           FreeCell, Baker's Game and Penguin MS 1–1000, Eight Off and Seahaven MS 1–500
 *
 * Figures per set, in process CPU time (`process.cpuUsage`) so a busy machine skews them less:
 * - deals, solved, unsolvable, unknown;
 * - cpuSeconds: the set's solve() calls (dealing the boards left out, as Freecell Solver's own
 *   timing leaves out parsing them); statesVisited: positions examined over the set;
 * - worstDeal / worstMs / worstStates: the deal that took the most CPU time; medianMs;
 * - decidedPerSec, statesPerSec: deals decided and positions examined per CPU second;
 * - peakRssMb: the process's peak resident memory so far (it only grows, so sets run in order);
 * - byStrategy: which plan entry decided how many deals;
 * - steadyCpuSeconds, steadyMedianMs: the same set solved again in the same process. The first
 *   run still pays for most of the JIT's work (the warm-up below is only three deals a set); the
 *   second shows the cost once the code is compiled, as in a long-running process.
 */
import { dealMs } from "../src/engine/deal.js";
import { resolveRules } from "../src/engine/rules.js";
import { solve } from "../src/solver/search.js";
import { fullDeals, SOLVER_SETS } from "../experiments/lib/solver-sets.js";

const SETS: readonly { name: string; preset: string; full: number }[] = SOLVER_SETS.map((name) => ({
  name,
  preset: name,
  full: fullDeals(name),
}));
const QUICK = 60;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

function measure(preset: string, deals: number): Record<string, number | string> {
  const rules = resolveRules(preset);
  const counts = { solved: 0, unsolvable: 0, unknown: 0 };
  const by: Record<string, number> = {};
  let states = 0;
  let worst = { deal: 0, ms: -1, states: 0 };
  const times: number[] = [];
  for (let n = 1; n <= deals; n++) {
    const start = dealMs(rules, n);
    const t = cpuMs();
    const r = solve(start);
    const ms = cpuMs() - t;
    times.push(ms);
    counts[r.result]++;
    states += r.states;
    if (r.result !== "unknown") by[r.by] = (by[r.by] ?? 0) + 1;
    if (ms > worst.ms) worst = { deal: n, ms, states: r.states };
  }
  const secs = sum(times) / 1000;
  times.sort((a, b) => a - b);
  return {
    deals,
    ...counts,
    cpuSeconds: Math.round(secs * 1000) / 1000,
    decidedPerSec: Math.round(((counts.solved + counts.unsolvable) / secs) * 10) / 10,
    statesPerSec: Math.round(states / secs),
    medianMs: Math.round(times[times.length >> 1]! * 100) / 100,
    statesVisited: states,
    worstDeal: worst.deal,
    worstMs: Math.round(worst.ms * 10) / 10,
    worstStates: worst.states,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    byStrategy: JSON.stringify(by),
  };
}

/** CPU seconds and median CPU ms a deal over the set, solved again (after measure). */
function steady(preset: string, deals: number): Record<string, number> {
  const rules = resolveRules(preset);
  const times: number[] = [];
  for (let n = 1; n <= deals; n++) {
    const start = dealMs(rules, n);
    const t = cpuMs();
    solve(start);
    times.push(cpuMs() - t);
  }
  const secs = sum(times) / 1000;
  times.sort((a, b) => a - b);
  return {
    steadyCpuSeconds: Math.round(secs * 1000) / 1000,
    steadyMedianMs: Math.round(times[times.length >> 1]! * 100) / 100,
  };
}

export default async function (): Promise<Record<string, Record<string, number | string>>> {
  const full = process.argv.includes("--full");
  // Warm the JIT so the first deal's compile time is not counted as search.
  for (const { preset } of SETS)
    for (let n = 1001; n <= 1003; n++) solve(dealMs(resolveRules(preset), n));
  const out: Record<string, Record<string, number | string>> = {};
  for (const { name, preset, full: size } of SETS) {
    const deals = full ? size : QUICK;
    const figures = { ...measure(preset, deals), ...steady(preset, deals) };
    out[name] = Object.fromEntries(
      Object.entries(figures).map(([k, v]) => [`solver${k[0]!.toUpperCase()}${k.slice(1)}`, v]),
    );
  }
  return out;
}
