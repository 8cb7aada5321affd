/**
 * The move-safety network over a batch of candidate moves (any number of positions of any number
 * of games): one call scores every row of SafetyInputs. The arithmetic of each row is JsSafety's
 * (model.ts), operation for operation in float32, so a row's logit never depends on the batch it
 * came in, nor on the order of the rows.
 *
 * Two things make it cheaper than JsSafety one row at a time:
 * - The column network and the card network see one column or one card at a time, and a move
 *   changes few of them: each such embedding is kept in a table keyed by its input row and
 *   reused when the same row comes again (checked float by float, so a hit is the very number a
 *   fresh computation would give).
 * - The head runs as one matrix product over the whole batch, each weight row read once for all
 *   candidates while it sits in the cache.
 * Attention networks (a design the shipped network does not use) fall back to JsSafety per row.
 */
import { COLUMN_WIDTH, FLIPPER_WIDTH } from "./encode.js";
import {
  cardLayers,
  cardsAt,
  cardWidth,
  denseLayers,
  JsSafety,
  layerShapes,
  type SafetyWeights,
} from "./model.js";

/** Candidate rows in float32, with int32 views of the same bytes (for hashing). */
export class SafetyInputs {
  cols: Float32Array = new Float32Array(0);
  flips: Float32Array = new Float32Array(0);
  globals: Float32Array = new Float32Array(0);
  colBits: Int32Array = new Int32Array(0);
  globalBits: Int32Array = new Int32Array(0);
  capacity = 0;

  constructor(
    readonly columns: number,
    readonly globalWidth: number,
  ) {}

  /** Room for n rows, keeping the rows already written. */
  ensure(n: number): void {
    if (n <= this.capacity) return;
    const cap = Math.max(n, 2 * this.capacity, 16);
    const grow = (a: Float32Array, width: number): Float32Array => {
      const b = new Float32Array(cap * width);
      b.set(a);
      return b;
    };
    this.cols = grow(this.cols, this.columns * COLUMN_WIDTH);
    this.flips = grow(this.flips, FLIPPER_WIDTH);
    this.globals = grow(this.globals, this.globalWidth);
    this.colBits = new Int32Array(this.cols.buffer);
    this.globalBits = new Int32Array(this.globals.buffer);
    this.capacity = cap;
  }
}

/** The nonzero inputs' indices of the row being multiplied (scratch shared by every call). */
let nonzero = new Int32Array(1024);

/**
 * out[outAt …+o] = x[xAt …+n] · W + b in JsSafety's order: for each output, the bias, then each
 * nonzero input's product added in input order and rounded to float32 after every addition.
 * Eight outputs at a time are kept in registers (Math.fround is that rounding), which gives the
 * very same numbers as adding into a Float32Array, at about half the cost.
 */
function dense(
  W: Float32Array,
  b: Float32Array,
  x: Float32Array,
  xAt: number,
  n: number,
  out: Float32Array,
  outAt: number,
  relu: boolean,
): void {
  const o = b.length;
  if (nonzero.length < n) nonzero = new Int32Array(n);
  const nz = nonzero;
  let m = 0;
  for (let i = 0; i < n; i++) if (x[xAt + i] !== 0) nz[m++] = i;
  const fr = Math.fround;
  let j = 0;
  for (; j + 8 <= o; j += 8) {
    let a0 = b[j]!,
      a1 = b[j + 1]!,
      a2 = b[j + 2]!,
      a3 = b[j + 3]!,
      a4 = b[j + 4]!,
      a5 = b[j + 5]!,
      a6 = b[j + 6]!,
      a7 = b[j + 7]!;
    for (let k = 0; k < m; k++) {
      const i = nz[k]!;
      const v = x[xAt + i]!;
      const w = i * o + j;
      a0 = fr(a0 + v * W[w]!);
      a1 = fr(a1 + v * W[w + 1]!);
      a2 = fr(a2 + v * W[w + 2]!);
      a3 = fr(a3 + v * W[w + 3]!);
      a4 = fr(a4 + v * W[w + 4]!);
      a5 = fr(a5 + v * W[w + 5]!);
      a6 = fr(a6 + v * W[w + 6]!);
      a7 = fr(a7 + v * W[w + 7]!);
    }
    const t = outAt + j;
    out[t] = a0;
    out[t + 1] = a1;
    out[t + 2] = a2;
    out[t + 3] = a3;
    out[t + 4] = a4;
    out[t + 5] = a5;
    out[t + 6] = a6;
    out[t + 7] = a7;
  }
  for (; j < o; j++) {
    let a = b[j]!;
    for (let k = 0; k < m; k++) {
      const i = nz[k]!;
      a = fr(a + x[xAt + i]! * W[i * o + j]!);
    }
    out[outAt + j] = a;
  }
  if (relu) for (let t = outAt; t < outAt + o; t++) if (out[t]! < 0) out[t] = 0;
}

