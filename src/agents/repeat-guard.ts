/**
 * The never-repeat guard that every player of the harness uses: a move whose result is a position
 * already seen in this game is played only when every legal move is one. A winning line never
 * needs a repeated position (cut the cycle out and it still wins), so the guard never removes a
 * win; it stops a player from shuffling a card between flippers for ever.
 *
 * One tie-break goes with it: among moves of equal score the first in the engine's move order
 * (generateMoves) is played. Players that choose by action id get that order from
 * `ActionCodec.fillMask`'s `order` output.
 */
import { applyMove, undoMove } from "../engine/moves.js";
import { PositionSet } from "../engine/position-set.js";
import type { State } from "../engine/state.js";

export { PositionSet };

/**
 * Marks fresh[i] = 1 for each of the n moves whose result is not in `seen`, else 0; returns how
 * many are fresh. `s` is changed and restored (apply + undo).
 */
export function markFresh(
  s: State,
  moves: Int32Array,
  n: number,
  seen: PositionSet,
  fresh: Uint8Array,
): number {
  let count = 0;
  for (let i = 0; i < n; i++) {
    const m = moves[i]!;
    applyMove(s, m);
    const f = !seen.has(s.hashLo, s.hashHi);
    undoMove(s, m);
    fresh[i] = f ? 1 : 0;
    if (f) count++;
  }
  return count;
}

/**
 * The guard on an action mask: writes into `out` (which may be `mask` itself) the legal actions
 * whose result is not in `seen`; when every legal action repeats, `out` keeps them all. Returns the
 * number of fresh actions (0 = all repeat). `actionMoves` holds each legal action's engine move
 * (ActionCodec.fillMask); `s` is changed and restored.
 */
export function guardActions(
  s: State,
  mask: Uint8Array,
  maskOffset: number,
  n: number,
  actionMoves: Int32Array,
  seen: PositionSet,
  out: Uint8Array = mask,
  outOffset: number = maskOffset,
): number {
  let fresh = 0;
  // 2 marks "legal but a repeat" until we know whether anything is fresh.
  for (let a = 0; a < n; a++) {
    if (mask[maskOffset + a] !== 1) {
      out[outOffset + a] = 0;
      continue;
    }
    const m = actionMoves[a]!;
    applyMove(s, m);
    const repeat = seen.has(s.hashLo, s.hashHi);
    undoMove(s, m);
    out[outOffset + a] = repeat ? 2 : 1;
    if (!repeat) fresh++;
  }
  const keep = fresh === 0 ? 1 : 0;
  for (let a = 0; a < n; a++) if (out[outOffset + a] === 2) out[outOffset + a] = keep;
  return fresh;
}

/**
 * The tie-break: the candidate with the highest score among those allowed (allowed[c] === 1), the
 * first on ties, candidates taken in `order` (engine move order; without it 0..count-1); score
 * and allowed of candidate c sit at `offset + c`. Returns the candidate, or -1 when none is allowed.
 */
export function bestAllowed(
  score: ArrayLike<number>,
  allowed: Uint8Array,
  count: number,
  order?: Int32Array,
  offset = 0,
): number {
  let best = -1;
  let bestV = -Infinity;
  for (let k = 0; k < count; k++) {
    const c = order ? order[k]! : k;
    if (allowed[offset + c] !== 1) continue;
    const v = score[offset + c]!;
    if (best < 0 || v > bestV) {
      best = c;
      bestV = v;
    }
  }
  return best;
}
