/**
 * The "choice" objective of the move-safety network: instead of a loss probability for each move
 * on its own, one softmax over the labelled moves of each position, whose target spreads evenly
 * over the moves that keep the deal winnable. The agent only ever compares the moves of one
 * position, and the loss now says exactly that: a fatal move must score below the safe moves of
 * its own position, however risky the position looks as a whole.
 */
import { UsageError } from "../../errors.js";
import { tf } from "../backend.js";
import type { SafetyData } from "./dataset.js";
import { squash } from "../../players/safety/model.js";
import type { Rules } from "../../engine/rules.js";
import type { State } from "../../engine/state.js";
import { PACK_STRIDE, unpackState, Unpacker } from "./pack.js";

/** Where each position's moves lie in the dataset: moves first[d] … first[d + 1] − 1 belong to position d. */
export function decisionStarts(data: SafetyData): Int32Array {
  const D = data.deal.length;
  const first = new Int32Array(D + 1);
  const dec = data.decision;
  for (let k = 0; k < dec.length; k++) {
    if (k > 0 && dec[k]! < dec[k - 1]!)
      throw new UsageError(
        `the dataset's moves are not grouped by position (decision.npy falls at row ${k}); relabel it with penguin dataset`,
      );
    first[dec[k]! + 1]!++;
  }
  for (let d = 0; d < D; d++) first[d + 1] = first[d + 1]! + first[d]!;
  return first;
}

/**
 * Mean over positions of −log(softmax weight on the winnable moves, evenly split), as
 * logsumexp(z) − Σ target·z per position. `member` is the [rows, positions] one-hot of each
 * row's position (a matrix product sums the rows of each position: the segment-sum kernel is
 * missing from the wasm backend); every position has at least one row. Scores pass through
 * 20·tanh(z/20) so that exp cannot overflow, and the shift by the batch maximum leaves the value
 * and its gradient unchanged.
 */
export function choiceLoss(
  z: tf.Tensor1D,
  member: tf.Tensor2D,
  target: tf.Tensor1D,
  positions: number,
): tf.Scalar {
  const s = tf.mul(tf.tanh(tf.div(z, 20)), 20) as tf.Tensor1D;
  const top = tf.max(s);
  const sums = tf.matMul(tf.reshape(tf.exp(tf.sub(s, top)), [1, -1]) as tf.Tensor2D, member);
  const lse = tf.add(tf.log(sums), top);
  return tf.div(tf.sub(tf.sum(lse), tf.sum(tf.mul(s, target))), positions) as tf.Scalar;
}

/**
 * The fatal-move term of the choice objective (`--critical-weight`): for each position that holds
 * a losing move, −log of the softmax weight on all its winnable moves together, weighted by
 * `critical` (one number per position of the batch, 0 for the others), summed and divided by
 * `positions`. The main loss only asks for lookahead's favourite; it charges a fatal move no more
 * than a safe move lookahead likes less, while a single fatal move at the top loses the game.
 * `safe` is 1 on the winnable rows. Scores are squashed as in choiceLoss.
 */
export function safeSetLoss(
  z: tf.Tensor1D,
  member: tf.Tensor2D,
  safe: tf.Tensor1D,
  critical: tf.Tensor1D,
  positions: number,
): tf.Scalar {
  const s = tf.mul(tf.tanh(tf.div(z, 20)), 20) as tf.Tensor1D;
  const top = tf.max(s);
  const e = tf.exp(tf.sub(s, top));
  const all = tf.matMul(tf.reshape(e, [1, -1]) as tf.Tensor2D, member);
  // Every critical position has a winnable move (positions without one are not trained on); the
  // tiny floor only keeps log finite on the padding columns, whose weight is 0.
  const kept = tf.matMul(tf.reshape(tf.mul(e, safe), [1, -1]) as tf.Tensor2D, member);
  const gap = tf.sub(tf.log(tf.add(all, 1e-30)), tf.log(tf.add(kept, 1e-30)));
  return tf.div(tf.sum(tf.mul(tf.reshape(gap, [-1]), critical)), positions) as tf.Scalar;
}

/** The same loss in plain numbers, for the validation positions. */
export function choiceLossJs(
  z: ArrayLike<number>,
  target: ArrayLike<number>,
  from: number,
  to: number,
): number {
  let top = -Infinity;
  for (let r = from; r < to; r++) top = Math.max(top, squash(z[r]!));
  let sum = 0;
  let dot = 0;
  for (let r = from; r < to; r++) {
    const s = squash(z[r]!);
    sum += Math.exp(s - top);
    dot += s * target[r]!;
  }
  return top + Math.log(sum) - dot;
}

/**
 * Calls visit(d, s, moves, rows, n) for each position d (with wanted(d)) that has a winnable move:
 * s is the position, unpacked into a scratch state; moves[0 … n) its winnable moves and rows[0 … n)
 * their dataset rows, in dataset order. The buffers are reused from one call to the next.
 */
export function eachWinnable(
  data: SafetyData,
  first: Int32Array,
  rules: Rules,
  wanted: (d: number) => boolean,
  visit: (d: number, s: State, moves: Int32Array, rows: Int32Array, n: number) => void,
): void {
  const unpacker = new Unpacker(rules);
  const moves = new Int32Array(512);
  const rows = new Int32Array(512);
  for (let d = 0; d < data.deal.length; d++) {
    if (!wanted(d)) continue;
    let n = 0;
    for (let k = first[d]!; k < first[d + 1]!; k++)
      if (data.label[k] === 1) {
        moves[n] = data.move[k]!;
        rows[n++] = k;
      }
    if (n === 0) continue;
    const s = unpacker.state(data.before[d * PACK_STRIDE]!);
    unpackState(data.before, d * PACK_STRIDE, s);
    visit(d, s, moves, rows, n);
  }
}
