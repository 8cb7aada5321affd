/**
 * Players section of `npm run bench`: the shipped move-safety network against `lookahead` on the
 * same deals (validation seeds 100001 on, Penguin), in this thread, in CPU seconds (process
 * CPU time, so other load on the machine does not count): CPU per deal for each, and the
 * network's moves per CPU-second (games played in lockstep batches, the evaluation default).
 * `--full` plays 100 deals instead of 20.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveRules } from "../src/engine/rules.js";
import { evaluate } from "../src/eval/evaluate.js";
import { seedRange } from "../src/eval/deals.js";

const SHIPPED = join(
  fileURLToPath(new URL("..", import.meta.url)),
  "results/train-safety/run-links-scratch/last",
);

async function cpu(
  agent: string,
  agentOptions: Record<string, string>,
  deals: number,
): Promise<{ perDeal: number; movesPerSec: number; won: number }> {
  const c0 = process.cpuUsage();
  let moves = 0;
  let won = 0;
  for await (const r of evaluate({
    agent,
    agentOptions,
    rules: resolveRules("penguin"),
    deals: seedRange(100_001, deals),
    workers: 1,
    timing: false,
  })) {
    moves += r.moves;
    if (r.won) won++;
  }
  const c = process.cpuUsage(c0);
  const s = (c.user + c.system) / 1e6;
  return { perDeal: s / deals, movesPerSec: moves / s, won };
}

export default async function (): Promise<Record<string, Record<string, number | string>>> {
  const deals = process.argv.includes("--full") ? 100 : 20;
  const net = await cpu("safety", { model: SHIPPED }, deals);
  const look = await cpu("lookahead", {}, deals);
  const r3 = (x: number): number => Math.round(x * 1000) / 1000;
  return {
    penguin: {
      playersDeals: `validation seeds 100001-${100_000 + deals}`,
      safetyCpuPerDeal: r3(net.perDeal),
      lookaheadCpuPerDeal: r3(look.perDeal),
      safetyOverLookahead: Math.round((net.perDeal / look.perDeal) * 100) / 100,
      safetyMovesPerCpuSec: Math.round(net.movesPerSec),
      lookaheadMovesPerCpuSec: Math.round(look.movesPerSec),
      safetyWon: net.won,
      lookaheadWon: look.won,
    },
  };
}
