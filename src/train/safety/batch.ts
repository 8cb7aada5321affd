/**
 * Minibatches of a safety run, encoded on the fly from the packed positions of the dataset: each
 * row is one candidate move (the move's action row and the position after it, as the player
 * encodes it), with its target. Under the risk objective a unit is one move; under the choice
 * objective it is a position, whose labelled moves fill consecutive rows.
 */
import { ActionCodec } from "../../env/actions.js";
import type { Rules } from "../../engine/rules.js";
import { ActionFeatures, ROW } from "../../players/scorer/features.js";
import { COLUMN_WIDTH, encodeCandidate, FLIPPER_WIDTH } from "../../players/safety/encode.js";
import {
  cardsAt,
  cardWidth,
  featuresOf,
  usesStructure,
  type SafetyConfig,
  type SafetyFeatures,
} from "../../players/safety/model.js";
import { tf } from "../backend.js";
import type { SafetyData } from "./dataset.js";
import type { SafetyTrainOptions } from "./options.js";
import { PACK_STRIDE, Unpacker, unpackState } from "./pack.js";
import type { SafetySamples } from "./samples.js";
import { SuitRenamer, suitOrderFor } from "./suits.js";

/** What the encoder reads: positions and, per move, its position, the move and the position after it (a dataset, or PPO's rollout). */
export type PackedMoves = Pick<SafetyData, "before" | "decision" | "move" | "after">;

/** Encodes move k of the data (the move and the position after it) into row r of the batch arrays. */
export class BatchEncoder {
  readonly #unpacker: Unpacker;
  readonly #features = new ActionFeatures();
  readonly #one = new Uint8Array([1]);
  readonly #oneMove = new Int32Array(1);
  readonly #row = new Float32Array(ROW);
  readonly #afterU: Unpacker;

  /** Floats per globals row: GLOBAL_WIDTH, plus the groups of the network's feature set. */
  readonly globalWidth: number;
  readonly #inputs: SafetyFeatures;

  constructor(
    readonly rules: Rules,
    readonly data: PackedMoves,
    config: SafetyConfig,
  ) {
    this.globalWidth = config.globalWidth;
    this.#inputs = featuresOf(config) ?? "basic";
    this.#unpacker = new Unpacker(rules);
    this.#afterU = new Unpacker(rules);
  }

  encode(
    k: number,
    r: number,
    cols: Float32Array,
    flips: Float32Array,
    globals: Float32Array,
  ): void {
    const d = this.data.decision[k]!;
    const before = this.#unpacker.state(this.data.before[d * PACK_STRIDE]!);
    unpackState(this.data.before, d * PACK_STRIDE, before);
    this.#oneMove[0] = this.data.move[k]!;
    this.#features.fill(before, this.#one, this.#oneMove, 1, this.#row, 0);
    const after = this.#afterU.state(this.data.after[k * PACK_STRIDE]!);
    unpackState(this.data.after, k * PACK_STRIDE, after);
    encodeCandidate(
      after,
      this.#row,
      0,
      cols,
      r * after.nColumns * COLUMN_WIDTH,
      flips,
      r * FLIPPER_WIDTH,
      globals,
      r * this.globalWidth,
      this.#inputs,
    );
  }
}

/**
 * The arrays of a minibatch and the encoding of units into them: sized once for the largest
 * minibatch (B units, each up to maxMoves rows under the choice objective), reused every step.
 */
export class Minibatch {
  /** The encoded inputs. */
  readonly cols: Float32Array;
  readonly flips: Float32Array;
  readonly globals: Float32Array;
  /** Per row: the target (risk: 1 for a lost move; choice: the move's share of its position's softmax target). */
  readonly y: Float32Array;
  /** Per row: the loss weight (risk: a lost move weighs lostWeight, a safe one 1). */
  readonly wt: Float32Array;
  /** Per row: its unit's place in the minibatch. */
  readonly seg: Int32Array;
  /** Fatal-move term: per row, 1 when the move keeps the deal winnable; per unit, 1 when its position holds a losing move. */
  readonly safeRow: Float32Array;
  readonly critPos: Float32Array;
  /** Choice objective: the one-hot of each row's position in the batch, rows × B. */
  readonly member: Float32Array;
  /**
   * The choice loss cannot fall below the entropy of its target, per position; the loss logged is
   * what lies above this floor (the mean over the units of the last fill), so its curve shows what
   * is learnt.
   */
  floor = 0;
  /** Floats per globals row. */
  readonly globalWidth: number;
  readonly #enc: BatchEncoder;
  readonly #renamer = new SuitRenamer();
  readonly #columns: number;
  readonly #structure: boolean;
  readonly #cardsAt: number;
  readonly #rowWidth: number;