/**
 * The outputs of a small ReLU network shared by many rows (the column or the card network), kept
 * per input row in a direct-mapped table: a slot holds one input row and its output; a lookup
 * hashes the row, and a slot whose row differs is recomputed and overwritten.
 */
class RowMemo {
  readonly #keys: Float32Array;
  readonly #outs: Float32Array;
  readonly #hash: Int32Array;
  readonly #used: Uint8Array;
  readonly #mask: number;
  readonly #tmp: Float32Array[];
  readonly out: number;
  hits = 0;
  misses = 0;

  constructor(
    readonly w: SafetyWeights,
    readonly first: number,
    readonly depth: number,
    readonly width: number,
    slots: number,
  ) {
    this.out = w.b[first + depth - 1]!.length;
    this.#keys = new Float32Array(slots * width);
    this.#outs = new Float32Array(slots * this.out);
    this.#hash = new Int32Array(slots);
    this.#used = new Uint8Array(slots);
    this.#mask = slots - 1;
    this.#tmp = Array.from({ length: depth }, (_, l) => new Float32Array(w.b[first + l]!.length));
  }

  /** Where in `outs` the output of row x[at …+width) lies (computed now if not kept). */
  find(x: Float32Array, bits: Int32Array, at: number): number {
    const n = this.width;
    let h = 0x811c9dc5;
    for (let i = 0; i < n; i++) {
      const v = bits[at + i]!;
      if (v !== 0) h = Math.imul(h ^ Math.imul(v ^ i, 0x9e3779b1), 0x01000193);
    }
    const slot = h & this.#mask;
    const keyAt = slot * n;
    const keys = this.#keys;
    if (this.#used[slot] === 1 && this.#hash[slot] === h) {
      let same = true;
      for (let i = 0; i < n; i++)
        if (keys[keyAt + i] !== x[at + i]) {
          same = false;
          break;
        }
      if (same) {
        this.hits++;
        return slot * this.out;
      }
    }
    this.misses++;
    const { W, b } = this.w;
    let src = x;
    let srcAt = at;
    let srcN = n;
    for (let l = 0; l < this.depth; l++) {
      const dst = this.#tmp[l]!;
      dense(W[this.first + l]!, b[this.first + l]!, src, srcAt, srcN, dst, 0, true);
      src = dst;
      srcAt = 0;
      srcN = dst.length;
    }
    for (let i = 0; i < n; i++) keys[keyAt + i] = x[at + i]!;
    this.#outs.set(src, slot * this.out);
    this.#hash[slot] = h;
    this.#used[slot] = 1;
    return slot * this.out;
  }

  get outs(): Float32Array {
    return this.#outs;
  }
}

/** Table sizes (powers of two): a few thousand positions' columns and cards. */
const COLUMN_SLOTS = 1 << 13;
const CARD_SLOTS = 1 << 14;

export class SafetyBatch {
  /** logit[r] for row r after forward(). */
  logit = new Float32Array(0);
  readonly #cols: RowMemo;
  readonly #cards: RowMemo | undefined;
  readonly #fallback: JsSafety | undefined;
  readonly #width: number;
  #pooled = new Float32Array(0);
  #hidden: Float32Array[] = [];

