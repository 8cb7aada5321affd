/**
 * The dense layers of the move-safety network at play, with one fixed arithmetic: an output is
 * its bias, then each nonzero input's product added in input order, in float32 (the product
 * rounded to float32, then the sum; JsSafety's order, model.ts). A network's choices are
 * compared move against move, and a different summation order would move some logits by an ulp
 * and turn some ties; this order is the one every shipped network's results are played with.
 *
 * Two implementations of that one arithmetic, giving the same bits (Math.fround of a float64
 * product or sum of two float32 numbers is the float32 operation's result):
 * - WebAssembly (dense.wat, assembled by wabt's `wat2wasm`): four outputs per SIMD register, a
 *   float32 multiply and add per input (no fused multiply-add: its single rounding would differ).
 *   Its `rows` runs whole candidates (the column and card tables of batch.ts, their pooling, the
 *   head) in one call.
 * - plain JavaScript (`dense`, and batch.ts's own loop), where WebAssembly SIMD is missing.
 */
import { layerShapes, type SafetyWeights } from "./model.js";

/** The nonzero inputs' indices of the row being multiplied (scratch shared by every call). */
let nonzero = new Int32Array(1024);

/**
 * out[outAt …+o] = x[xAt …+n] · W + b in the fixed order. Eight outputs at a time are kept in
 * registers (Math.fround is the rounding), the same numbers as adding rounded products into a
 * Float32Array.
 */
export function dense(
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
      a0 = fr(a0 + fr(v * W[w]!));
      a1 = fr(a1 + fr(v * W[w + 1]!));
      a2 = fr(a2 + fr(v * W[w + 2]!));
      a3 = fr(a3 + fr(v * W[w + 3]!));
      a4 = fr(a4 + fr(v * W[w + 4]!));
      a5 = fr(a5 + fr(v * W[w + 5]!));
      a6 = fr(a6 + fr(v * W[w + 6]!));
      a7 = fr(a7 + fr(v * W[w + 7]!));
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
      a = fr(a + fr(x[xAt + i]! * W[i * o + j]!));
    }
    out[outAt + j] = a;
  }
  if (relu) for (let t = outAt; t < outAt + o; t++) if (out[t]! < 0) out[t] = 0;
}

/**
 * Chains of a network's layers (the column network, the card network, the head), each run on
 * the input written into `x`.
 */
export interface DenseChains {
  /** The input of a chain (room for the widest layer input). */
  readonly x: Float32Array;
  /**
   * Runs layers first … first+depth−1 on x[0 …), each layer's output the next one's input, ReLU
   * after each (after the last too when reluLast); returns the last output (a view, overwritten
   * by the next call).
   */
  run(first: number, depth: number, reluLast: boolean): Float32Array;
}

