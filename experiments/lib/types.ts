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

/** A module each worker loads (experiments/lib/play-condition.ts; tests use a fake). */
export interface TaskModule {
  /** Player name with options, as written into the CSV. */
  describe(c: Condition): string | Promise<string>;
  play(c: Condition, deal: number, deck: "seed" | "ms"): Outcome | Promise<Outcome>;
}

/** One game of a run: a deal under one of its conditions (an index into them). */
export interface Task {
  readonly condition: number;
  readonly deal: number;
}

/** What a worker thread is set up with: the task module and the run's conditions. */
export interface PlayInit {
  readonly moduleUrl: string;
  readonly conditions: readonly Condition[];
  readonly deck: "seed" | "ms";
}

/** Names the deal and condition a failure came from, so it can be replayed alone. */
export function failedTask(e: unknown, t: Task, conditions: readonly Condition[]): Error {
  const c = conditions[t.condition]!;
  const msg = e instanceof Error ? e.message : String(e);
  return new Error(
    `deal ${t.deal}, rules ${c.preset} ${JSON.stringify(c.overrides)}, player ${JSON.stringify(c.player)}: ${msg}`,
  );
}
