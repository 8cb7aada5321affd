/**
 * The move-safety network: a shared per-column MLP whose outputs are pooled by mean and max (so
 * column order does not matter), joined with the flipper card set and the globals, then an MLP
 * to one logit: how likely the move loses a winnable deal. Weights are plain arrays; training
 * runs them as tf variables (train.ts), play runs the same numbers in plain JavaScript (tfjs's
 * per-call overhead dwarfs this arithmetic at a dozen candidates per move).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import { sha256, writeAtomic } from "../files.js";
import { Rng } from "../rng.js";
import { COLUMN_WIDTH, FLIPPER_WIDTH, GLOBAL_WIDTH } from "./encode.js";

export interface SafetyConfig {
  readonly columns: number;
  readonly columnHidden: readonly number[];
  readonly headHidden: readonly number[];
  readonly columnWidth: number;
  readonly flipperWidth: number;
  readonly globalWidth: number;
}

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
  width = 2 * width + c.flipperWidth + c.globalWidth;
  for (const h of [...c.headHidden, 1]) {
    shapes.push([width, h]);
    width = h;
  }
  return shapes;
}

export function defaultConfig(columns: number, columnHidden: readonly number[] = [64, 64], headHidden: readonly number[] = [128, 64]): SafetyConfig {
  return { columns, columnHidden, headHidden, columnWidth: COLUMN_WIDTH, flipperWidth: FLIPPER_WIDTH, globalWidth: GLOBAL_WIDTH };
}

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
  private readonly nCol: number;
  private readonly bufs: Float32Array[];
  private readonly pooled: Float32Array;

  constructor(readonly w: SafetyWeights) {
    this.nCol = w.config.columnHidden.length;
    const shapes = layerShapes(w.config);
    this.bufs = shapes.map(([, o]) => new Float32Array(o));
    const last = w.config.columnHidden[this.nCol - 1]!;
    this.pooled = new Float32Array(2 * last + w.config.flipperWidth + w.config.globalWidth);
  }

  private dense(l: number, x: Float32Array, xAt: number, n: number, relu: boolean): Float32Array {
    const W = this.w.W[l]!;
    const out = this.bufs[l]!;
    const o = out.length;
    out.set(this.w.b[l]!);
    for (let i = 0; i < n; i++) {
      const v = x[xAt + i]!;
      if (v === 0) continue;
      const row = i * o;
      for (let j = 0; j < o; j++) out[j] = out[j]! + v * W[row + j]!;
    }
    if (relu) for (let j = 0; j < o; j++) if (out[j]! < 0) out[j] = 0;
    return out;
  }

  logit(cols: Float32Array, colsAt: number, flips: Float32Array, flipsAt: number, globals: Float32Array, globalsAt: number): number {
    const c = this.w.config;
    const H = c.columnHidden[this.nCol - 1]!;
    const p = this.pooled;
    p.fill(0, 0, H);
    p.fill(-Infinity, H, 2 * H);
    for (let k = 0; k < c.columns; k++) {
      let x = this.dense(0, cols, colsAt + k * c.columnWidth, c.columnWidth, true);
      for (let l = 1; l < this.nCol; l++) x = this.dense(l, x, 0, x.length, true);
      for (let j = 0; j < H; j++) {
        p[j] = p[j]! + x[j]! / c.columns;
        if (x[j]! > p[H + j]!) p[H + j] = x[j]!;
      }
    }
    p.set(flips.subarray(flipsAt, flipsAt + c.flipperWidth), 2 * H);
    p.set(globals.subarray(globalsAt, globalsAt + c.globalWidth), 2 * H + c.flipperWidth);
    let x: Float32Array = p;
    const L = this.w.W.length;
    for (let l = this.nCol; l < L; l++) x = this.dense(l, x, 0, x.length, l < L - 1);
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
  const file: ModelFile = { format: "penguin-safety-net", config: w.config, shapes: layerShapes(w.config), weightsSha256: sha256(bytes), meta };
  writeAtomic(join(dir, "model.json"), JSON.stringify(file, null, 1) + "\n");
}

/** Loads dir (a checkpoint folder, or a run folder holding checkpoint/); checks the SHA-256. */
export function loadSafety(path: string): { weights: SafetyWeights; meta: Record<string, unknown> } {
  let dir = path;
  let text: string;
  try {
    text = readFileSync(join(dir, "model.json"), "utf8");
  } catch {
    dir = join(path, "checkpoint");
    try {
      text = readFileSync(join(dir, "model.json"), "utf8");
    } catch {
      throw new UsageError(`no safety network at ${path} (expected model.json there or in ${path}/checkpoint)`);
    }
  }
  let file: ModelFile;
  try {
    file = JSON.parse(text) as ModelFile;
  } catch {
    throw new UsageError(`${join(dir, "model.json")} is damaged (not JSON)`);
  }
  if (file.format !== "penguin-safety-net") throw new UsageError(`${join(dir, "model.json")} is not a safety network`);
  const want = defaultConfig(file.config.columns);
  if (file.config.columnWidth !== want.columnWidth || file.config.flipperWidth !== want.flipperWidth || file.config.globalWidth !== want.globalWidth)
    throw new UsageError(`${join(dir, "model.json")} was trained with another position encoding (widths ${file.config.columnWidth}/${file.config.flipperWidth}/${file.config.globalWidth}, this build uses ${want.columnWidth}/${want.flipperWidth}/${want.globalWidth}); retrain it`);
  const bytes = readFileSync(join(dir, "weights.bin"));
  if (sha256(bytes) !== file.weightsSha256) throw new UsageError(`damaged checkpoint ${dir}: weights.bin does not match its recorded SHA-256`);
  const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const W: Float32Array[] = [];
  const b: Float32Array[] = [];
  let at = 0;
  for (const [i, o] of layerShapes(file.config)) {
    W.push(all.slice(at, at + i * o));
    at += i * o;
    b.push(all.slice(at, at + o));
    at += o;
  }
  if (at !== all.length) throw new UsageError(`damaged checkpoint ${dir}: weights.bin holds ${all.length} floats, the config needs ${at}`);
  return { weights: { config: file.config, W, b }, meta: file.meta };
}
