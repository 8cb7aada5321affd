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

/** Network outputs for the first `rows` rows of the batch arrays. */
function score(net: TfSafety, batch: Minibatch, rows: number): Float32Array {
  const z = tf.tidy(() => net.forward(...batch.inputs(rows), rows));
  const zs = z.dataSync() as Float32Array;
  z.dispose();
  return zs;
}

/** The held-out units `val`, scored a minibatch at a time under the run's objective. */
export function heldOutScores(
  net: TfSafety,
  batch: Minibatch,
  val: readonly number[],
): HeldOutScores {
  return batch.samples.choice ? choiceScores(net, batch, val) : riskScores(net, batch, val);
}

/** Running counts of the risk objective's held-out scores. */
interface RiskTally {
  lossSum: number;
  weightSum: number;
  /** Lost moves, and those scored above even odds. */
  lost: number;
  caught: number;
  /** Winnable moves, and those scored above even odds. */
  safe: number;
  alarms: number;
}

/**
 * Risk objective: the weighted loss; "recall" is the share of lost moves scored above even odds,
 * "false alarms" the share of winnable moves so scored.
 */
function riskScores(net: TfSafety, batch: Minibatch, val: readonly number[]): HeldOutScores {
  const B = batch.o.batch;
  const t: RiskTally = { lossSum: 0, weightSum: 0, lost: 0, caught: 0, safe: 0, alarms: 0 };
  for (let i = 0; i < val.length; i += B) {
    const n = Math.min(B, val.length - i);
    batch.fill(val, i, n);
    const zs = score(net, batch, n);
    for (let r = 0; r < n; r++) tallyMove(t, zs[r]!, batch.y[r]!, batch.wt[r]!);
  }
  return {
    loss: t.lossSum / Math.max(1, t.weightSum),
    recall: t.caught / Math.max(1, t.lost),
    falseAlarm: t.alarms / Math.max(1, t.safe),
  };
}

/** Adds a move scored `z` (target y: 1 when it loses, loss weight w) to the tally. */
function tallyMove(t: RiskTally, z: number, y: number, w: number): void {
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

/** Running counts of the choice objective's held-out scores. */
interface ChoiceTally {
  lossSum: number;
  positions: number;
  /** Positions holding a losing move, and those whose best-scored move keeps the deal winnable. */
  crit: number;
  topSafe: number;
  /** Winnable moves in those positions, and those scored well below the best move. */
  safe: number;
  alarms: number;
}

/**
 * Choice objective: the loss per position (above its floor); "recall" is the share of positions
 * holding a losing move whose best-scored move keeps the deal winnable, "false alarms" the share
 * of their winnable moves scored below half the best move's softmax weight.
 */
function choiceScores(net: TfSafety, batch: Minibatch, val: readonly number[]): HeldOutScores {
  const B = batch.o.batch;
  const t: ChoiceTally = { lossSum: 0, positions: 0, crit: 0, topSafe: 0, safe: 0, alarms: 0 };
  for (let i = 0; i < val.length; i += B) {
    const n = Math.min(B, val.length - i);
    const rows = batch.fill(val, i, n);
    const zs = score(net, batch, rows);
    // Each position's rows are consecutive, with the same seg.
    for (let a = 0; a < rows; ) {
      let b = a;
      while (b < rows && batch.seg[b] === batch.seg[a]) b++;
      const entropy = batch.samples.targetEntropy[val[i + batch.seg[a]!]!]!;
      tallyPosition(t, zs, batch.y, a, b, entropy);
      a = b;
    }
  }
  return {
    loss: t.lossSum / Math.max(1, t.positions),
    recall: t.topSafe / Math.max(1, t.crit),
    falseAlarm: t.alarms / Math.max(1, t.safe),
  };
}

/** Adds the position in rows a … b − 1 to the tally; `entropy`: its target's (the loss's floor). */
function tallyPosition(
  t: ChoiceTally,
  zs: Float32Array,
  y: Float32Array,
  a: number,
  b: number,
  entropy: number,
): void {
  t.lossSum += choiceLossJs(zs, y, a, b) - entropy;
  t.positions++;
  if (!y.subarray(a, b).some((v) => v === 0)) return;
  t.crit++;
  let best = a;
  for (let r = a; r < b; r++) if (zs[r]! > zs[best]!) best = r;
  if (y[best]! > 0) t.topSafe++;
  for (let r = a; r < b; r++)
    if (y[r]! > 0) {
      t.safe++;
      if (squash(zs[r]!) < squash(zs[best]!) - Math.LN2) t.alarms++;
    }
}
