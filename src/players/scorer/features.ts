/**
 * The action-scorer's input: one feature row per action id. A legal action's row holds, for each
 * of the greedy agents' named features (src/agents/move-features.ts, reused, not copied),
 * potential(after) − potential(before) + moveTerm — exactly the per-feature terms whose weighted
 * sum is greedy's move score — followed by a few cheap extras: the move's kind (one-hot), its group
 * size, and the position's free flippers, empty columns and cards home; then static facts of the
 * position after the move (won; legal moves there by kind; each greedy feature's potential, /10).
 * Nothing looks further than the position the move leads to: no search. Illegal actions get a row
 * of zeros (every legal row has a 1 in the kind one-hot, so zero rows are exactly the illegal ones).
 *
 * Computed like MoveScorer: one FeatureScratch, apply/undo on the caller's scratch state, no
 * allocation per call.
 */
import {
  CELL0,
  FOUNDATION,
  applyMove,
  undoMove,
  moveCount,
  moveFrom,
  moveTo,
  moveToEmpty,
  type Move,
} from "../../engine/moves.js";
import type { State } from "../../engine/state.js";
import { FEATURES, FeatureScratch } from "../../agents/move-features.js";

export const GREEDY_FEATURES = FEATURES.length;
const EXTRA_NAMES = [
  "kind-foundation",
  "kind-to-flipper",
  "kind-column-to-column",
  "kind-flipper-to-column",
  "kind-into-empty-column",
  "group-size",
  "free-flippers",
  "empty-columns-now",
  "cards-home",
  "after-won",
  // Legal moves of the position after the move, by kind (same order as the kind one-hot), / 4.
  "after-foundation-moves",
  "after-moves-to-flippers",
  "after-column-to-column-moves",
  "after-flipper-to-column-moves",
  "after-moves-into-empty-columns",
] as const;
/** The greedy features' potentials of the position after the move (the level, not the change), / 10. */
const AFTER_NAMES = FEATURES.map((f) => `after:${f.name}`);
export const FEATURE_ROW_NAMES: readonly string[] = [
  ...FEATURES.map((f) => f.name),
  ...EXTRA_NAMES,
  ...AFTER_NAMES,
];
/** Width F of one action's row. */
export const ROW = FEATURE_ROW_NAMES.length;

export class ActionFeatures {
  readonly #x = new FeatureScratch();
  readonly #before = new Float64Array(GREEDY_FEATURES);
  readonly #after = new Float64Array(GREEDY_FEATURES);

  #potentials(s: State, out: Float64Array): void {
    this.#x.locate(s);
    for (let f = 0; f < GREEDY_FEATURES; f++) {
      const p = FEATURES[f]!.potential;
      out[f] = p ? p(s, this.#x) : 0;
    }
  }

  /**
   * Writes rows for every action with mask[a] = 1 (engine move actionMoves[a]) into
   * out[offset + a * ROW ...]; other rows are zeroed. `s` is changed and restored: pass a scratch copy.
   */
  fill(
    s: State,
    mask: Uint8Array,
    actionMoves: Int32Array,
    nActions: number,
    out: Float32Array,
    offset: number,
  ): void {
    out.fill(0, offset, offset + nActions * ROW);
    this.#potentials(s, this.#before);
    // Move terms read the scratch of the position before the move: do them all before applying any.
    for (let a = 0; a < nActions; a++) {
      if (mask[a] !== 1) continue;
      const m = actionMoves[a]!;
      const o = offset + a * ROW;
      for (let f = 0; f < GREEDY_FEATURES; f++) {
        const t = FEATURES[f]!.moveTerm;
        if (t) out[o + f] = t(s, m, this.#x);
      }
    }
    const nCells = s.nCells;
    const free = s.freeCells() / Math.max(1, nCells);
    const empty = s.emptyColumns() / s.nColumns;
    const home = s.cardsHome() / 52;
    for (let a = 0; a < nActions; a++) {
      if (mask[a] !== 1) continue;
      const m = actionMoves[a]!;
      const o = offset + a * ROW;
      applyMove(s, m);
      this.#potentials(s, this.#after);
      const e = o + GREEDY_FEATURES;
      const p = e + EXTRA_NAMES.length;
      for (let f = 0; f < GREEDY_FEATURES; f++) {
        out[o + f] = out[o + f]! + this.#after[f]! - this.#before[f]!;
        out[p + f] = this.#after[f]! / 10;
      }
      out[e + 9] = s.isWon() ? 1 : 0;
      const n = this.#x.legalMoves(s);
      for (let i = 0; i < n; i++) {
        const k = e + 10 + kindOf(this.#x.moves[i]!);
        out[k] = out[k]! + 0.25;
      }
      undoMove(s, m);
      out[e + kindOf(m)] = 1;
      out[e + 5] = moveCount(m) / 13;
      out[e + 6] = free;
      out[e + 7] = empty;
      out[e + 8] = home;
    }
  }
}

/** 0 foundation, 1 into a flipper, 2 column to column, 3 flipper to column, 4 into an empty column. */
function kindOf(m: Move): number {
  const to = moveTo(m);
  if (to === FOUNDATION) return 0;
  if (to >= CELL0) return 1;
  if (moveToEmpty(m)) return 4;
  return moveFrom(m) >= CELL0 ? 3 : 2;
}
