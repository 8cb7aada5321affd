/**
 * The contract every player of the harness meets: heuristics, search, the exact solver and the
 * trained policy all choose an action id of the environment's fixed action space.
 */
import type { State } from "../engine/state.js";
import type { Rules } from "../engine/rules.js";
import type { ActionCodec } from "../env/actions.js";

export interface AgentInput {
  /** The current position. Agents must not change it (clone before searching). */
  readonly state: State;
  /** 1 = legal, length codec.n. */
  readonly mask: Uint8Array;
  /** The environment's observation; only filled when the agent sets `needsObservation`. */
  readonly observation: Float32Array;
  readonly codec: ActionCodec;
}

export interface Agent {
  /** Name with options, as written into CSV rows, e.g. `greedy(parlett,-keep-flippers-empty)`. */
  readonly name: string;
  /** True when act() reads `observation` (the policy network); others skip its encoding. */
  readonly needsObservation?: boolean;
  /** A new episode starts from `start`; `seed` drives any random choice of the agent. */
  reset(start: State, seed: number): void;
  /** Returns a legal action id (mask[a] === 1). */
  act(input: AgentInput): number;
  /** Optional batched form (one network call for many environments); fills out[i] for inputs[i]. */
  actBatch?(inputs: readonly AgentInput[], out: Int32Array): void;
}

export type AgentOptions = Readonly<Record<string, string | number | boolean | undefined>>;
export type AgentFactory = (options: AgentOptions, rules: Rules) => Agent | Promise<Agent>;
