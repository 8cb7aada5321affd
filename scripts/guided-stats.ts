/**
 * Cost of the guided agent per move: positions expanded and network calls per decision, and CPU
 * time per deal, in this thread (no workers, so process.cpuUsage is the agent's own).
 *
 *   npx tsx scripts/guided-stats.ts --order safety --model results/train-safety/run --nodes 30 --deals 20 [--seed 1] [--cells 5]
 *
 * Prints one JSON line.
 */
import { parseArgs } from "node:util";
import { createAgent } from "../src/agents/registry.js";
import { deal } from "../src/engine/deal.js";
import { resolveRules } from "../src/engine/rules.js";
import { EpisodeRunner } from "../src/eval/game-loop.js";
import type { GuidedAgent } from "../src/solver/guided.js";

const { values: v } = parseArgs({
  options: {
    order: { type: "string", default: "greedy" },
    model: { type: "string" },
    nodes: { type: "string", default: "100" },
    deals: { type: "string", default: "20" },
    seed: { type: "string", default: "1" },
    cells: { type: "string" },
  },
});
const rules =
  v.cells === undefined
    ? resolveRules("penguin")
    : resolveRules("penguin", { cells: Number(v.cells) });
const options = { order: v.order, nodes: v.nodes, ...(v.model ? { model: v.model } : {}) };
const agent = (await createAgent("guided", options, rules)) as GuidedAgent;
const runner = new EpisodeRunner(rules, agent);
const first = Number(v.seed);
const count = Number(v.deals);
let wins = 0;
let moves = 0;
const t0 = process.cpuUsage();
for (let seed = first; seed < first + count; seed++) {
  const o = runner.play(deal(rules, seed), seed);
  wins += o.won ? 1 : 0;
  moves += o.moves;
}
const cpu = process.cpuUsage(t0);
console.log(
  JSON.stringify({
    agent: agent.name,
    deals: `${first}-${first + count - 1}`,
    wins,
    moves,
    expandedPerMove: agent.expandedTotal / agent.decisions,
    networkCallsPerMove: agent.ordering.calls / agent.decisions,
    cpuSecondsPerDeal: (cpu.user + cpu.system) / 1e6 / count,
  }),
);
