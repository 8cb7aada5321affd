/**
 * How the network judges the held-out samples (deals the run never trains on): the loss, the
 * recall of lost moves and the false alarms, the validation columns of metrics.csv. They say how
 * well it tells moves apart; the validation games (validation.ts) say what that is worth.
 */
import { squash } from "../../players/safety/model.js";
import { tf } from "../backend.js";
import type { Minibatch } from "./batch.js";
import { choiceLossJs } from "./choice.js";
import type { TfSafety } from "./network.js";
import { riskLossJs } from "./objective.js";

export interface HeldOutScores {
  loss: number;
  recall: number;
  falseAlarm: number;
}

/**
 * Running sums of the held-out scores. Risk objective: the loss weighted per move; lost moves and
 * those scored above even odds ("caught"); winnable moves and those so scored ("alarms"). Choice
 * objective: the loss per position; positions holding a losing move and those whose best-scored
 * move keeps the deal winnable; their winnable moves and those scored well below the best one.
 */
interface Tally {
  lossSum: number;
  weightSum: number;
  lost: number;
  caught: number;
  safe: number;
  alarms: number;
}

/** The tally's means and shares (0 where nothing was counted). */
function scoresOf(t: Tally): HeldOutScores {
  return {
    loss: t.lossSum / Math.max(1, t.weightSum),
    recall: t.caught / Math.max(1, t.lost),
    falseAlarm: t.alarms / Math.max(1, t.safe),
  };
}

/** The held-out units `val`, scored a minibatch at a time under the run's objective. */
export function heldOutScores(
  net: TfSafety,
  batch: Minibatch,
  val: readonly number[],
): HeldOutScores {
  const t: Tally = { lossSum: 0, weightSum: 0, lost: 0, caught: 0, safe: 0, alarms: 0 };
  const B = batch.o.batch;
  for (let i = 0; i < val.length; i += B) {
    const rows = batch.fill(val, i, Math.min(B, val.length - i));
    const zs = score(net, batch, rows);
    if (batch.samples.choice) tallyPositions(t, zs, rows, batch, val, i);
    else for (let r = 0; r < rows; r++) tallyMove(t, zs[r]!, batch.y[r]!, batch.wt[r]!);
  }
  return scoresOf(t);
}

/** Network outputs for the first `rows` rows of the batch arrays. */
function score(net: TfSafety, batch: Minibatch, rows: number): Float32Array {
  const z = tf.tidy(() => net.forward(...batch.inputs(rows), rows));
  const zs = z.dataSync() as Float32Array;
  z.dispose();
  return zs;
}

/** Risk objective: a move scored `z` (target y: 1 when it loses; loss weight w). */
function tallyMove(t: Tally, z: number, y: number, w: number): void {
  t.lossSum += riskLossJs(z, y) * w;
  t.weightSum += w;
  if (y === 1) {
    t.lost++;
    if (z > 0) t.caught++;
  } else {
    t.safe++;
    if (z > 0) t.alarms++;
  }
}

/** Choice objective: the positions of a filled batch (held-out units val[i …]), whose rows are consecutive. */
function tallyPositions(
  t: Tally,
  zs: Float32Array,
  rows: number,
  batch: Minibatch,
  val: readonly number[],
  i: number,
): void {
  const { seg, y } = batch;
  for (let a = 0; a < rows; ) {
    let b = a;
    while (b < rows && seg[b] === seg[a]) b++;
    tallyPosition(t, zs, y, a, b, batch.samples.targetEntropy[val[i + seg[a]!]!]!);
    a = b;
  }
}

/**
 * The position in rows a … b − 1 (`entropy`: its target's, the loss's floor). A winnable move is
 * a false alarm when scored below half the best move's softmax weight.
 */
function tallyPosition(
  t: Tally,
  zs: Float32Array,
  y: Float32Array,
  a: number,
  b: number,
  entropy: number,
): void {
  t.lossSum += choiceLossJs(zs, y, a, b) - entropy;
  t.weightSum++;
  if (!y.subarray(a, b).some((v) => v === 0)) return;
  t.lost++;
  let best = a;
  for (let r = a; r < b; r++) if (zs[r]! > zs[best]!) best = r;
  if (y[best]! > 0) t.caught++;
  for (let r = a; r < b; r++)
    if (y[r]! > 0) {
      t.safe++;
      if (squash(zs[r]!) < squash(zs[best]!) - Math.LN2) t.alarms++;
    }
}
