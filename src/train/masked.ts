/**
 * Masked categorical distribution (Huang & Ontañón, "A Closer Look at Invalid Action Masking in
 * Policy Gradient Algorithms"): the logits of illegal actions are replaced by a large negative
 * number before the softmax, both when acting (here, in plain JS on the fetched logits) and in
 * the update (maskedLogSoftmax, a tf op on the stored masks). An illegal action then has
 * probability exp(-1e9) = 0 and contributes no gradient.
 */
import { tf } from "./backend.js";
export { chooseMasked } from "../players/policy/choose.js";

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
