/**
 * The move-safety network over a batch of candidate moves (any number of positions of any number
 * of games): one call scores every row of SafetyInputs. The arithmetic of each row is JsSafety's
 * (model.ts), operation for operation in float32, so a row's logit never depends on the batch it
 * came in, nor on the order of the rows.
 *
 * Two things make it cheaper than JsSafety:
 * - The column network and the card network see one column or one card at a time, and a move
 *   changes few of them: each such embedding is kept in a table keyed by its input row and
 *   reused when the same row comes again (checked float by float, so a hit is the very number a
 *   fresh computation would give).
 * - The dense layers run in WebAssembly SIMD where it loads (dense.ts), in the same order.
 * Attention networks (a design the shipped network does not use) fall back to JsSafety per row.
 */
import { type DenseChains, denseChains, type DenseRows, denseRows } from "./dense.js";
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

  /**
   * Writes rows straight into a network's own input rows (DenseRows: WebAssembly memory), so that
   * scoring them copies nothing while they fit; more rows move to arrays of their own (ensure).
   */
  writeInto(rows: DenseRows): void {
    if (this.capacity > 0) return;
    this.cols = rows.cols;
    this.flips = rows.flips;
    this.globals = rows.globals;
    this.colBits = new Int32Array(this.cols.buffer, this.cols.byteOffset, this.cols.length);
    this.globalBits = new Int32Array(
      this.globals.buffer,
      this.globals.byteOffset,
      this.globals.length,
    );
    this.capacity = rows.capacity;
  }

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
  readonly out: number;
  hits = 0;
  misses = 0;

  constructor(
    readonly w: SafetyWeights,
    readonly chains: DenseChains,
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
    const input = this.chains.x;
    for (let i = 0; i < n; i++) input[i] = keys[keyAt + i] = x[at + i]!;
    this.#outs.set(this.chains.run(this.first, this.depth, true), slot * this.out);
    this.#hash[slot] = h;
    this.#used[slot] = 1;
    return slot * this.out;
  }

  get outs(): Float32Array {
    return this.#outs;
  }
}

/**
 * Table sizes (powers of two): a few positions' columns and cards, the rows one game's next
 * position mostly repeats. Larger tables lose more to cache misses than they save in recomputed
 * rows: a column row is 900 bytes, and 256 of them (a few moves' worth: a move changes one or
 * two columns) keep the column keys within the core's cache beside the card rows.
 */
const COLUMN_SLOTS = 1 << 8;
const CARD_SLOTS = 1 << 11;

export class SafetyBatch {
  /** logit[r] for row r after forward(). */
  logit = new Float32Array(0);
  readonly #cols: RowMemo;
  readonly #cards: RowMemo | undefined;
  readonly #fallback: JsSafety | undefined;
  readonly #chains: DenseChains;
  /** The whole candidate in WebAssembly, where it runs (the JavaScript path below otherwise). */
  readonly #rows: DenseRows | undefined;
  /** One row's head input: the pooled columns, flippers, globals, pooled cards. */
  readonly #pooled: Float32Array;

  /** kernel: the dense layers' implementation (dense.ts; "js" for tests and comparisons). */
  constructor(
    readonly w: SafetyWeights,
    kernel: "wasm" | "js" = "wasm",
  ) {
    const c = w.config;
    const shapes = layerShapes(c);
    const nCol = c.columnHidden.length;
    this.#pooled = new Float32Array(shapes[nCol]![0]);
    const ch = c.cardHidden ?? [];
    this.#chains = denseChains(w, new Set([0, nCol, cardLayers(c)]), kernel);
    this.#cols = new RowMemo(w, this.#chains, 0, nCol, c.columnWidth, COLUMN_SLOTS);
    this.#cards = ch.length
      ? new RowMemo(w, this.#chains, cardLayers(c), ch.length, cardWidth(c), CARD_SLOTS)
      : undefined;
    this.#fallback = c.attentionHeads ? new JsSafety(w) : undefined;
    this.#rows = c.attentionHeads
      ? undefined
      : denseRows(
          w,
          {
            columns: c.columns,
            columnWidth: c.columnWidth,
            columnDepth: nCol,
            columnSlots: COLUMN_SLOTS,
            flipperWidth: c.flipperWidth,
            globalWidth: c.globalWidth,
            globalsBeforeCards: ch.length ? cardsAt(c) : c.globalWidth,
            ...(ch.length
              ? {
                  cards: {
                    first: cardLayers(c),
                    depth: ch.length,
                    width: cardWidth(c),
                    slots: CARD_SLOTS,
                  },
                }
              : {}),
            headFirst: nCol,
            headDepth: denseLayers(c) - nCol,
          },
          kernel,
        );
  }

  /** The rows the WebAssembly path reads its inputs from (SafetyInputs.writeInto), if it runs. */
  get rows(): DenseRows | undefined {
    return this.#rows;
  }

  /** Share of column and card embeddings found in the tables (for benchmarks). */
  hitRate(): number {
    if (this.#rows) return this.#rows.hits() / Math.max(1, this.#rows.hits() + this.#rows.misses());
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
    const rows = this.#rows;
    if (rows) {
      const C = c.columns * CW;
      // Rows written in place (SafetyInputs.writeInto) are scored where they lie.
      if (inputs.cols === rows.cols && n <= rows.capacity) {
        const z = rows.score(n);
        for (let i = 0; i < n; i++) this.logit[i] = z[i]!;
        return this.logit;
      }
      for (let r = 0; r < n; r += rows.capacity) {
        const k = Math.min(rows.capacity, n - r);
        rows.cols.set(inputs.cols.subarray(r * C, (r + k) * C));
        rows.flips.set(inputs.flips.subarray(r * FW, (r + k) * FW));
        rows.globals.set(inputs.globals.subarray(r * G, (r + k) * G));
        const z = rows.score(k);
        for (let i = 0; i < k; i++) this.logit[r + i] = z[i]!;
      }
      return this.logit;
    }
    const p = this.#pooled;
    const cols = this.#cols;
    const H = cols.out;
    const ch = c.cardHidden ?? [];
    const GC = ch.length ? cardsAt(c) : G;
    const cw = ch.length ? cardWidth(c) : 0;
    const nCol = c.columnHidden.length;
    const heads = denseLayers(c) - nCol;
    const head = this.#chains.x;
    for (let r = 0; r < n; r++) {
      p.fill(0, 0, H);
      p.fill(-Infinity, H, 2 * H);
      const colOuts = cols.outs;
      for (let k = 0; k < c.columns; k++) {
        const e = cols.find(inputs.cols, inputs.colBits, (r * c.columns + k) * CW);
        for (let j = 0; j < H; j++) {
          const x = colOuts[e + j]!;
          p[j] = p[j]! + x / c.columns;
          if (x > p[H + j]!) p[H + j] = x;
        }
      }
      const flips = inputs.flips;
      const globals = inputs.globals;
      for (let i = 0; i < FW; i++) p[2 * H + i] = flips[r * FW + i]!;
      for (let i = 0; i < GC; i++) p[2 * H + FW + i] = globals[r * G + i]!;
      const cards = this.#cards;
      if (cards) {
        const ca = 2 * H + FW + GC;
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
      // The head, on this row (the tables above write the chains' input too, so it is copied last).
      head.set(p);
      this.logit[r] = this.#chains.run(nCol, heads, false)[0]!;
    }
    return this.logit;
  }
}