/** dense.wat, assembled (its exports: dense; chain, over a table of layers; rows, whole candidates). */
const WASM =
  "AGFzbQEAAAABMwdgCH9/f39/f39/AGAEf39/fwBgAn9/AX9gA39/fwF/YAZ/f39/f38AYAF/AX1gAn9/AAIPAQNlbnYGbWVtb3J5AgABAwgHAAECAwQFBgcYAwVkZW5zZQAABWNoYWluAAEEcm93cwAGCsQUB9EJCAJ/AX0EfwF7AX8BfQJ/CHsgBEECdCESIANBfHEhEwJAA0AgCCATTw0BIAIgCEECdGr9AAQAIQ8gD/0MAAAAAAAAAAAAAAAAAAAAAP1C/VMEQCAAIAggEmxqIQ4gByAJQQN0aiEMIA/9HwAhCiAMIAo4AgAgDCAONgIEIAkgCkMAAAAAXGohCSAOIBJqIQ4gByAJQQN0aiEMIA/9HwEhCiAMIAo4AgAgDCAONgIEIAkgCkMAAAAAXGohCSAOIBJqIQ4gByAJQQN0aiEMIA/9HwIhCiAMIAo4AgAgDCAONgIEIAkgCkMAAAAAXGohCSAOIBJqIQ4gByAJQQN0aiEMIA/9HwMhCiAMIAo4AgAgDCAONgIEIAkgCkMAAAAAXGohCQsgCEEEaiEIDAALCwJAA0AgCCADTw0BIAIgCEECdGoqAgAhCiAHIAlBA3RqIQwgDCAKOAIAIAwgACAIIBJsajYCBCAJIApDAAAAAFxqIQkgCEEBaiEIDAALCyAHIAlBA3RqIQ0gBEFgcSEQAkADQCALIBBPDQEgASALQQJ0aiEMIAz9AAQAIRQgDP0ABBAhFSAM/QAEICEWIAz9AAQwIRcgDP0ABEAhGCAM/QAEUCEZIAz9AARgIRogDP0ABHAhGyAHIQwCQANAIAwgDU8NASAMKgIA/RMhDyAMKAIEIAtBAnRqIQ4gFCAPIA79AAQA/eYB/eQBIRQgFSAPIA79AAQQ/eYB/eQBIRUgFiAPIA79AAQg/eYB/eQBIRYgFyAPIA79AAQw/eYB/eQBIRcgGCAPIA79AARA/eYB/eQBIRggGSAPIA79AARQ/eYB/eQBIRkgGiAPIA79AARg/eYB/eQBIRogGyAPIA79AARw/eYB/eQBIRsgDEEIaiEMDAALCyAFIAtBAnRqIQwgBgRAIBT9DAAAAAAAAAAAAAAAAAAAAAD96wEhFCAV/QwAAAAAAAAAAAAAAAAAAAAA/esBIRUgFv0MAAAAAAAAAAAAAAAAAAAAAP3rASEWIBf9DAAAAAAAAAAAAAAAAAAAAAD96wEhFyAY/QwAAAAAAAAAAAAAAAAAAAAA/esBIRggGf0MAAAAAAAAAAAAAAAAAAAAAP3rASEZIBr9DAAAAAAAAAAAAAAAAAAAAAD96wEhGiAb/QwAAAAAAAAAAAAAAAAAAAAA/esBIRsLIAwgFP0LBAAgDCAV/QsEECAMIBb9CwQgIAwgF/0LBDAgDCAY/QsEQCAMIBn9CwRQIAwgGv0LBGAgDCAb/QsEcCALQSBqIQsMAAsLIARBfHEhEAJAA0AgCyAQTw0BIAEgC0ECdGr9AAQAIRQgByEMAkADQCAMIA1PDQEgFCAMKgIA/RMgDCgCBCALQQJ0av0ABAD95gH95AEhFCAMQQhqIQwMAAsLIAYEQCAU/QwAAAAAAAAAAAAAAAAAAAAA/esBIRQLIAUgC0ECdGogFP0LBAAgC0EEaiELDAALCwJAA0AgCyAETw0BIAEgC0ECdGoqAgAhESALQQJ0IQ4gByEMAkADQCAMIA1PDQEgESAMKgIAIAwoAgQgDmoqAgCUkiERIAxBCGohDAwACwsgBiARQwAAAABdcQRAQwAAAAAhEQsgBSALQQJ0aiAROAIAIAtBAWohCwwACwsLUwECfwJAA0AgBCABTw0BIAAgBEEYbGohBSAFKAIAIAUoAgQgBSgCCCAFKAIMIAUoAhAgBSgCFEEBIAIgBEEBaiABSRsgAxAAIARBAWohBAwACwsLsQICAnsDf0HFu/KIeP0RIQJBn7qxKP0RIQMCQANAIARBCGogAUsNASAAIARBAnRqIQYgAiAG/QAEAP1RQZODgAj9Ef21ASECIAMgBv0ABBD9UUGTg4AI/RH9tQEhAyAEQQhqIQQMAAsLIAIgA0Ht+OzgAv0R/bUB/a4BIQICQANAIARBBGogAUsNASACIAAgBEECdGr9AAQA/VFBk4OACP0R/bUBIQIgBEEEaiEEDAALCyAC/RsAIQUgBUGTg4AIbCAC/RsBcyEFIAVBk4OACGwgAv0bAnMhBSAFQZODgAhsIAL9GwNzIQUCQANAIAQgAU8NASAFIAAgBEECdGooAgBzQZODgAhsIQUgBEEBaiEEDAALCyAFIAVBD3ZzIQUgBUHt+OzgAmwhBSAFIAVBDHZzC5oDAgp/AnsgACgCECEDIAEgAxACIQQgBCAAKAIMcSEFIARBAXIhBiAAKAIAIAUgA0ECdGxqIQcgACgCFEECdCELIAAoAgQgBSALbGohCiAAKAIIIAVBAnRqKAIAIAZGBEACQANAIAhBBGogA0sNASAOIAcgCEECdGr9AAQAIAEgCEECdGr9AAQA/VH9UCEOIAhBBGohCAwACwsgDv1TRSEJAkADQCAJRSAIIANPcg0BIAcgCEECdGooAgAgASAIQQJ0aigCAEcEQEEAIQkLIAhBAWohCAwACwsgCQRAIAAgACgCKEEBajYCKCAKDwsLIAAgACgCLEEBajYCLCAHIAEgA0ECdPwKAAAgACgCICABIANBAnT8CgAAIAAoAhggACgCHEEBIAIQASAKIAAoAiQgC/wKAAAgACgCNLj9FCENIAAoAjAgCiAAKAIEa0EBdGohDEEAIQgCQANAIAggC08NASAMIAhBAXRqIAogCGr9XQMA/V8gDf3zAf0LBAAgCEEIaiEIDAALCyAAKAIIIAVBAnRqIAY2AgAgCguJAgEHfyAAKAIUQQJ0IQYCQANAIAcgBk8NASAEIAdq/QwAAAAAAAAAAAAAAAAAAAAA/QsEACAEIAZqIAdqQwAAgP/9E/0LBAAgB0EQaiEHDAALCwJAA0AgCCADTw0BIAAgASAIIAJsaiAFEAMhCSAAKAIwIAkgACgCBGtBAXRqIQtBACEHAkADQCAHIAZPDQEgBCAHaiEKIAsgB0EBdGohDCAKIAr9XQMA/V8gDP0ABAD98AH9Xv1bAwAAIAogCv1dAwj9XyAM/QAEEP3wAf1e/VsDCAAgCiAGaiEKIAogCv0ABAAgCSAHav0ABAD96wH9CwQAIAdBEGohBwwACwsgCEEBaiEIDAALCwvRAQECfyAAKAI4IQIgACgCACAAKAIUIAAoAgwgACgCCCAAKAIoIAIQBCAAKAIoIAAoAgAoAhRBA3RqIQEgASAAKAIYIAAoAiBBAnT8CgAAIAEgACgCIEECdGohASABIAAoAhwgACgCJEECdPwKAAAgASAAKAIkQQJ0aiEBIAAoAgQEQCAAKAIEIAAoAhwgACgCJEECdGogACgCEEE0IAEgAhAECyAAKAI8IAAoAiggACgCQEECdPwKAAAgACgCLCAAKAIwQQAgAhABIAAoAjQqAgALbgEBfwJAA0AgAiABTw0BIAAgACgCRCACIAAoAgggACgCDGxsajYCFCAAIAAoAkggAiAAKAIgQQJ0bGo2AhggACAAKAJMIAIgACgCVGxqNgIcIAAoAlAgAkECdGogABAFOAIAIAJBAWohAgwACwsL";