  constructor(
    rules: Rules,
    readonly samples: SafetySamples,
    config: SafetyConfig,
    readonly o: SafetyTrainOptions,
  ) {
    this.#enc = new BatchEncoder(rules, samples.data, config);
    this.globalWidth = this.#enc.globalWidth;
    const C = (this.#columns = new ActionCodec(rules).columns);
    const B = o.batch;
    const R = samples.choice ? B * samples.maxMoves : B;
    this.cols = new Float32Array(R * C * COLUMN_WIDTH);
    this.flips = new Float32Array(R * FLIPPER_WIDTH);
    this.globals = new Float32Array(R * this.globalWidth);
    this.y = new Float32Array(R);
    this.wt = new Float32Array(R);
    this.seg = new Int32Array(R);
    this.safeRow = new Float32Array(R);
    this.critPos = new Float32Array(samples.choice ? B : 0);
    this.member = new Float32Array(samples.choice ? R * B : 0);
    this.#structure = usesStructure(config);
    this.#cardsAt = config.cardHidden?.length ? cardsAt(config) : -1;
    this.#rowWidth = cardWidth(config);
  }

  /**
   * Encodes units idx[from … from + n) into the batch arrays; returns the rows written. `step` ≥ 0
   * (training only) renames the suits, by a hash of the seed, the step and the unit's place.
   */
  fill(idx: ArrayLike<number>, from: number, n: number, step = -1): number {
    let r = 0;
    this.floor = 0;
    for (let j = 0; j < n; j++) {
      const u = idx[from + j]!;
      r = this.samples.choice ? this.#putPosition(u, j, r, n, step) : this.#putMove(u, j, r, step);
    }
    return r;
  }

  /** The inputs of the first `rows` rows as tensors, for the network's forward pass. */
  inputs(rows: number): [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D] {
    const C = this.#columns;
    const GW = this.globalWidth;
    return [
      tf.tensor2d(this.cols.subarray(0, rows * C * COLUMN_WIDTH), [rows * C, COLUMN_WIDTH]),
      tf.tensor2d(this.flips.subarray(0, rows * FLIPPER_WIDTH), [rows, FLIPPER_WIDTH]),
      tf.tensor2d(this.globals.subarray(0, rows * GW), [rows, GW]),
    ];
  }

  /** Choice objective: which position of the batch each of the first `rows` rows belongs to, as a rows × B one-hot. */
  membership(rows: number): tf.Tensor2D {
    const B = this.o.batch;
    this.member.fill(0, 0, rows * B);
    for (let r = 0; r < rows; r++) this.member[r * B + this.seg[r]!] = 1;
    return tf.tensor2d(this.member.subarray(0, rows * B), [rows, B]);
  }

  /** Risk objective: move k into row r; a missed lost move weighs lostWeight times a false alarm. */
  #putMove(k: number, j: number, r: number, step: number): number {
    this.#encode(k, r, j, step);
    const lost = this.samples.data.label[k] === 0;
    this.y[r] = lost ? 1 : 0;
    this.wt[r] = lost ? this.o.lostWeight : 1;
    return r + 1;
  }

  /**
   * Choice objective: position u's labelled moves into rows r…; returns the next free row. y holds
   * the softmax target: the winnable moves share it (evenly, or by lookahead's values), lost moves
   * get none.
   */
  #putPosition(u: number, j: number, r: number, n: number, step: number): number {
    const { data, first, targetEntropy, targetSum, critical } = this.samples;
    this.floor += targetEntropy[u]! / n;
    this.critPos[j] = critical[u]!;
    const best = this.samples.bestValueOf(u);
    for (let k = first[u]!; k < first[u + 1]!; k++) {
      const label = data.label[k];
      if (label !== 0 && label !== 1) continue;
      this.#encode(k, r, j, step);
      this.seg[r] = j;
      this.y[r] = label === 1 ? this.samples.targetOf(k, targetSum[u]!, best) : 0;
      this.safeRow[r] = label === 1 ? 1 : 0;
      this.wt[r] = 1;
      r++;
    }
    return r;
  }

  /** Move k into row r, its suits renamed when training with suitShuffle (the rules treat all suits alike). */
  #encode(k: number, r: number, j: number, step: number): void {
    this.#enc.encode(k, r, this.cols, this.flips, this.globals);
    if (step < 0 || !this.o.suitShuffle) return;
    const C = this.#columns;
    this.#renamer.rename(
      suitOrderFor(this.o.seed, step, j),
      this.cols,
      r * C * COLUMN_WIDTH,
      C,
      this.flips,
      r * FLIPPER_WIDTH,
      this.globals,
      r * this.globalWidth,
      this.#structure,
      this.#cardsAt,
      this.#rowWidth,
    );
  }
}
