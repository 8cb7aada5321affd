/**
 * The contract every player of the harness meets: heuristics, search, the exact solver and the
 * trained policy all choose an action id of the environment's fixed action space.
 */
import type { State } from "../engine/state.js";
import type { Rules } from "../engine/rules.js";
import type { Move } from "../engine/moves.js";
import type { ActionCodec } from "../env/actions.js";

export interface AgentInput {
  /** The current position. Agents must not change it (clone before searching). */
  readonly state: State;
  /** 1 = legal, length codec.n. */
  readonly mask: Uint8Array;
  /** The environment's observation; only filled when the agent sets `needsObservation`. */
  readonly observation: Float32Array;
  readonly codec: ActionCodec;
  /**
   * Optional: the engine move of each legal action id (valid where mask is 1), as
   * `codec.fillMask(state, mask, actionMoves)` writes it. Saves agents a second move generation.
   */
  readonly actionMoves?: Int32Array;
  /**
   * Optional: the legal action ids in the engine's move order (`codec.fillMask`'s `order`), and
   * how many there are: the order every player breaks score ties in.
   */
  readonly order?: Int32Array;
  readonly legal?: number;
  /** Which of the games played side by side this is (EpisodeRunner.playMany); 0 when one at a time. */
  readonly game?: number;
}

export interface Agent {
  /** Name with options, as written into CSV rows, e.g. `greedy(parlett,-keep-flippers-empty)`. */
  readonly name: string;
  /** True when act() reads `observation` (the policy network); others skip its encoding. */
  readonly needsObservation?: boolean;
  /**
   * True when the agent keeps several games apart by `AgentInput.game` (reset with the same
   * index), so that playMany can ask it about many games in one actBatch call.
   */
  readonly concurrentGames?: boolean;
  /**
   * Games such an agent plays side by side when its caller does not say (evaluate's default
   * otherwise): an agent whose caches serve one game's consecutive positions plays best alone.
   */
  readonly defaultBatch?: number;
  /** A new episode starts from `start`; `seed` drives any random choice of the agent; `game` as in AgentInput. */
  reset(start: State, seed: number, game?: number): void;
  /** Returns a legal action id (mask[a] === 1). */
  act(input: AgentInput): number;
  /** Optional batched form (one network call for many environments); fills out[i] for inputs[i]; callers await it. */
  actBatch?(inputs: readonly AgentInput[], out: Int32Array): void | Promise<void>;
}

export type AgentOptions = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * An agent option's value from text (`--agent-opt k=v`, an agent label): true/false are
 * booleans, a decimal number is a number (agents refuse numeric options given as text), and
 * the rest, and any model folder, stays text.
 */
export function optionValue(key: string, text: string): string | number | boolean {
  if (text === "true" || text === "false") return text === "true";
  if (key !== "model" && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}
export type AgentFactory = (options: AgentOptions, rules: Rules) => Agent | Promise<Agent>;

/** The action id of a legal engine move in `input`'s position. */
export function actionOf(input: AgentInput, move: Move): number {
  const am = input.actionMoves;
  if (am) {
    const mask = input.mask;
    for (let a = 0; a < mask.length; a++) if (mask[a] === 1 && am[a] === move) return a;
  }
  return input.codec.encode(input.state, move);
}

/** actBatch for agents that decide one position at a time. */
export function actEach(agent: Agent, inputs: readonly AgentInput[], out: Int32Array): void {
  for (let i = 0; i < inputs.length; i++) out[i] = agent.act(inputs[i]!);
}
