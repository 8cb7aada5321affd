/**
 * The dense layers of the move-safety network at play, with one fixed arithmetic: an output is
 * its bias, then each nonzero input's product added in input order, the sum rounded to float32
 * after every addition (JsSafety's order, model.ts). A network's choices are compared move
 * against move, and a different summation order would move some logits by an ulp and turn some
 * ties; this order is the one every shipped network's results were played with.
 *
 * Two implementations of that one arithmetic, giving the same bits:
 * - WebAssembly (dense.wat, assembled by wabt's `wat2wasm --enable-simd`): weights kept as
 *   float64 (each exactly its float32 value), two outputs per SIMD register, the rounding after
 *   each addition one demote and promote; about twice the plain-JavaScript speed.
 * - plain JavaScript (`dense`), where WebAssembly SIMD is missing.
 */
import { layerShapes, type SafetyWeights } from "./model.js";

/** The nonzero inputs' indices of the row being multiplied (scratch shared by every call). */
let nonzero = new Int32Array(1024);

/**
 * out[outAt …+o] = x[xAt …+n] · W + b in the fixed order. Eight outputs at a time are kept in
 * registers (Math.fround is the rounding), the same numbers as adding into a Float32Array.
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

/** dense.wat, assembled (its exports: dense, and chain over a table of layers). */
const WASM =
  "AGFzbQEAAAABGQNgCH9/f39/f39/AGAEf39/fwBgAnt/AXsCDwEDZW52Bm1lbW9yeQIAAQMEAwABAgcRAgVkZW5zZQAABWNoYWluAAEKxQYDxAUIAn8BfQV/AXsBfwF8CHsBfyAEQQN0IRsCQANAIAggA08NASACIAhBAnRqKgIAIQogCkMAAAAAXARAIAcgCUEEdGohDSANIAq7OQMAIA0gACAIIBtsajYCCCAJQQFqIQkLIAhBAWohCAwACwsgByAJQQR0aiEOIARBcHEhEQJAA0AgCyARTw0BIAEgC0ECdGohDSAN/V0DAP1fIRMgDf1dAwj9XyEUIA39XQMQ/V8hFSAN/V0DGP1fIRYgDf1dAyD9XyEXIA39XQMo/V8hGCAN/V0DMP1fIRkgDf1dAzj9XyEaIAchDQJAA0AgDSAOTw0BIA0rAwD9FCEQIA0oAgggC0EDdGohDyATIBAgD/0ABAD98gH98AH9Xv1fIRMgFCAQIA/9AAQQ/fIB/fAB/V79XyEUIBUgECAP/QAEIP3yAf3wAf1e/V8hFSAWIBAgD/0ABDD98gH98AH9Xv1fIRYgFyAQIA/9AARA/fIB/fAB/V79XyEXIBggECAP/QAEUP3yAf3wAf1e/V8hGCAZIBAgD/0ABGD98gH98AH9Xv1fIRkgGiAQIA/9AARw/fIB/fAB/V79XyEaIA1BEGohDQwACwsgBSALQQJ0aiENIA0gEyAGEAL9WwMAACANIBQgBhAC/VsDCAAgDSAVIAYQAv1bAxAAIA0gFiAGEAL9WwMYACANIBcgBhAC/VsDIAAgDSAYIAYQAv1bAygAIA0gGSAGEAL9WwMwACANIBogBhAC/VsDOAAgC0EQaiELDAALCwJAA0AgCyAETw0BIAEgC0ECdGoqAgC7IRIgC0EDdCEPIAchDQJAA0AgDSAOTw0BIBIgDSsDACANKAIIIA9qKwMAoqC2uyESIA1BEGohDQwACwsgErYhCiAGIApDAAAAAF1xBEBDAAAAACEKCyAFIAtBAnRqIAo4AgAgC0EBaiELDAALCwtTAQJ/AkADQCAEIAFPDQEgACAEQRhsaiEFIAUoAgAgBSgCBCAFKAIIIAUoAgwgBSgCECAFKAIUQQEgAiAEQQFqIAFJGyADEAAgBEEBaiEEDAALCwspAQF7IAD9XiECIAEEeyAC/QwAAAAAAAAAAAAAAAAAAAAA/esBBSACCws=";

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

/** The layers in one WebAssembly memory: weights as float64, biases and outputs as float32. */
class WasmChains implements DenseChains {
  readonly x: Float32Array;
  readonly #outs: Float32Array[];
  readonly #chain: (tab: number, depth: number, reluLast: number, scr: number) => void;
  readonly #tab: number;
  readonly #scr: number;

  constructor(w: SafetyWeights, mod: WebAssembly.Module, starts: ReadonlySet<number>) {
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
    const Ws = shapes.map(([i, o]) => take(8 * i * o));
    const bs = shapes.map(([, o]) => take(4 * o));
    const outs = shapes.map(([, o]) => take(4 * o));
    const memory = new WebAssembly.Memory({ initial: Math.ceil(at / 65536) });
    const { exports } = new WebAssembly.Instance(mod, { env: { memory } });
    this.#chain = exports.chain as (
      tab: number,
      depth: number,
      reluLast: number,
      scr: number,
    ) => void;
    const buf = memory.buffer;
    const table = new Int32Array(buf, tab, (RECORD / 4) * shapes.length);
    shapes.forEach(([i, o], l) => {
      new Float64Array(buf, Ws[l]!, i * o).set(w.W[l]!);
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
  }

  run(first: number, depth: number, reluLast: boolean): Float32Array {
    this.#chain(this.#tab + RECORD * first, depth, reluLast ? 1 : 0, this.#scr);
    return this.#outs[first + depth - 1]!;
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
