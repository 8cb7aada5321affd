/**
 * The after-state policy of `penguin train ppo` (its default, `--policy afterstate`): one small
 * tanh MLP, shared by every move, scores each legal move from that move's feature row (the
 * action-scorer's row: greedy's feature terms, the move's kind, facts of the position after it;
 * src/players/scorer/features.ts), after scaling each input by the mean and spread measured at
 * the start of training. Play takes the best-scored move under the shared never-repeat guard and
 * tie-break (ScorerAgent); training samples from the softmax over the legal moves.
 *
 * Its checkpoint is a folder of the one checkpoint format (state.json + weights.bin) whose
 * state names the layout; read here without TensorFlow.js.
 */
import { CheckpointError, readChecked } from "../checkpoint.js";
import { ROW } from "../scorer/features.js";
import type { RowScorer } from "../scorer/view.js";

/** What state.json of an after-state policy checkpoint says (under `state.afterstate`). */
export interface AfterstateConfig {
  /** Features per move row (the scorer row's width when trained). */
  row: number;
  /** Hidden layer sizes (tanh). */
  hidden: number[];
  /** Action ids of the rules it was trained on. */
  actions: number;
}

/** The names and lengths of the policy's arrays in weights.bin, in order. */
export function afterstateLayout(c: AfterstateConfig): { name: string; length: number }[] {
  const out = [
    { name: "mean", length: c.row },
    { name: "scale", length: c.row },
  ];
  let nIn = c.row;
  [...c.hidden, 1].forEach((h, i) => {
    out.push({ name: `kernel${i}`, length: nIn * h }, { name: `bias${i}`, length: h });
    nIn = h;
  });
  return out;
}

/**
 * A tanh MLP in plain numbers: kernels [in, out] row-major, tanh on every hidden layer, a linear
 * 1-unit output. Training runs its rollouts through this same code.
 */
export class TanhMlp {
  readonly #h: Float64Array[];

  constructor(
    /** kernel0, bias0, kernel1, bias1, …, the output layer last. */
    public layers: Float32Array[],
    readonly inputs: number,
    readonly hidden: readonly number[],
  ) {
    this.#h = hidden.map((h) => new Float64Array(h));
  }

  /** The output for the input x[off .. off + inputs). */
  run(x: ArrayLike<number>, off: number): number {
    let prev: ArrayLike<number> = x;
    let prevOff = off;
    let nIn = this.inputs;
    for (let k = 0; k < this.hidden.length; k++) {
      const nOut = this.hidden[k]!;
      const w = this.layers[2 * k]!;
      const b = this.layers[2 * k + 1]!;
      const h = this.#h[k]!;
      for (let j = 0; j < nOut; j++) h[j] = b[j]!;
      for (let i = 0; i < nIn; i++) {
        const xi = prev[prevOff + i]!;
        if (xi === 0) continue;
        const r = i * nOut;
        for (let j = 0; j < nOut; j++) h[j] = h[j]! + xi * w[r + j]!;
      }
      for (let j = 0; j < nOut; j++) h[j] = Math.tanh(h[j]!);
      prev = h;
      prevOff = 0;
      nIn = nOut;
    }
    const k = this.hidden.length;
    const w = this.layers[2 * k]!;
    let z = this.layers[2 * k + 1]![0]!;
    for (let i = 0; i < nIn; i++) z += prev[prevOff + i]! * w[i]!;
    return z;
  }
}

/** The trained policy as a RowScorer over raw scorer rows: scale, then the MLP. */
export class AfterstateScorer implements RowScorer {
  readonly mlp: TanhMlp;
  readonly #x: Float64Array;

  constructor(
    readonly config: AfterstateConfig,
    readonly mean: Float32Array,
    readonly scale: Float32Array,
    layers: Float32Array[],
  ) {
    this.mlp = new TanhMlp(layers, config.row, config.hidden);
    this.#x = new Float64Array(config.row);
  }

  logit(rows: Float32Array, offset: number): number {
    const x = this.#x;
    for (let i = 0; i < x.length; i++) x[i] = (rows[offset + i]! - this.mean[i]!) / this.scale[i]!;
    return this.mlp.run(x, 0);
  }
}

/** The after-state policy of checkpoint folder `dir` (state already read and checked). */
export function readAfterstate(
  dir: string,
  state: { sha256: Record<string, string>; state?: { afterstate?: AfterstateConfig } },
): AfterstateScorer {
  const c = state.state?.afterstate;
  if (
    !c ||
    !Number.isInteger(c.row) ||
    !Number.isInteger(c.actions) ||
    !Array.isArray(c.hidden) ||
    c.hidden.some((h) => !Number.isInteger(h) || h < 1)
  )
    throw new CheckpointError(`${dir} is not a penguin after-state policy`);
  if (c.row !== ROW)
    throw new CheckpointError(
      `the policy in ${dir} reads move rows of ${c.row} features; this build computes ${ROW}`,
    );
  const bin = readChecked(dir, "weights.bin", state.sha256);
  const layout = afterstateLayout(c);
  const total = layout.reduce((n, l) => n + l.length, 0);
  if (bin.length !== total * 4)
    throw new CheckpointError(
      `damaged checkpoint ${dir}: weights.bin holds ${bin.length} bytes, expected ${total * 4}`,
    );
  const all = new Float32Array(Uint8Array.prototype.slice.call(bin).buffer);
  const arrays: Float32Array[] = [];
  let at = 0;
  for (const l of layout) {
    arrays.push(all.subarray(at, at + l.length));
    at += l.length;
  }
  const [mean, scale, ...layers] = arrays;
  return new AfterstateScorer(c, mean!, scale!, layers);
}

/** weights.bin of an after-state policy: its arrays back to back in afterstateLayout's order. */
export function afterstateBytes(
  c: AfterstateConfig,
  mean: ArrayLike<number>,
  scale: ArrayLike<number>,
  layers: readonly Float32Array[],
): Uint8Array {
  const layout = afterstateLayout(c);
  const parts = [mean, scale, ...layers];
  const out = new Float32Array(layout.reduce((n, l) => n + l.length, 0));
  let at = 0;
  layout.forEach((l, i) => {
    const p = parts[i]!;
    if (p.length !== l.length) throw new Error(`after-state policy: ${l.name} has the wrong size`);
    out.set(p, at);
    at += l.length;
  });
  return new Uint8Array(out.buffer);
}
