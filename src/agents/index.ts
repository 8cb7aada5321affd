/** Agents: the contract every player implements, the built-in players and the registry by name. */
export {
  type Agent,
  type AgentInput,
  type AgentOptions,
  type AgentFactory,
  actionOf,
  actEach,
} from "./agent.js";
export { RandomAgent } from "./random.js";
export { GreedyAgent } from "./greedy.js";
export { LookaheadAgent } from "./lookahead.js";
export {
  type Weights,
  HEURISTIC_PRESETS,
  HEURISTIC_NAMES,
  DEFAULT_HEURISTIC,
} from "./heuristic.js";
export { FEATURE_NAMES } from "./move-features.js";
export {
  type AgentEntry,
  agentNames,
  agentEntries,
  registerAgent,
  getAgentEntry,
  createAgent,
} from "./registry.js";
