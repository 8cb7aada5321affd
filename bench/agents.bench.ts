/**
 * Agents section of `npm run bench`: greedy (the `tuned` preset) deals per second on default
 * Penguin, in this thread and with 2 worker threads (worker start-up included, so the 2-worker
 * figure is a lower bound that approaches 2× on long runs).
 */
import { resolveRules } from "../src/engine/rules.js";
import { evaluate } from "../src/eval/evaluate.js";
import { seedRange } from "../src/eval/deals.js";

async function dealsPerSec(workers: number, count: number): Promise<number> {
  const t0 = performance.now();
  let n = 0;
  for await (const _ of evaluate({
    agent: "greedy",
    agentOptions: { heuristic: "tuned" },
    rules: resolveRules("penguin"),
    deals: seedRange(1, count),
    workers,
    timing: false,
  }))
    n++;
  return n / ((performance.now() - t0) / 1000);
}

export default async function (): Promise<Record<string, Record<string, number | string>>> {
  const one = await dealsPerSec(1, 300);
  const two = await dealsPerSec(2, 600);
  return {
    penguin: {
      greedyDealsPerSec: Math.round(one * 10) / 10,
      greedyDealsPerSec2Workers: Math.round(two * 10) / 10,
    },
  };
}
