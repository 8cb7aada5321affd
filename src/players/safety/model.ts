/**
 * The move-safety network: a shared per-column MLP whose outputs are pooled by mean and max (so
 * column order does not matter), joined with the flipper card set and the globals, then an MLP
 * to one logit: how likely the move loses a winnable deal. Weights are plain arrays; training
 * runs them as tf variables (train.ts), play runs the same numbers in plain JavaScript (tfjs's
 * per-call overhead dwarfs this arithmetic at a dozen candidates per move).
 */
import { existsSync } from "node:fs";
import {
  MAX_CHECKPOINT_BYTES,
  MAX_RUN_FILE_BYTES,
  readBytesFile,
  readTextFile,
} from "../../util/read.js";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import { CheckpointError } from "../checkpoint.js";
import { sha256, writeAtomic } from "../../util/files.js";
import { Rng } from "../../util/rng.js";
import { COLUMN_WIDTH, FLIPPER_WIDTH, GLOBAL_WIDTH } from "./encode.js";
import { cardWidthOf, hasCardRows } from "./cards.js";
import { FLIPPER_COST_WIDTH } from "./flippers.js";
import { STRUCTURE_WIDTH } from "./structure.js";

export interface SafetyConfig {
  readonly columns: number;
  readonly columnHidden: readonly number[];
  readonly headHidden: readonly number[];
  readonly columnWidth: number;
  readonly flipperWidth: number;
  readonly globalWidth: number;
  /**
   * Heads of one self-attention block over the column embeddings and a flipper token (absent or 0:
   * none, the first design). It lets each column see what the others hold: which buried card
   * waits for which.
   */
  readonly attentionHeads?: number;
  /** Layer sizes of the network shared by the 52 card rows (cards.ts), whose outputs are pooled by mean and max; only with the "cards" features. */
  readonly cardHidden?: readonly number[];
  /**
   * What the logit means. Absent: the first design, the log-odds that the move loses a winnable
   * deal. "choice": a score compared only among the moves of one position, trained so that its
   * softmax puts the weight on the moves that keep the deal winnable.
   */
  readonly objective?: "choice";
}

/** "risk": per-move loss probability (binary cross-entropy); "choice": per-position softmax over the moves. */
export type SafetyObjective = "risk" | "choice";
/** The bounded score of a choice network that its loss and the agent compare: 20·tanh(z/20). */
export const squash = (z: number): number => 20 * Math.tanh(z / 20);

/** Layers in order: column layers, then head layers, then the output (1 unit). */
export interface SafetyWeights {
  readonly config: SafetyConfig;
  /** W[l] is [in, out] row-major; b[l] is [out]. */
  readonly W: Float32Array[];
  readonly b: Float32Array[];
}

export function layerShapes(c: SafetyConfig): [number, number][] {
  const shapes: [number, number][] = [];
  let width = c.columnWidth;
  for (const h of c.columnHidden) {
    shapes.push([width, h]);
    width = h;
  }
  const ch = c.cardHidden ?? [];
  width =
    2 * width +
    c.flipperWidth +
    c.globalWidth +
    (ch.length ? 2 * ch[ch.length - 1]! - 52 * cardWidth(c) : 0);
  for (const h of [...c.headHidden, 1]) {
    shapes.push([width, h]);
    width = h;
  }
  // Attention weights come last, so the dense layers keep their indices: flipper token, Q, K, V, output.
  if (c.attentionHeads) {
    const H = c.columnHidden[c.columnHidden.length - 1]!;
    shapes.push([c.flipperWidth, H], [H, H], [H, H], [H, H], [H, H]);
  }
  // The card network's layers come after everything else, for the same reason.
  width = cardWidth(c);
  for (const h of ch) {
    shapes.push([width, h]);
    width = h;
  }
  return shapes;
}

/** Number of dense layers (column, head, output) before the attention weights. */
export const denseLayers = (c: SafetyConfig): number =>
  c.columnHidden.length + c.headHidden.length + 1;
/** Index of the card network's first layer. */
export const cardLayers = (c: SafetyConfig): number => denseLayers(c) + (c.attentionHeads ? 5 : 0);

/**
 * The inputs after the globals: none ("basic", the first design), the structural features
 * (structure.ts), or those and what each parked card costs to release (flippers.ts). A
 * checkpoint says which by the width of its globals row.
 */
export type SafetyFeatures = "basic" | "structure" | "flippers" | "cards" | "links";
const SAFETY_FEATURES: readonly SafetyFeatures[] = [
  "structure",
  "basic",
  "flippers",
  "cards",
  "links",
];

