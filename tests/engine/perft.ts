/** Perft (number of legal move sequences of a given length), by the engine's generate/apply/undo. */
import {
  applyMoveUnchecked,
  generateMoves,
  MAX_MOVES,
  undoMove,
  type State,
} from "../../src/engine/index.js";

const buffers = Array.from({ length: 8 }, () => new Int32Array(MAX_MOVES));

export function perft(s: State, depth: number): number {
  if (depth === 0) return 1;
  const buf = buffers[depth]!;
  const n = generateMoves(s, buf);
  if (depth === 1) return n;
  let total = 0;
  for (let i = 0; i < n; i++) {
    applyMoveUnchecked(s, buf[i]!);
    total += perft(s, depth - 1);
    undoMove(s, buf[i]!);
  }
  return total;
}
