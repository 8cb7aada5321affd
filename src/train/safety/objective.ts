/**
 * The loss a safety minibatch trains on. Objective "risk": binary cross-entropy on "this move
 * loses a winnable deal", where a lost move weighs `lostWeight` (a missed fatal move costs a deal,
 * a false alarm only narrows the choice). Objective "choice": one softmax per position (choice.ts),
 * plus, with `criticalWeight` > 0, the fatal-move term on the positions that hold a losing move.
 */
import { tf } from "../backend.js";
import type { Minibatch } from "./batch.js";
import { choiceLoss, safeSetLoss } from "./choice.js";
import type { TfSafety } from "./network.js";

/** Weighted binary cross-entropy with logits, stable: max(z,0) − z·y + log(1 + e^−|z|), weighted mean. */
export function riskLoss(logits: tf.Tensor1D, y: tf.Tensor1D, weight: tf.Tensor1D): tf.Scalar {
  const l = tf.add(
    tf.sub(tf.relu(logits), tf.mul(logits, y)),
    tf.log1p(tf.exp(tf.neg(tf.abs(logits)))),
  );
  return tf.div(tf.sum(tf.mul(l, weight)), tf.sum(weight)) as tf.Scalar;
}

/** riskLoss of one row in plain numbers (unweighted), for the held-out moves. */
export function riskLossJs(z: number, y: number): number {
  return Math.max(z, 0) - z * y + Math.log1p(Math.exp(-Math.abs(z)));
}

/** The loss of the first `rows` rows of `batch` (filled with o.batch units), to minimise. */
export function minibatchLoss(net: TfSafety, batch: Minibatch, rows: number): tf.Scalar {
  const B = batch.o.batch;
  const z = net.forward(...batch.inputs(rows), rows);
  const target = tf.tensor1d(batch.y.subarray(0, rows));
  if (!batch.samples.choice) return riskLoss(z, target, tf.tensor1d(batch.wt.subarray(0, rows)));
  const member = batch.membership(rows);
  const main = choiceLoss(z, member, target, B);
  const weight = batch.o.criticalWeight ?? 0;
  if (weight === 0) return main;
  const fatal = safeSetLoss(
    z,
    member,
    tf.tensor1d(batch.safeRow.subarray(0, rows)),
    tf.tensor1d(batch.critPos),
    B,
  );
  return tf.add(main, tf.mul(fatal, weight)) as tf.Scalar;
}
