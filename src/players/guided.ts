/**
 * The registry's `guided` agent: the solver's guided search (src/solver/guided.ts), with the
 * move-safety network's orders (order=safety|safety-root) supplied from here, so the solver
 * itself never loads a network.
 */
import type { Agent, AgentOptions } from "../agents/agent.js";
import type { Rules } from "../engine/rules.js";
import { createGuidedAgent as createSearch } from "../solver/guided.js";
import { createSafetyOrdering } from "./guided-safety.js";

export function createGuidedAgent(options: AgentOptions, rules: Rules): Agent {
  return createSearch(options, rules, createSafetyOrdering);
}
