/** PPO's objective, shared by both policies (src/train/ppo/update.ts, afterstate.ts). */
import { tf } from "../backend.js";

/**
 * The clipped surrogate with value loss and entropy bonus, from each sample's log-ratio of new
 * to old policy, normalised advantage, value prediction and return, and the batch's mean
 * entropy. Returns the loss and the figures a metrics row averages: policy loss, value loss,
 * entropy, approximate KL and the clipped share.
 */
export function ppoLoss(
  logRatio: tf.Tensor1D,
  adv: tf.Tensor1D,
  value: tf.Tensor1D,
  ret: tf.Tensor1D,
  ent: tf.Scalar,
  o: { clip: number; entCoef: number; vfCoef: number },
): { loss: tf.Scalar; extras: tf.Scalar[] } {
  const ratio = tf.exp(logRatio);
  const pg = tf.neg(
    tf.mean(
      tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - o.clip, 1 + o.clip), adv)),
    ),
  ) as tf.Scalar;
  const vLoss = tf.mul(0.5, tf.mean(tf.square(tf.sub(value, ret)))) as tf.Scalar;
  const loss = tf.add(tf.sub(pg, tf.mul(o.entCoef, ent)), tf.mul(o.vfCoef, vLoss)) as tf.Scalar;
  const kl = tf.mean(tf.sub(tf.sub(ratio, 1), logRatio)) as tf.Scalar;
  const clipFrac = tf.mean(
    tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), o.clip), "float32"),
  ) as tf.Scalar;
  return { loss, extras: [pg, vLoss, ent, kl, clipFrac] };
}
