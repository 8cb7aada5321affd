/**
 * Solver section of `npm run bench` (`npm run bench solver`): the exact solver on default
 * Penguin (seeds 0..199, 7 flippers) and FreeCell (Microsoft deals 1..40), default budget.
 * - solverDecidedPerSec: deals decided (solved or proved unsolvable) per CPU second;
 * - solverMedianMs / solverWorstMs: CPU milliseconds per deal;
 * - solverStatesPerSec: positions examined per CPU second;
 * - solverUnknown: deals left undecided (should be 0).
 * Time is the process's CPU time (`process.cpuUsage`), so figures stay comparable on a busy machine.
 */
import { deal, dealMs } from "../src/engine/deal.js";
import { resolveRules } from "../src/engine/rules.js";
import type { State } from "../src/engine/state.js";
import { solve } from "../src/solver/search.js";

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function measure(starts: State[]): Record<string, number> {
  const times: number[] = [];
  let states = 0;
  let decided = 0;
  const t0 = cpuMs();
  for (const s of starts) {
    const t = cpuMs();
    const r = solve(s);
    times.push(cpuMs() - t);
    states += r.states;
    if (r.result !== "unknown") decided++;
  }
  const secs = (cpuMs() - t0) / 1000;
  times.sort((a, b) => a - b);
  return {
    solverDeals: starts.length,
    solverDecidedPerSec: Math.round((decided / secs) * 10) / 10,
    solverMedianMs: Math.round(times[times.length >> 1]! * 10) / 10,
    solverWorstMs: Math.round(times[times.length - 1]! * 10) / 10,
    solverStatesPerSec: Math.round(states / secs),
    solverUnknown: starts.length - decided,
  };
}

export default async function (): Promise<Record<string, Record<string, number | string>>> {
  const penguin = resolveRules("penguin");
  const freecell = resolveRules("freecell");
  // Warm the JIT so the first deal's compile time is not counted as search.
  solve(deal(penguin, 1000));
  return {
    penguin: measure(Array.from({ length: 200 }, (_, i) => deal(penguin, i))),
    freecell: measure(Array.from({ length: 40 }, (_, i) => dealMs(freecell, i + 1))),
  };
}
