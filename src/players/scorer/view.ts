/**
 * One decision's buffers for players that score each action row (the scorer and safety agents).
 * No TensorFlow.js here: the shipped safety network plays without it.
 */
import { MAX_MOVES } from "../../engine/moves.js";
import type { State } from "../../engine/state.js";
import { bestAllowed, guardActions, type PositionSet } from "../../agents/repeat-guard.js";
import type { ActionCodec } from "../../env/actions.js";
import { ActionFeatures, ROW } from "./features.js";

/** Anything that scores one action row: the network (JsScorer), or plain linear weights (ES). */
export interface RowScorer {
  logit(rows: Float32Array, offset: number): number;
}

/**
 * One decision's worth of buffers: the legal mask, the guarded mask (the never-repeat guard of
 * src/agents/repeat-guard.ts), each action's move, the legal ids in engine move order, the
 * feature block and logits.
 */
export class ScorerView {
  readonly mask: Uint8Array;
  readonly guarded: Uint8Array;
  readonly actionMoves: Int32Array;
  /** Legal action ids in the engine's move order (the tie-break order); `legal` of them. */
  readonly order: Int32Array;
  legal = 0;
  readonly rows: Float32Array;
  readonly logits: Float32Array;
  readonly #features = new ActionFeatures();
  #scratch: State | undefined;

  constructor(readonly codec: ActionCodec) {
    const A = codec.n;
    this.mask = new Uint8Array(A);
    this.guarded = new Uint8Array(A);
    this.actionMoves = new Int32Array(Math.max(A, MAX_MOVES));
    this.order = new Int32Array(MAX_MOVES);
    this.rows = new Float32Array(A * ROW);
    this.logits = new Float32Array(A);
  }

  /** Fills masks and rows for `s` given the episode's positions; returns the number of legal actions. */
  look(s: State, seen: PositionSet): number {
    const A = this.codec.n;
    let x = this.#scratch;
    if (!x || x.base !== s.base || x.rules !== s.rules) x = this.#scratch = s.clone();
    else x.copyFrom(s);
    const n = (this.legal = this.codec.fillMask(x, this.mask, this.actionMoves, this.order));
    guardActions(x, this.mask, 0, A, this.actionMoves, seen, this.guarded, 0);
    this.#features.fill(x, this.mask, this.actionMoves, A, this.rows, 0);
    return n;
  }

  /** The best-scored guarded action (the one tie-break: first in engine move order); -1 when nothing is legal. */
  choose(js: RowScorer): number {
    for (let k = 0; k < this.legal; k++) {
      const a = this.order[k]!;
      if (this.guarded[a] === 1) this.logits[a] = js.logit(this.rows, a * ROW);
    }
    return bestAllowed(this.logits, this.guarded, this.legal, this.order);
  }
}
