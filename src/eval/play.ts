/**
 * Plays one deal with an agent, straight on the engine and the action codec: the agent sees the
 * position, the legal-action mask (and the observation only when it asks for one), returns an
 * action id, and the move is applied. The game is lost when no legal move is left or the step
 * limit is reached.
 */
import { applyMove } from "../engine/moves.js";
import type { Rules } from "../engine/rules.js";
import type { State } from "../engine/state.js";
import { ActionCodec } from "../env/actions.js";
import { ObservationEncoder } from "../env/observation.js";
import type { Agent, AgentInput } from "../agents/agent.js";
import type { GameOutcome } from "./stats.js";
import { IllegalMoveError } from "../errors.js";

/** Penguin games that are won take ~100-250 moves; 1000 leaves room for long flipper manoeuvres. */
export const DEFAULT_MAX_STEPS = 1000;

/** Reusable buffers for many episodes of one agent under one rule set. */
export class EpisodeRunner {
  readonly codec: ActionCodec;
  private readonly mask: Uint8Array;
  private readonly actionMoves: Int32Array;
  private readonly observation: Float32Array;
  private readonly encoder: ObservationEncoder | undefined;

  constructor(
    readonly rules: Rules,
    readonly agent: Agent,
  ) {
    this.codec = new ActionCodec(rules);
    this.mask = new Uint8Array(this.codec.n);
    this.actionMoves = new Int32Array(this.codec.n);
    this.encoder = agent.needsObservation ? new ObservationEncoder(rules) : undefined;
    this.observation = new Float32Array(this.encoder ? this.encoder.size : 0);
  }

  /** Plays `start` (left unchanged) to the end; `seed` goes to the agent's reset. */
  play(start: State, seed: number, maxSteps = DEFAULT_MAX_STEPS): GameOutcome {
    const s = start.clone();
    const agent = this.agent;
    agent.reset(s.clone(), seed);
    const input: AgentInput = { state: s, mask: this.mask, observation: this.observation, codec: this.codec, actionMoves: this.actionMoves };
    let moves = 0;
    while (!s.isWon() && moves < maxSteps) {
      if (this.codec.fillMask(s, this.mask, this.actionMoves) === 0) break;
      if (this.encoder) this.encoder.encode(s, this.observation);
      const a = agent.act(input);
      if (!(a >= 0 && a < this.mask.length && this.mask[a] === 1))
        throw new IllegalMoveError(`agent ${agent.name} chose illegal action ${a} after ${moves} moves`, `action ${a} is not legal in this position`);
      applyMove(s, this.actionMoves[a]!);
      moves++;
    }
    return { won: s.isWon(), cardsHome: s.cardsHome(), moves };
  }
}

/** One deal, one agent: the convenience form of EpisodeRunner. */
export function playDeal(agent: Agent, rules: Rules, start: State, seed: number, maxSteps = DEFAULT_MAX_STEPS): GameOutcome {
  return new EpisodeRunner(rules, agent).play(start, seed, maxSteps);
}
