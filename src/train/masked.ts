/**
 * Masked categorical distribution (Huang & Ontañón, "A Closer Look at Invalid Action Masking in
 * Policy Gradient Algorithms"): the logits of illegal actions are replaced by a large negative
 * number before the softmax, both when acting (here, in plain JS on the fetched logits) and in
 * the update (maskedLogSoftmax, a tf op on the stored masks). An illegal action then has
 * probability exp(-1e9) = 0 and contributes no gradient.
 */
import { tf } from "./backend.js";
import type { Rng } from "./rng.js";

export const MASKED_LOGIT = -1e9;

/** log-softmax over legal actions; mask is float 1/0 of the same shape. */
export function maskedLogSoftmax(logits: tf.Tensor2D, mask: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => {
    const masked = tf.where(
      mask.greater(0.5),
      logits,
      tf.fill(logits.shape, MASKED_LOGIT),
    ) as tf.Tensor2D;
    return tf.logSoftmax(masked) as tf.Tensor2D;
  });
}

/** Entropy per row of a masked distribution given its log-probabilities (illegal rows give 0·(−1e9) = 0). */
export function maskedEntropy(logp: tf.Tensor2D, mask: tf.Tensor2D): tf.Tensor1D {
  return tf.tidy(() => tf.neg(tf.sum(tf.mul(tf.mul(tf.exp(logp), logp), mask), 1)) as tf.Tensor1D);
}

/**
 * Samples (sample=true) or takes the argmax over the legal actions of one row; returns -1 when
 * no action is legal. Ties in argmax go to the lowest id. `logpOut[0]` receives log π(a).
 */
export function chooseMasked(
  logits: Float32Array,
  offset: number,
  n: number,
  mask: Uint8Array,
  maskOffset: number,
  rng: Rng | undefined,
  logpOut?: Float64Array,
): number {
  let best = -1;
  let max = -Infinity;
  for (let a = 0; a < n; a++)
    if (mask[maskOffset + a] === 1 && logits[offset + a]! > max) {
      max = logits[offset + a]!;
      best = a;
    }
  if (best < 0) return -1;
  let sum = 0;
  for (let a = 0; a < n; a++)
    if (mask[maskOffset + a] === 1) sum += Math.exp(logits[offset + a]! - max);
  let choice = best;
  if (rng) {
    let u = rng.next() * sum;
    choice = -1;
    for (let a = 0; a < n; a++) {
      if (mask[maskOffset + a] !== 1) continue;
      choice = a; // the last legal action absorbs rounding at the top of the range
      u -= Math.exp(logits[offset + a]! - max);
      if (u < 0) break;
    }
  }
  if (logpOut) logpOut[0] = logits[offset + choice]! - max - Math.log(sum);
  return choice;
}
