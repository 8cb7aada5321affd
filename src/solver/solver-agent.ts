/**
 * `solver` agent: optimal play for evaluation. On reset it solves the start position; act()
 * then plays the solution move by move. When the solver found no win (the deal is lost, or the
 * budget ran out) it plays the first legal action, and the episode is lost as it must be.
 *
 * Options (from `penguin eval --agent solver --agent-opt key=value`):
 *   max-states  positions the solver may examine per deal (default DEFAULT_MAX_STATES)
 *   timeout-ms  wall-clock budget per deal (default none)
 * The agent name records them: `solver`, `solver(max-states=100000)`.
 */
import type { Agent, AgentInput, AgentOptions } from "../agents/agent.js";
import { applyMove, type Move } from "../engine/moves.js";
import type { Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import type { State } from "../engine/state.js";
import { DEFAULT_MAX_STATES, MAX_STATES_LIMIT, solve, type SolveResult } from "./search.js";

function numberOption(
  options: AgentOptions,
  keys: readonly string[],
  what: string,
): number | undefined {
  for (const k of keys) {
    const v = options[k];
    if (v === undefined) continue;
    const n = typeof v === "number" ? v : Number(v);
    if (!Number.isFinite(n) || n <= 0)
      throw new UsageError(`solver option ${what} must be a positive number, got ${String(v)}`);
    return n;
  }
  return undefined;
}

export class SolverAgent implements Agent {
  readonly name: string;
  readonly #maxStates: number;
  readonly #timeoutMs: number | undefined;
  /** The last solve, for callers that want the verdict (eval tables, tests). */
  last: SolveResult | undefined;
  #moves: Move[] = [];
  /** Position expected before moves[next]; resynchronises if the caller skipped ahead. */
  #expected: State | undefined;
  #next = 0;

  constructor(options: AgentOptions = {}) {
    const known = new Set(["max-states", "maxStates", "timeout-ms", "timeoutMs"]);
    for (const k of Object.keys(options))
      if (!known.has(k) && options[k] !== undefined)
        throw new UsageError(`unknown solver option "${k}"; allowed: max-states, timeout-ms`);
    const maxStates = numberOption(options, ["max-states", "maxStates"], "max-states");
    if (maxStates !== undefined && (!Number.isInteger(maxStates) || maxStates > MAX_STATES_LIMIT))
      throw new UsageError(
        `solver option max-states must be an integer from 1 to ${MAX_STATES_LIMIT}, got ${maxStates}`,
      );
    this.#maxStates = maxStates ?? DEFAULT_MAX_STATES;
    this.#timeoutMs = numberOption(options, ["timeout-ms", "timeoutMs"], "timeout-ms");
    const parts: string[] = [];
    if (maxStates !== undefined) parts.push(`max-states=${maxStates}`);
    if (this.#timeoutMs !== undefined) parts.push(`timeout-ms=${this.#timeoutMs}`);
    this.name = parts.length ? `solver(${parts.join(",")})` : "solver";
  }

  reset(start: State, _seed: number): void {
    this.last = solve(start, { maxStates: this.#maxStates, timeoutMs: this.#timeoutMs });
    this.#moves = this.last.result === "solved" ? this.last.moves : [];
    this.#expected = start.clone();
    this.#next = 0;
  }

  act(input: AgentInput): number {
    const { state, mask, codec } = input;
    if (this.#expected && this.#next < this.#moves.length && !state.equals(this.#expected))
      this.#resync(state);
    if (this.#expected && this.#next < this.#moves.length && state.equals(this.#expected)) {
      const m = this.#moves[this.#next++]!;
      applyMove(this.#expected, m);
      return codec.encode(state, m);
    }
    // No solution to follow: the first legal action (the deal is lost either way).
    for (let a = 0; a < mask.length; a++) if (mask[a] === 1) return a;
    throw new Error("solver agent asked to act with no legal action");
  }

  /** The caller's position is not the expected one: look for it further along the solution. */
  #resync(state: State): void {
    const probe = this.#expected!.clone();
    for (let i = this.#next; i < this.#moves.length; i++) {
      applyMove(probe, this.#moves[i]!);
      if (probe.equals(state)) {
        this.#expected = probe;
        this.#next = i + 1;
        return;
      }
    }
    // Off the line: solve again from here.
    this.reset(state, 0);
  }
}

export function createSolverAgent(options: AgentOptions, _rules: Rules): Agent {
  return new SolverAgent(options);
}
