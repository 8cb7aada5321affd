/**
 * `greedy`: plays the legal move with the best weighted feature score (see heuristic.ts). It never
 * loops: a move back to a position already seen in the episode is played only when every legal
 * move leads to one (positions are told apart by the engine's 64-bit hash).
 */
import { generateMoves, MAX_MOVES } from "../engine/moves.js";
import { copyInto, type State } from "../engine/state.js";
import type { Agent, AgentInput, AgentOptions } from "./agent.js";
import { actEach, actionOf } from "./agent.js";
import { heuristicLabel, heuristicSpec, MoveScorer, weightsOf } from "./heuristic.js";
import { bestAllowed, markFresh, PositionSet } from "./repeat-guard.js";

export class GreedyAgent implements Agent {
  readonly name: string;
  readonly scorer: MoveScorer;
  /** Positions of this episode, the current one included. */
  readonly seen = new PositionSet();
  #scratch: State | undefined;
  readonly #moves = new Int32Array(MAX_MOVES);
  readonly #score = new Float64Array(MAX_MOVES);
  readonly #fresh = new Uint8Array(MAX_MOVES);

  constructor(options: AgentOptions = {}) {
    const spec = heuristicSpec(options);
    this.scorer = new MoveScorer(weightsOf(spec));
    this.name = `greedy(${heuristicLabel(spec)})`;
  }

  reset(start: State): void {
    this.seen.clear();
    this.seen.add(start.hashLo, start.hashHi);
    this.#scratch = start.clone();
  }

  act(input: AgentInput): number {
    const s = input.state;
    this.seen.add(s.hashLo, s.hashHi);
    const x = (this.#scratch = copyInto(this.#scratch, s));
    const n = generateMoves(x, this.#moves);
    if (n === 0) throw new Error("greedy agent asked to act with no legal move");
    this.scorer.scoreMoves(x, this.#moves, n, this.#score);
    if (markFresh(x, this.#moves, n, this.seen, this.#fresh) === 0) this.#fresh.fill(1, 0, n);
    return actionOf(input, this.#moves[bestAllowed(this.#score, this.#fresh, n)]!);
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    actEach(this, inputs, out);
  }
}
