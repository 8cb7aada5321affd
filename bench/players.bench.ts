/**
 * Players section of `npm run bench`: the shipped move-safety network (models/safety) against
 * `lookahead` on the same validation deals (seeds 600000-600199, default Penguin), in this
 * thread, in CPU seconds (process CPU time: other load on the machine counts only through shared
 * caches). Both are warmed alike first (the same 10 other validation deals each, so the compiler
 * has seen both), then each plays the measured deals once with its evaluation defaults. Figures:
 * CPU per deal for each, the network's over lookahead's, moves per CPU-second, the deals won, and
 * the conditions (the network's dense-layer kernel, the machine's load while it ran).
 * `--full` plays 600 deals (600000-600599).
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveRules } from "../src/engine/rules.js";
import { evaluate } from "../src/eval/evaluate.js";
import { seedRange } from "../src/eval/deals.js";
import { denseKernel } from "../src/players/safety/dense.js";

const SHIPPED = join(fileURLToPath(new URL("..", import.meta.url)), "models/safety");
const FIRST = 600_000;
const WARM = 600_900;

async function cpu(
  agent: string,
  agentOptions: Record<string, string>,
  first: number,
  deals: number,
): Promise<{ perDeal: number; movesPerSec: number; won: number }> {
  const c0 = process.cpuUsage();
  let moves = 0;
  let won = 0;
  for await (const r of evaluate({
    agent,
    agentOptions,
    rules: resolveRules("penguin"),
    deals: seedRange(first, deals),
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
  const deals = process.argv.includes("--full") ? 600 : 200;
  const net = { agent: "safety", options: { model: SHIPPED } };
  const look = { agent: "lookahead", options: {} };
  for (const p of [net, look]) await cpu(p.agent, p.options, WARM, 10);
  const load0 = loadavg()[0]!;
  const n = await cpu(net.agent, net.options, FIRST, deals);
  const l = await cpu(look.agent, look.options, FIRST, deals);
  const load = (load0 + loadavg()[0]!) / 2;
  const r3 = (x: number): number => Math.round(x * 1000) / 1000;
  const r4 = (x: number): number => Math.round(x * 10000) / 10000;
  return {
    penguin: {
      playersDeals: `validation seeds ${FIRST}-${FIRST + deals - 1}`,
      safetyCpuPerDeal: r4(n.perDeal),
      lookaheadCpuPerDeal: r4(l.perDeal),
      safetyOverLookahead: Math.round((n.perDeal / l.perDeal) * 100) / 100,
      safetyMovesPerCpuSec: Math.round(n.movesPerSec),
      lookaheadMovesPerCpuSec: Math.round(l.movesPerSec),
      safetyWon: n.won,
      lookaheadWon: l.won,
      safetyKernel: denseKernel(),
      playersLoad: `${r3(load)} (1-min load average) on ${cpus().length} × ${cpus()[0]?.model ?? "?"}`,
    },
  };
}