let module: WebAssembly.Module | null | undefined;

/** The compiled module, or null where WebAssembly SIMD is missing. */
function wasmModule(): WebAssembly.Module | null {
  if (module !== undefined) return module;
  const bytes = Buffer.from(WASM, "base64");
  module =
    typeof WebAssembly === "object" && WebAssembly.validate(bytes)
      ? new WebAssembly.Module(bytes)
      : null;
  return module;
}

/** Which implementation denseChains gives by default: "wasm" where WebAssembly SIMD runs, else "js". */
export const denseKernel = (): "wasm" | "js" => (wasmModule() ? "wasm" : "js");

/** Bytes per layer record of the chain table: W, b, x, n, o, out (i32 each). */
const RECORD = 24;

/** The layers, tables and input rows in one WebAssembly memory (float32 throughout). */
/**
 * What a whole candidate needs (SafetyBatch gives it): the column network (layers 0 …), the card
 * network, the head, and their input rows; tables of `slots` rows (a power of two) each.
 */
export interface RowShape {
  readonly columns: number;
  readonly columnWidth: number;
  readonly columnDepth: number;
  readonly columnSlots: number;
  readonly flipperWidth: number;
  readonly globalWidth: number;
  /** Globals before the card rows (all of them without cards). */
  readonly globalsBeforeCards: number;
  readonly cards?: { first: number; depth: number; width: number; slots: number };
  readonly headFirst: number;
  readonly headDepth: number;
}

/**
 * Whole candidates in WebAssembly: write up to `capacity` rows of inputs (one after another, as
 * SafetyInputs holds them), then score(k) gives the logits of the first k.
 */
