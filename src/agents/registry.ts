/**
 * Agents by name, so the CLI and experiments can list and build them. `solver`, `policy` and `scorer` live
 * in other areas (src/solver, src/train) and are imported only when asked for, so every other
 * agent works without them (and without loading TensorFlow).
 */
import type { Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import { tfjsMissing } from "../util/tfjs.js";
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

/**
 * Loads `exportName` from a module of another area on first use. The specifier is built at run
 * time so the type checker and bundlers do not require the file to exist.
 */
function lazy(relPath: string, exportName: string, area: string): AgentFactory {
  return async (options: AgentOptions, rules: Rules): Promise<Agent> => {
    const url = new URL(relPath, import.meta.url).href;
    let mod: Record<string, unknown>;
    try {
      mod = (await import(url)) as Record<string, unknown>;
    } catch (e) {
      const noTfjs = tfjsMissing(e, area);
      if (noTfjs) throw noTfjs;
      const code = (e as { code?: string }).code;
      const msg = e instanceof Error ? e.message : String(e);
      if (
        code === "ERR_MODULE_NOT_FOUND" &&
        msg.includes(relPath.replace(/^\.\.\//, "").replace(/\.js$/, ""))
      )
        throw new UsageError(
          `agent needs ${area} (src/${relPath.replace(/^\.\.\//, "").replace(/\.js$/, ".ts")}), which is not available in this build`,
        );
      throw e;
    }
    const factory = mod[exportName];
    if (typeof factory !== "function")
      throw new UsageError(`src/${relPath.replace(/^\.\.\//, "")} does not export ${exportName}`);
    return (await (factory as AgentFactory)(options, rules)) as Agent;
  };
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
    create: lazy("../solver/solver-agent.js", "createSolverAgent", "the solver"),
  },
  {
    name: "policy",
    describe: "the trained policy network (src/train)",
    options: "see docs/train.md",
    create: lazy("../train/policy-agent.js", "createPolicyAgent", "the trained policy"),
  },
  {
    name: "scorer",
    describe:
      "the trained action-scorer network (src/train/scorer): argmax over legal moves, no search",
    options: "--agent-opt model=DIR (see docs/train-scorer.md)",
    accepts: ["model"],
    create: lazy("../train/scorer/agent.js", "createScorerAgent", "the action-scorer"),
  },
  {
    name: "guided",
    describe: "a small best-first search per move vetoes moves it proves lost",
    options:
      "--agent-opt order=greedy|safety|safety-root nodes=N count=expanded|stored model=DIR (docs/guided.md)",
    accepts: ["order", "nodes", "count", "model"],
    create: lazy("../solver/guided.js", "createGuidedAgent", "the guided search"),
  },
  {
    name: "safety",
    describe:
      "the trained move-safety network: plays the best of the moves it judges safe, no search",
    options:
      "--agent-opt model=DIR [threshold=P shuffle=P margin=P order=greedy|net] (see docs/train-safety.md)",
    accepts: ["model", "threshold", "shuffle", "margin", "order"],
    create: lazy("../train/safety/agent.js", "createSafetyAgent", "the safety network"),
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
