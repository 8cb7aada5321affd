/** What an experiment plays: conditions (rules × player) over a range of deals. */
import type { RuleOverrides } from "../../src/engine/rules.js";
import type { AgentOptions } from "../../src/agents/agent.js";

/** A player: a registered agent with its options, or the exact solver with a state budget. */
export type PlayerSpec =
  | { readonly kind: "agent"; readonly agent: string; readonly options: AgentOptions }
  | { readonly kind: "solver"; readonly maxStates: number };

export interface Condition {
  /** The experiment's own columns for this condition, e.g. { flippers: 3, empty: "any" }. */
  readonly labels: Readonly<Record<string, string | number>>;
  readonly preset: string;
  readonly overrides: RuleOverrides;
  readonly player: PlayerSpec;
}

/**
 * One deal under one condition. `outcome` is "unknown" only for the solver when its budget ran
 * out. `states` is the solver's search effort (deterministic, unlike a clock), 0 for agents.
 */
export interface Outcome {
  readonly outcome: "won" | "lost" | "unknown";
  /** Base rank as a rank letter (A 2 … K). */
  readonly base: string;
  readonly cardsHome: number;
  readonly moves: number;
  readonly states: number;
}

/** A module the pool loads in each worker (experiments/lib/play.ts; tests use a fake). */
export interface TaskModule {
  /** Player name with options, as written into the CSV. */
  describe(c: Condition): string | Promise<string>;
  play(c: Condition, deal: number, deck: "seed" | "ms"): Outcome | Promise<Outcome>;
}