/** Floats per globals row for each feature set. */
export const globalWidthOf = (f: SafetyFeatures): number =>
  GLOBAL_WIDTH +
  (f === "basic" ? 0 : STRUCTURE_WIDTH) +
  (f === "flippers" || hasCardRows(f) ? FLIPPER_COST_WIDTH : 0) +
  (hasCardRows(f) ? 52 * cardWidthOf(f === "links") : 0);

/** The feature set a network reads, from its globals width (undefined: an encoding this code does not know). */
export const featuresOf = (c: SafetyConfig): SafetyFeatures | undefined =>
  SAFETY_FEATURES.find((f) => globalWidthOf(f) === c.globalWidth);

/** Floats per card row of a network with card rows. */
export const cardWidth = (c: SafetyConfig): number => cardWidthOf(featuresOf(c) === "links");
/** Where the card block starts in a globals row (it runs to the end). */
export const cardsAt = (c: SafetyConfig): number => c.globalWidth - 52 * cardWidth(c);

export function defaultConfig(
  columns: number,
  columnHidden: readonly number[] = [64, 64],
  headHidden: readonly number[] = [128, 64],
  features: SafetyFeatures = "basic",
  attentionHeads = 0,
  objective: SafetyObjective = "risk",
  cardHidden: readonly number[] = [32, 32],
): SafetyConfig {
  const c: SafetyConfig = {
    columns,
    columnHidden,
    headHidden,
    columnWidth: COLUMN_WIDTH,
    flipperWidth: FLIPPER_WIDTH,
    globalWidth: globalWidthOf(features),
    ...(objective === "choice" ? { objective } : {}),
    ...(hasCardRows(features) ? { cardHidden } : {}),
  };
  if (attentionHeads > 0) {
    const H = columnHidden[columnHidden.length - 1]!;
    if (H % attentionHeads !== 0) throw new UsageError(`--attention-heads must divide ${H}`);
    return { ...c, attentionHeads };
  }
  return c;
}

/** The network reads the structural features (structure.ts) after the globals (alone, or with the flipper costs after them). */
export const usesStructure = (c: SafetyConfig): boolean => {
  const f = featuresOf(c);
  return f === "structure" || f === "flippers" || hasCardRows(f);
};

/** Seeded Glorot-uniform weights, zero biases. */
export function initWeights(config: SafetyConfig, seed: number): SafetyWeights {
  const rng = new Rng(`safety-init:${seed}`);
  const W: Float32Array[] = [];
  const b: Float32Array[] = [];
  for (const [i, o] of layerShapes(config)) {
    const lim = Math.sqrt(6 / (i + o));
    W.push(Float32Array.from({ length: i * o }, () => (2 * rng.next() - 1) * lim));
    b.push(new Float32Array(o));
  }
  return { config, W, b };
}

/** Plain-JS forward pass for one candidate: cols (columns × width), flips, globals → logit. */
export class JsSafety {
  readonly #nCol: number;
  readonly #bufs: Float32Array[];
  readonly #pooled: Float32Array;
  /** Column embeddings, then the flipper token (attention only): (columns + 1) × H. */
  readonly #tok: Float32Array;
  readonly #q: Float32Array;
  readonly #k: Float32Array;
  readonly #v: Float32Array;
  readonly #mix: Float32Array;
  readonly #att: Float32Array;

  constructor(readonly w: SafetyWeights) {
    const c = w.config;
    this.#nCol = c.columnHidden.length;
    const shapes = layerShapes(c);
    this.#bufs = shapes.map(([, o]) => new Float32Array(o));
    const H = c.columnHidden[this.#nCol - 1]!;
    this.#pooled = new Float32Array(shapes[this.#nCol]![0]);
    const T = (c.columns + 1) * H;
    this.#tok = new Float32Array(T);
    this.#q = new Float32Array(T);
    this.#k = new Float32Array(T);
    this.#v = new Float32Array(T);
    this.#mix = new Float32Array(T);
    this.#att = new Float32Array(c.columns + 1);
  }

  /** out[r·o …] = x[xAt + r·n …] · W[l] + b[l] for each of `rows` rows of n inputs (o outputs). */
  #rows(
    l: number,
    x: Float32Array,
    xAt: number,
    n: number,
    out: Float32Array,
    rows: number,
    relu: boolean,
  ): Float32Array {
    const W = this.w.W[l]!;
    const b = this.w.b[l]!;
    const o = b.length;
    for (let r = 0; r < rows; r++) {
      const at = r * o;
      out.set(b, at);
      for (let i = 0; i < n; i++) {
        const v = x[xAt + r * n + i]!;
        if (v === 0) continue;
        const row = i * o;
        // float32 arithmetic: the product rounded, then the sum (dense.ts).
        for (let j = 0; j < o; j++) out[at + j] = out[at + j]! + Math.fround(v * W[row + j]!);
      }
      if (relu) for (let j = at; j < at + o; j++) if (out[j]! < 0) out[j] = 0;
    }
    return out;
  }

