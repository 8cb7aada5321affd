/**
 * Search plans: which strategies the solver runs, in what order, with what budgets, described
 * as data (in the spirit of Freecell Solver's "flares plans"). Each entry runs from the start
 * position with its own transposition table; the first to find a win ends the plan. Only an
 * entry marked `complete` may answer "unsolvable", when it visited every reachable position
 * within its budget; a plan without one answers only "solved" or "unknown".
 */
import type { Rules } from "../engine/rules.js";
import type { Weights } from "./walker.js";

export type Strategy = "depth-first" | "best-first";

export interface PlanStep {
  /** Reported as `by` in the result when this entry decides. */
  readonly name: string;
  readonly strategy: Strategy;
  /** Score weights: cards home, free flippers, empty columns, cards out of sequence, cards above the next foundation cards. */
  readonly weights: Weights;
  /** Most positions this entry may examine (capped by what the plan's maxStates leaves); default all that is left. */
  readonly budget?: number;
  /** Best-first only: add meta-moves (cards above a card carried to flippers, then the card home or onto a column). */
  readonly meta?: boolean;
  /** Best-first only: score taken off per step from the start (default 0, greedy). */
  readonly stepCost?: number;
  /** An exhausted search of this entry proves the deal lost. */
  readonly complete?: boolean;
}
export type SolvePlan = readonly PlanStep[];

/** Depth-first weight sets of the earlier fixed portfolio; the first is the complete run's. */
export const WEIGHT_SETS: readonly Weights[] = [
  [20, 12, 20, 3, 3],
  [20, 12, 20, 3, 0],
  [16, 6, 10, 3, 0],
];

/** The complete search every default plan ends with. */
const COMPLETE: PlanStep = { name: "dfs-complete", strategy: "depth-first", weights: WEIGHT_SETS[0]!, complete: true };

export const PLANS = {
  suit: [
    { name: "best-first", strategy: "best-first", weights: [20, 8, 16, 6, 6], budget: 20_000 },
    COMPLETE,
  ],
  alternate: [
    { name: "best-first", strategy: "best-first", weights: [20, 8, 16, 6, 6], budget: 20_000 },
    COMPLETE,
  ],
} as const satisfies Record<string, SolvePlan>;

/** The tuned default plan for a rule set. */
export function defaultPlan(rules: Rules): SolvePlan {
  return rules.build === "alternate-color" ? PLANS.alternate : PLANS.suit;
}

/** The earlier portfolio: a short depth-first run per weight set (maxStates/32 each), then a complete one. */
export function planFromWeightSets(sets: readonly (readonly number[])[], maxStates: number): SolvePlan {
  if (sets.length === 0 || sets.some((w) => w.length !== 5)) throw new RangeError("weightSets: give at least one set of 5 weights");
  const short = Math.floor(maxStates / 32);
  const weights = sets as readonly Weights[];
  const runs: PlanStep[] = short >= 1000 && sets.length > 1 ? weights.map((w, i) => ({ name: `dfs-${i}`, strategy: "depth-first", weights: w, budget: short })) : [];
  return [...runs, { ...COMPLETE, weights: weights[0]! }];
}

/** Throws a RangeError naming what is wrong with a plan. */
export function checkPlan(plan: SolvePlan): void {
  if (plan.length === 0) throw new RangeError("plan: give at least one entry");
  for (const p of plan) {
    if (p.strategy !== "depth-first" && p.strategy !== "best-first") throw new RangeError(`plan ${p.name}: strategy must be depth-first or best-first, got ${String(p.strategy)}`);
    if (p.weights.length !== 5 || p.weights.some((w) => !Number.isFinite(w))) throw new RangeError(`plan ${p.name}: give 5 finite weights`);
    if (p.budget !== undefined && !(Number.isInteger(p.budget) && p.budget >= 1)) throw new RangeError(`plan ${p.name}: budget must be a positive integer`);
  }
}
