/**
 * The exact solver (docs/solver.md): `solve(position, { maxStates, timeoutMs })` returns a
 * verified winning line, a proof that none exists, or "unknown" when the budget ran out.
 */
export {
  solve,
  replayWins,
  lineText,
  DEFAULT_MAX_STATES,
  MAX_STATES_LIMIT,
  type SolveOptions,
  type SolveResult,
  type SolveStats,
  type UnknownReason,
} from "./search.js";
export { shortenSolution } from "./shorten.js";
export { SolverAgent } from "./solver-agent.js";
export {
  WEIGHT_SETS,
  PLANS,
  defaultPlan,
  type SolvePlan,
  type PlanStep,
  type Strategy,
} from "./plan.js";
export type { Weights as ScoreWeights } from "./plan.js";
