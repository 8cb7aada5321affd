/**
 * The samples of a safety run, drawn from a `penguin dataset`: which labelled moves (objective
 * "risk") or positions (objective "choice") it trains on and which it holds out, and, under the
 * choice objective, each position's target: how its winnable moves share the softmax.
 *
 * Deals whose seed ends in 0 are held out: their samples give the validation loss, recall and
 * false alarms, so the curves are measured on deals the network never trained on. Every position
 * holding a losing move trains; of the others a seeded share (`keepSafe`) does, since safe
 * positions far outnumber the ones that teach what loses.
 */
import type { Rules } from "../../engine/rules.js";
import type { Rng } from "../../util/rng.js";
import { decisionStarts } from "./choice.js";
import type { SafetyData } from "./dataset.js";
import type { SafetyTrainOptions } from "./options.js";
import { lookaheadValues } from "./teacher.js";

/** A held-out deal: its samples measure the loss curves, never train. */
const heldOut = (seed: number): boolean => seed % 10 === 0;

/** Per position: 1 when one of its moves loses a winnable deal. */
function criticalPositions(data: SafetyData): Uint8Array {
  const critical = new Uint8Array(data.deal.length);
  for (let k = 0; k < data.label.length; k++)
    if (data.label[k] === 0) critical[data.decision[k]!] = 1;
  return critical;
}

/** Per position: 1 when it is kept, every critical one and a `keepSafe` share of the others (a draw of `rng` each). */
function keptPositions(critical: Uint8Array, keepSafe: number, rng: Rng): Uint8Array {
  const keep = new Uint8Array(critical.length);
  for (let d = 0; d < critical.length; d++)
    keep[d] = critical[d] === 1 || rng.next() < keepSafe ? 1 : 0;
  return keep;
}

export class SafetySamples {
  /** The objective is "choice": a unit is a position (all its labelled moves), else one move. */
  readonly choice: boolean;
  /** Per position: 1 when one of its moves loses a winnable deal. */
  readonly critical: Uint8Array;
  /** Choice objective: position d's moves are first[d] … first[d + 1] − 1. */
  readonly first: Int32Array;
  /** Choice objective, per position: the softmax target's normaliser, and its entropy (the floor of the loss). */
  readonly targetSum: Float64Array;
  readonly targetEntropy: Float64Array;
  /** Choice target "lookahead": the lookahead agent's value of each winnable move (teacher.ts). */
  readonly look: Float64Array | undefined;
  /** The lookahead target's softness: weights e^((V − V_best)/T). */
  readonly temperature: number;
  /** The training units, in dataset order (each epoch shuffles a copy). */
  readonly train: Int32Array;
  /** The held-out units. */
  readonly val: number[] = [];
  /** Training units with a lost move (risk: lost moves; choice: positions holding one). */
  readonly lostTrain: number;
  /** Choice objective: the most labelled moves of one position (rows per position in a minibatch). */
  readonly maxMoves: number;

  /** `rng`: the run's generator, which draws the safe positions kept. */
  constructor(
    readonly data: SafetyData,
    rules: Rules,
    o: SafetyTrainOptions,
    rng: Rng,
  ) {
    this.choice = o.objective === "choice";
    this.critical = criticalPositions(data);
    const keep = keptPositions(this.critical, o.keepSafe, rng);
    this.first = this.choice ? decisionStarts(data) : new Int32Array(0);
    const positions = this.choice ? data.deal.length : 0;
    this.targetSum = new Float64Array(positions);
    this.targetEntropy = new Float64Array(positions);
    // The teacher values only the positions that train or validate: it is the slow part.
    this.look =
      this.choice && o.choiceTarget === "lookahead"
        ? lookaheadValues(data, this.first, rules, (d) => keep[d] === 1 || heldOut(data.deal[d]!))
        : undefined;
    this.temperature = o.temperature ?? 2;
    const train: number[] = [];
    let lostTrain = 0;
    const put = (unit: number, d: number, lost: boolean): void => {
      if (heldOut(data.deal[d]!)) this.val.push(unit);
      else if (keep[d] === 1) {
        train.push(unit);
        if (lost) lostTrain++;
      }
    };
    if (this.choice) this.maxMoves = this.#positions(put);
    else {
      this.maxMoves = 1;
      this.#moves(put);
    }
    this.train = Int32Array.from(train);
    this.lostTrain = lostTrain;
  }

  /** What one training unit is called in messages. */
  get unit(): string {
    return this.choice ? "positions" : "moves";
  }

  /** Risk objective: hands every labelled move to `put`. */
  #moves(put: (unit: number, d: number, lost: boolean) => void): void {
    const { data } = this;
    for (let k = 0; k < data.label.length; k++) {
      if (data.label[k] !== 0 && data.label[k] !== 1) continue;
      put(k, data.decision[k]!, data.label[k] === 0);
    }
  }

  /**
   * Choice objective: sets each position's target and hands the positions with a winnable move to
   * `put`; returns the most labelled moves of any position.
   */
  #positions(put: (unit: number, d: number, lost: boolean) => void): number {
    const { data, first } = this;
    let maxMoves = 1;
    for (let d = 0; d < data.deal.length; d++) {
      let winnable = 0;
      for (let k = first[d]!; k < first[d + 1]!; k++) if (data.label[k] === 1) winnable++;
      maxMoves = Math.max(maxMoves, first[d + 1]! - first[d]!);
      // A position whose every move loses has no target: the softmax has nothing to point at.
      if (winnable === 0) continue;
      this.#setTarget(d);
      put(d, d, this.critical[d] === 1);
    }
    return maxMoves;
  }

  /** Position d's target normaliser and entropy. */
  #setTarget(d: number): void {
    const { data, first } = this;
    const best = this.bestValueOf(d);
    let z = 0;
    for (let k = first[d]!; k < first[d + 1]!; k++)
      if (data.label[k] === 1) z += this.#weightOf(k, best);
    this.targetSum[d] = z;
    let h = 0;
    for (let k = first[d]!; k < first[d + 1]!; k++)
      if (data.label[k] === 1) {
        const t = this.targetOf(k, z, best);
        if (t > 0) h -= t * Math.log(t);
      }
    this.targetEntropy[d] = h;
  }

  /** A winnable move's unnormalised target; `best`: its position's best lookahead value, so the best move weighs 1. */
  #weightOf(k: number, best: number): number {
    return this.look ? Math.exp((this.look[k]! - best) / this.temperature) : 1;
  }

  /** Move k's share of the target (z: its position's sum of weights). */
  targetOf(k: number, z: number, best: number): number {
    return this.#weightOf(k, best) / z;
  }

  /** Position d's best lookahead value among its winnable moves (0 for the even target). */
  bestValueOf(d: number): number {
    if (!this.look) return 0;
    let v = -Infinity;
    for (let k = this.first[d]!; k < this.first[d + 1]!; k++)
      if (this.data.label[k] === 1) v = Math.max(v, this.look[k]!);
    return v;
  }
}