export interface DenseRows {
  readonly capacity: number;
  readonly cols: Float32Array;
  readonly flips: Float32Array;
  readonly globals: Float32Array;
  score(k: number): Float32Array;
  /** Rows of the column and card networks found in the tables, and computed. */
  hits(): number;
  misses(): number;
}

/** Fields of a table's description (dense.wat, $lookup). */
const MEMO = 56;
/** Fields of the row description (dense.wat, row and rows). */
const ROW = 88;
/** Candidates per call of rows. */
const ROWS = 16;

/** The layers, tables and input rows in one WebAssembly memory (float32 throughout). */
class WasmChains implements DenseChains, DenseRows {
  readonly x: Float32Array;
  readonly #outs: Float32Array[];
  readonly #chain: (tab: number, depth: number, reluLast: number, scr: number) => void;
  readonly #rows: (r: number, k: number) => void;
  readonly capacity = ROWS;
  #logits = new Float32Array(0);
  readonly #tab: number;
  readonly #scr: number;
  readonly #rowAt: number;
  readonly #memos: Int32Array[] = [];
  cols = new Float32Array(0);
  flips = new Float32Array(0);
  globals = new Float32Array(0);

  constructor(
    w: SafetyWeights,
    mod: WebAssembly.Module,
    starts: ReadonlySet<number>,
    shape?: RowShape,
  ) {
    const shapes = layerShapes(w.config);
    const widest = Math.max(...shapes.map(([i, o]) => Math.max(i, o)));
    let at = 0;
    const take = (bytes: number): number => {
      const here = at;
      at += Math.ceil(bytes / 16) * 16;
      return here;
    };
    const tab = take(RECORD * shapes.length);
    const scr = take(16 * widest);
    const x = take(4 * widest);
    const Ws = shapes.map(([i, o]) => take(4 * i * o));
    const bs = shapes.map(([, o]) => take(4 * o));
    const outs = shapes.map(([, o]) => take(4 * o));
    // The tables and input rows of whole candidates.
    const memos: [number, number, number, number, number, number, number, number, number][] = [];
    const memo = (
      first: number,
      depth: number,
      width: number,
      slots: number,
      pooled: number,
    ): number => {
      const outW = shapes[first + depth - 1]![1];
      const d = take(MEMO);
      memos.push([
        d,
        take(4 * width * slots),
        take(4 * outW * slots),
        take(4 * slots),
        slots,
        width,
        outW,
        take(8 * outW * slots),
        pooled,
      ]);
      return d;
    };
    const rowAt = shape ? take(ROW) : 0;
    const colMemo = shape
      ? memo(0, shape.columnDepth, shape.columnWidth, shape.columnSlots, shape.columns)
      : 0;
    const cardMemo = shape?.cards
      ? memo(shape.cards.first, shape.cards.depth, shape.cards.width, shape.cards.slots, 52)
      : 0;
    const cols = shape ? take(4 * ROWS * shape.columns * shape.columnWidth) : 0;
    const flips = shape ? take(4 * ROWS * shape.flipperWidth) : 0;
    const globals = shape ? take(4 * ROWS * shape.globalWidth) : 0;
    const logits = take(4 * ROWS);
    const pooled = shape ? take(4 * shapes[shape.headFirst]![0]) : 0;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(at / 65536) });
    const { exports } = new WebAssembly.Instance(mod, { env: { memory } });
    this.#chain = exports.chain as (
      tab: number,
      depth: number,
      reluLast: number,
      scr: number,
    ) => void;
    this.#rows = exports.rows as (r: number, k: number) => void;
    const buf = memory.buffer;
    const table = new Int32Array(buf, tab, (RECORD / 4) * shapes.length);
    shapes.forEach(([i, o], l) => {
      new Float32Array(buf, Ws[l]!, i * o).set(w.W[l]!);
      new Float32Array(buf, bs[l]!, o).set(w.b[l]!);
      // A chain's first layer reads x; any other, the layer before it.
      table.set(
        [Ws[l]!, bs[l]!, starts.has(l) ? x : outs[l - 1]!, i, o, outs[l]!],
        (RECORD / 4) * l,
      );
    });
    this.x = new Float32Array(buf, x, widest);
    this.#outs = shapes.map(([, o], l) => new Float32Array(buf, outs[l]!, o));
    this.#tab = tab;
    this.#scr = scr;
    this.#rowAt = rowAt;
    if (!shape) return;
    const chainOf = (first: number, depth: number): [number, number, number, number] => [
      tab + RECORD * first,
      depth,
      x,
      outs[first + depth - 1]!,
    ];
    const firsts = [0, shape.cards?.first ?? 0];
    const depths = [shape.columnDepth, shape.cards?.depth ?? 0];
    memos.forEach(([d, keys, mouts, tags, slots, width, outW, shares, pooled], i) => {
      const m = new Int32Array(buf, d, MEMO / 4);
      m.set([
        keys,
        mouts,
        tags,
        slots - 1,
        width,
        outW,
        ...chainOf(firsts[i]!, depths[i]!),
        0,
        0,
        shares,
        pooled,
      ]);
      this.#memos.push(m);
    });
    new Int32Array(buf, rowAt, ROW / 4).set([
      colMemo,
      cardMemo,
      shape.columns,
      4 * shape.columnWidth,
      4 * (shape.cards?.width ?? 0),
      cols,
      flips,
      globals,
      shape.flipperWidth,
      shape.globalsBeforeCards,
      pooled,
      tab + RECORD * shape.headFirst,
      shape.headDepth,
      outs[shape.headFirst + shape.headDepth - 1]!,
      scr,
      x,
      shapes[shape.headFirst]![0],
      cols,
      flips,
      globals,
      logits,
      4 * shape.globalWidth,
    ]);
    this.cols = new Float32Array(buf, cols, ROWS * shape.columns * shape.columnWidth);
    this.flips = new Float32Array(buf, flips, ROWS * shape.flipperWidth);
    this.globals = new Float32Array(buf, globals, ROWS * shape.globalWidth);
    this.#logits = new Float32Array(buf, logits, ROWS);
  }

  run(first: number, depth: number, reluLast: boolean): Float32Array {
    this.#chain(this.#tab + RECORD * first, depth, reluLast ? 1 : 0, this.#scr);
    return this.#outs[first + depth - 1]!;
  }

  score(k: number): Float32Array {
    this.#rows(this.#rowAt, k);
    return this.#logits;
  }

  hits(): number {
    return this.#memos.reduce((n, m) => n + m[10]!, 0);
  }

  misses(): number {
    return this.#memos.reduce((n, m) => n + m[11]!, 0);
  }
}

