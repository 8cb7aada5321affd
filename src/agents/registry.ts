/**
 * Every agent by name, in one typed table, so the CLI and experiments can list and build them.
 * The solver's agent and the players of trained models (src/players: policy, scorer, safety, and
 * guided, whose network orders live there) are imported only when asked for, so the other agents
 * load neither the solver nor any network.
 */
import type { Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import type { Agent, AgentFactory, AgentOptions } from "./agent.js";
import { GreedyAgent } from "./greedy.js";
import { HEURISTIC_NAMES } from "./heuristic.js";
import { FEATURE_NAMES } from "./move-features.js";
import { LookaheadAgent, DEFAULT_DEPTH, DEFAULT_WIDTH, LOOKAHEAD_HEURISTIC } from "./lookahead.js";
import { RandomAgent } from "./random.js";

export interface AgentEntry {
  readonly name: string;
  readonly describe: string;
  /** Options the agent reads, for help texts. */
  readonly options: string;
  /** Option keys the agent reads; others are a UsageError. Undefined: the agent checks its own. */
  readonly accepts?: readonly string[];
  readonly create: AgentFactory;
}

const entries: AgentEntry[] = [
  {
    name: "random",
    describe: "uniform over the legal actions (seeded per deal)",
    options: "--agent-seed N (mixed with each deal's seed)",
    accepts: ["agent-seed"],
    create: (o) => new RandomAgent(o),
  },
  {
    name: "greedy",
    describe: "best move by a weighted sum of named features (Parlett's tips and more)",
    options: `--heuristic ${HEURISTIC_NAMES.join("|")} --without f,... --weight f=w,...; features: ${FEATURE_NAMES.join(", ")}`,
    accepts: ["heuristic", "without", "weight"],
    create: (o) => new GreedyAgent(o),
  },
  {
    name: "lookahead",
    describe: "beam search k moves ahead with the greedy score",
    options: `greedy's options (default --heuristic ${LOOKAHEAD_HEURISTIC}) plus --depth (default ${DEFAULT_DEPTH}) --width (default ${DEFAULT_WIDTH})`,
    accepts: ["heuristic", "without", "weight", "depth", "width"],
    create: (o) => new LookaheadAgent(o),
  },
  {
    name: "solver",
    describe: "plays the exact solver's solution (src/solver)",
    options: "see docs/solver.md",
    create: async (o, r) => (await import("../solver/solver-agent.js")).createSolverAgent(o, r),
  },
  {
    name: "policy",
    describe: "the trained policy network (src/players/policy)",
    options: "see docs/train.md",
    create: async (o, r) => (await import("../players/policy/agent.js")).createPolicyAgent(o, r),
  },
  {
    name: "scorer",
    describe:
      "the trained action-scorer network (src/players/scorer): argmax over legal moves, no search",
    options: "--agent-opt model=DIR (see docs/train-scorer.md)",
    accepts: ["model"],
    create: async (o, r) => (await import("../players/scorer/agent.js")).createScorerAgent(o, r),
  },
  {
    name: "guided",
    describe: "a small best-first search per move vetoes moves it proves lost",
    options:
      "--agent-opt order=greedy|safety|safety-root nodes=N count=expanded|stored model=DIR (docs/guided.md)",
    accepts: ["order", "nodes", "count", "model"],
    create: async (o, r) => (await import("../players/guided.js")).createGuidedAgent(o, r),
  },
  {
    name: "safety",
    describe:
      "the trained move-safety network: plays the best of the moves it judges safe, no search",
    options:
      "--agent-opt [model=DIR (default: the shipped network) threshold=P shuffle=P margin=P order=greedy|net] (see docs/train.md)",
    accepts: ["model", "threshold", "shuffle", "margin", "order"],
    create: async (o, r) => (await import("../players/safety/agent.js")).createSafetyAgent(o, r),
  },
];
const registry = new Map<string, AgentEntry>(entries.map((e) => [e.name, e]));

export function agentNames(): string[] {
  return [...registry.keys()];
}

export function agentEntries(): AgentEntry[] {
  return [...registry.values()];
}

/** Adds or replaces an agent (tests, experiments, plug-ins). */
export function registerAgent(entry: AgentEntry): void {
  registry.set(entry.name, entry);
}

export function getAgentEntry(name: string): AgentEntry {
  const e = registry.get(name);
  if (!e) throw new UsageError(`unknown agent "${name}"; known: ${agentNames().join(", ")}`);
  return e;
}

/** Builds an agent by name; an unknown name or bad option is a one-line UsageError. */
export async function createAgent(
  name: string,
  options: AgentOptions,
  rules: Rules,
): Promise<Agent> {
  const entry = getAgentEntry(name);
  if (entry.accepts)
    for (const [k, v] of Object.entries(options))
      if (v !== undefined && !entry.accepts.includes(k))
        throw new UsageError(
          `agent ${name} has no option "${k}"; allowed: ${entry.accepts.join(", ") || "none"}`,
        );
  return await entry.create(options, rules);
}