  constructor(readonly w: SafetyWeights) {
    const c = w.config;
    const shapes = layerShapes(c);
    const nCol = c.columnHidden.length;
    this.#width = shapes[nCol]![0];
    this.#cols = new RowMemo(w, 0, nCol, c.columnWidth, COLUMN_SLOTS);
    const ch = c.cardHidden ?? [];
    this.#cards = ch.length
      ? new RowMemo(w, cardLayers(c), ch.length, cardWidth(c), CARD_SLOTS)
      : undefined;
    this.#fallback = c.attentionHeads ? new JsSafety(w) : undefined;
  }

  /** Share of column and card embeddings found in the tables (for benchmarks). */
  hitRate(): number {
    const h = this.#cols.hits + (this.#cards?.hits ?? 0);
    const m = this.#cols.misses + (this.#cards?.misses ?? 0);
    return h / Math.max(1, h + m);
  }

  /** Scores rows 0 … n−1 of `inputs` into logit[0 … n−1]. */
  forward(inputs: SafetyInputs, n: number): Float32Array {
    if (this.logit.length < n) this.logit = new Float32Array(Math.max(n, 2 * this.logit.length));
    const c = this.w.config;
    const G = c.globalWidth;
    const CW = c.columnWidth;
    const FW = c.flipperWidth;
    if (this.#fallback) {
      for (let r = 0; r < n; r++)
        this.logit[r] = this.#fallback.logit(
          inputs.cols,
          r * c.columns * CW,
          inputs.flips,
          r * FW,
          inputs.globals,
          r * G,
        );
      return this.logit;
    }
    const P = this.#width;
    if (this.#pooled.length < n * P) {
      this.#pooled = new Float32Array(Math.max(n, 64) * P);
      this.#hidden = this.w.b.map((b) => new Float32Array(Math.max(n, 64) * b.length));
    }
    const p = this.#pooled;
    const cols = this.#cols;
    const H = cols.out;
    const ch = c.cardHidden ?? [];
    const GC = ch.length ? cardsAt(c) : G;
    const cw = ch.length ? cardWidth(c) : 0;
    for (let r = 0; r < n; r++) {
      const at = r * P;
      p.fill(0, at, at + H);
      p.fill(-Infinity, at + H, at + 2 * H);
      const colOuts = cols.outs;
      for (let k = 0; k < c.columns; k++) {
        const e = cols.find(inputs.cols, inputs.colBits, (r * c.columns + k) * CW);
        for (let j = 0; j < H; j++) {
          const x = colOuts[e + j]!;
          p[at + j] = p[at + j]! + x / c.columns;
          if (x > p[at + H + j]!) p[at + H + j] = x;
        }
      }
      // Copied by hand: a subarray per row would be garbage to collect.
      const flips = inputs.flips;
      const globals = inputs.globals;
      for (let i = 0; i < FW; i++) p[at + 2 * H + i] = flips[r * FW + i]!;
      for (let i = 0; i < GC; i++) p[at + 2 * H + FW + i] = globals[r * G + i]!;
      const cards = this.#cards;
      if (cards) {
        const ca = at + 2 * H + FW + GC;
        const Hc = cards.out;
        const outs = cards.outs;
        p.fill(0, ca, ca + Hc);
        p.fill(-Infinity, ca + Hc, ca + 2 * Hc);
        for (let k = 0; k < 52; k++) {
          const e = cards.find(inputs.globals, inputs.globalBits, r * G + GC + k * cw);
          for (let j = 0; j < Hc; j++) {
            const y = outs[e + j]!;
            p[ca + j] = p[ca + j]! + y / 52;
            if (y > p[ca + Hc + j]!) p[ca + Hc + j] = y;
          }
        }
      }
    }
    // The head: one matrix product per layer over every row.
    const nCol = c.columnHidden.length;
    const L = denseLayers(c);
    let x: Float32Array = p;
    let width = P;
    for (let l = nCol; l < L; l++) {
      const out = this.#hidden[l]!;
      const W = this.w.W[l]!;
      const b = this.w.b[l]!;
      const o = b.length;
      for (let r = 0; r < n; r++) dense(W, b, x, r * width, width, out, r * o, l < L - 1);
      x = out;
      width = o;
    }
    for (let r = 0; r < n; r++) this.logit[r] = x[r]!;
    return this.logit;
  }
}