/** The same chains in plain JavaScript. */
class JsChains implements DenseChains {
  readonly x: Float32Array;
  readonly #outs: Float32Array[];
  readonly #n: number[];

  constructor(readonly w: SafetyWeights) {
    const shapes = layerShapes(w.config);
    this.x = new Float32Array(Math.max(...shapes.map(([i, o]) => Math.max(i, o))));
    this.#outs = shapes.map(([, o]) => new Float32Array(o));
    this.#n = shapes.map(([i]) => i);
  }

  run(first: number, depth: number, reluLast: boolean): Float32Array {
    let x = this.x;
    const last = first + depth - 1;
    for (let l = first; l <= last; l++) {
      const out = this.#outs[l]!;
      dense(this.w.W[l]!, this.w.b[l]!, x, 0, this.#n[l]!, out, 0, l < last || reluLast);
      x = out;
    }
    return x;
  }
}

/**
 * The layers of w as chains starting at the layers in `starts` (each chain runs from its start
 * through the layers after it): in WebAssembly where it runs (unless kernel is "js"), else in
 * JavaScript.
 */
export function denseChains(
  w: SafetyWeights,
  starts: ReadonlySet<number>,
  kernel: "wasm" | "js" = "wasm",
): DenseChains {
  const mod = kernel === "wasm" ? wasmModule() : null;
  return mod ? new WasmChains(w, mod, starts) : new JsChains(w);
}

/**
 * Whole candidates of w in WebAssembly (tables, pooling and head included), or undefined where it
 * does not run (or kernel is "js"), or the pooled widths are not multiples of 4 (the kernel pools
 * four outputs at a time).
 */
export function denseRows(
  w: SafetyWeights,
  shape: RowShape,
  kernel: "wasm" | "js" = "wasm",
): DenseRows | undefined {
  const mod = kernel === "wasm" ? wasmModule() : null;
  const shapes = layerShapes(w.config);
  const H = shapes[shape.columnDepth - 1]![1];
  const Hc = shape.cards ? shapes[shape.cards.first + shape.cards.depth - 1]![1] : 0;
  if (!mod || H % 4 !== 0 || Hc % 4 !== 0) return undefined;
  const starts = new Set([0, shape.headFirst, ...(shape.cards ? [shape.cards.first] : [])]);
  return new WasmChains(w, mod, starts, shape);
}