  #dense(l: number, x: Float32Array, xAt: number, n: number, relu: boolean): Float32Array {
    return this.#rows(l, x, xAt, n, this.#bufs[l]!, 1, relu);
  }

  /** One self-attention block over the column tokens and the flipper token, with a residual. */
  #attend(flips: Float32Array, flipsAt: number, H: number): void {
    const c = this.w.config;
    const heads = c.attentionHeads!;
    const A = denseLayers(c);
    const T = c.columns + 1;
    this.#tok.set(this.#dense(A, flips, flipsAt, c.flipperWidth, true), c.columns * H);
    this.#rows(A + 1, this.#tok, 0, H, this.#q, T, false);
    this.#rows(A + 2, this.#tok, 0, H, this.#k, T, false);
    this.#rows(A + 3, this.#tok, 0, H, this.#v, T, false);
    const dh = H / heads;
    const scale = 1 / Math.sqrt(dh);
    const q = this.#q,
      k = this.#k,
      v = this.#v,
      mix = this.#mix,
      att = this.#att;
    for (let h = 0; h < heads; h++) {
      const off = h * dh;
      for (let i = 0; i < T; i++) {
        let top = -Infinity;
        for (let j = 0; j < T; j++) {
          let d = 0;
          for (let e = 0; e < dh; e++) d += q[i * H + off + e]! * k[j * H + off + e]!;
          att[j] = d * scale;
          if (att[j]! > top) top = att[j]!;
        }
        let sum = 0;
        for (let j = 0; j < T; j++) sum += att[j] = Math.exp(att[j]! - top);
        for (let e = 0; e < dh; e++) {
          let m = 0;
          for (let j = 0; j < T; j++) m += att[j]! * v[j * H + off + e]!;
          mix[i * H + off + e] = m / sum;
        }
      }
    }
    this.#rows(A + 4, mix, 0, H, q, T, false);
    for (let i = 0; i < T * H; i++) this.#tok[i] = this.#tok[i]! + q[i]!;
  }

  logit(
    cols: Float32Array,
    colsAt: number,
    flips: Float32Array,
    flipsAt: number,
    globals: Float32Array,
    globalsAt: number,
  ): number {
    const c = this.w.config;
    const H = c.columnHidden[this.#nCol - 1]!;
    for (let k = 0; k < c.columns; k++) {
      let x = this.#dense(0, cols, colsAt + k * c.columnWidth, c.columnWidth, true);
      for (let l = 1; l < this.#nCol; l++) x = this.#dense(l, x, 0, x.length, true);
      this.#tok.set(x, k * H);
    }
    if (c.attentionHeads) this.#attend(flips, flipsAt, H);
    const p = this.#pooled;
    p.fill(0, 0, H);
    p.fill(-Infinity, H, 2 * H);
    for (let k = 0; k < c.columns; k++) {
      for (let j = 0; j < H; j++) {
        const x = this.#tok[k * H + j]!;
        p[j] = p[j]! + x / c.columns;
        if (x > p[H + j]!) p[H + j] = x;
      }
    }
    p.set(flips.subarray(flipsAt, flipsAt + c.flipperWidth), 2 * H);
    const ch = c.cardHidden ?? [];
    const G = ch.length ? cardsAt(c) : c.globalWidth;
    const cw = cardWidth(c);
    p.set(globals.subarray(globalsAt, globalsAt + G), 2 * H + c.flipperWidth);
    if (ch.length) {
      // The card rows, each through the shared card network, pooled by mean and max after the globals.
      const at = 2 * H + c.flipperWidth + G;
      const Hc = ch[ch.length - 1]!;
      const first = cardLayers(c);
      p.fill(0, at, at + Hc);
      p.fill(-Infinity, at + Hc, at + 2 * Hc);
      for (let k = 0; k < 52; k++) {
        let y = this.#dense(first, globals, globalsAt + G + k * cw, cw, true);
        for (let l = 1; l < ch.length; l++) y = this.#dense(first + l, y, 0, y.length, true);
        for (let j = 0; j < Hc; j++) {
          p[at + j] = p[at + j]! + y[j]! / 52;
          if (y[j]! > p[at + Hc + j]!) p[at + Hc + j] = y[j]!;
        }
      }
    }
    let x: Float32Array = p;
    const L = denseLayers(c);
    for (let l = this.#nCol; l < L; l++) x = this.#dense(l, x, 0, x.length, l < L - 1);
    return x[0]!;
  }
}

interface ModelFile {
  format: "penguin-safety-net";
  config: SafetyConfig;
  shapes: [number, number][];
  weightsSha256: string;
  /** Anything the trainer wants to keep with the weights (operating point, data, time). */
  meta: Record<string, unknown>;
}

export function saveSafety(dir: string, w: SafetyWeights, meta: Record<string, unknown>): void {
  const parts = w.W.flatMap((W, l) => [W, w.b[l]!]);
  const total = parts.reduce((n, a) => n + a.length, 0);
  const buf = new Float32Array(total);
  let at = 0;
  for (const a of parts) {
    buf.set(a, at);
    at += a.length;
  }
  const bytes = new Uint8Array(buf.buffer);
  writeAtomic(join(dir, "weights.bin"), bytes);
  const file: ModelFile = {
    format: "penguin-safety-net",
    config: w.config,
    shapes: layerShapes(w.config),
    weightsSha256: sha256(bytes),
    meta,
  };
  writeAtomic(join(dir, "model.json"), `${JSON.stringify(file, null, 1)}\n`);
}

/** Loads dir (a checkpoint folder, or a run folder holding checkpoint/); checks the SHA-256. */
export function loadSafety(path: string): {
  weights: SafetyWeights;
  meta: Record<string, unknown>;
} {
  let dir = path;
  if (!existsSync(join(dir, "model.json"))) dir = join(path, "checkpoint");
  if (!existsSync(join(dir, "model.json")))
    throw new CheckpointError(
      `no safety network at ${path} (expected model.json there or in ${path}/checkpoint)`,
    );
  // Bounded and type-checked: a FIFO or device named model.json is refused, not waited on.
  const text = readTextFile(join(dir, "model.json"), {
    maxBytes: MAX_RUN_FILE_BYTES,
    what: "network description",
  });
  let file: ModelFile;
  try {
    file = JSON.parse(text) as ModelFile;
  } catch {
    throw new CheckpointError(`${join(dir, "model.json")} is damaged (not JSON)`);
  }
  if (file.format !== "penguin-safety-net")
    throw new CheckpointError(`${join(dir, "model.json")} is not a safety network`);
  const want = defaultConfig(file.config.columns);
  if (
    file.config.columnWidth !== want.columnWidth ||
    file.config.flipperWidth !== want.flipperWidth ||
    featuresOf(file.config) === undefined
  )
    throw new CheckpointError(
      `${join(dir, "model.json")} uses another position encoding (widths ${file.config.columnWidth}/${file.config.flipperWidth}/${file.config.globalWidth}); retrain it`,
    );
  if (hasCardRows(featuresOf(file.config)) !== (file.config.cardHidden?.length ?? 0) > 0)
    throw new CheckpointError(`${join(dir, "model.json")}: cardHidden does not match its inputs`);
  const heads = file.config.attentionHeads ?? 0;
  if (
    !(heads >= 0) ||
    file.config.columnHidden[file.config.columnHidden.length - 1]! % (heads || 1) !== 0
  )
    throw new CheckpointError(`${join(dir, "model.json")}: bad attentionHeads ${heads}`);
  if (file.config.objective !== undefined && file.config.objective !== "choice")
    throw new CheckpointError(
      `${join(dir, "model.json")}: unknown objective ${String(file.config.objective)}`,
    );
  const bytes = readBytesFile(join(dir, "weights.bin"), {
    maxBytes: MAX_CHECKPOINT_BYTES,
    what: "network weights",
  });
  if (sha256(bytes) !== file.weightsSha256)
    throw new CheckpointError(
      `damaged checkpoint ${dir}: weights.bin does not match its recorded SHA-256`,
    );
  const all = new Float32Array(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  );
  const W: Float32Array[] = [];
  const b: Float32Array[] = [];
  let at = 0;
  for (const [i, o] of layerShapes(file.config)) {
    W.push(all.slice(at, at + i * o));
    at += i * o;
    b.push(all.slice(at, at + o));
    at += o;
  }
  if (at !== all.length)
    throw new CheckpointError(
      `damaged checkpoint ${dir}: weights.bin holds ${all.length} floats, the config needs ${at}`,
    );
  return { weights: { config: file.config, W, b }, meta: file.meta };
}
