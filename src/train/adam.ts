/**
 * Adam with global-norm gradient clipping, written on tf ops rather than tf.train.adam so that
 * its whole state (moments and step count) is plain tensors we save in a checkpoint and restore
 * exactly, and so the learning rate can follow a schedule without touching private fields.
 */
import { tf } from "./backend.js";
import { CheckpointError } from "./checkpoint.js";

export interface AdamOptions {
  beta1: number;
  beta2: number;
  epsilon: number;
  /** Clip the global gradient norm to this (0 = off). */
  maxGradNorm: number;
}

export const ADAM_DEFAULTS: AdamOptions = {
  beta1: 0.9,
  beta2: 0.999,
  epsilon: 1e-5,
  maxGradNorm: 0.5,
};

export class Adam {
  readonly m: tf.Variable[];
  readonly v: tf.Variable[];
  step = 0;

  constructor(
    readonly vars: tf.Variable[],
    readonly options: AdamOptions = ADAM_DEFAULTS,
  ) {
    this.m = vars.map((x) => tf.variable(tf.zerosLike(x), false));
    this.v = vars.map((x) => tf.variable(tf.zerosLike(x), false));
  }

  /**
   * One update. `loss` returns the scalar to minimise plus any extra scalars to report; returns
   * [loss, ...extras] as numbers (one device read). `lrScale[i]`, when given, multiplies the step
   * of variable i (a value head learning faster than the policy it sits beside; 0 holds one still).
   */
  minimize(
    loss: () => { loss: tf.Scalar; extras: tf.Scalar[] },
    lr: number,
    lrScale?: readonly number[],
  ): number[] {
    const { beta1, beta2, epsilon, maxGradNorm } = this.options;
    let extras: tf.Scalar[] = [];
    const { value, grads } = tf.variableGrads(() => {
      const r = loss();
      extras = r.extras.map((e) => tf.keep(e));
      return r.loss;
    }, this.vars);
    this.step++;
    const t = this.step;
    tf.tidy(() => {
      // A variable the loss does not reach (the value head under behaviour cloning) gets no gradient.
      let gs = this.vars.map((x) => grads[x.name] ?? tf.zerosLike(x));
      if (maxGradNorm > 0) {
        const norm = tf.sqrt(tf.addN(gs.map((g) => tf.sum(tf.square(g)))));
        const scale = tf.minimum(1, tf.div(maxGradNorm, tf.add(norm, 1e-6)));
        gs = gs.map((g) => tf.mul(g, scale));
      }
      // Bias correction folded into the step size, as in the Adam paper's efficient form.
      const alpha = (lr * Math.sqrt(1 - beta2 ** t)) / (1 - beta1 ** t);
      gs.forEach((g, i) => {
        const m = this.m[i]!;
        const v = this.v[i]!;
        m.assign(tf.add(tf.mul(m, beta1), tf.mul(g, 1 - beta1)));
        v.assign(tf.add(tf.mul(v, beta2), tf.mul(tf.square(g), 1 - beta2)));
        const step = lrScale ? alpha * lrScale[i]! : alpha;
        this.vars[i]!.assign(
          tf.sub(this.vars[i]!, tf.mul(tf.div(m, tf.add(tf.sqrt(v), epsilon)), step)),
        );
      });
    });
    const all = tf.tidy(() => tf.stack([value, ...extras]));
    const out = Array.from(all.dataSync());
    all.dispose();
    value.dispose();
    extras.forEach((e) => e.dispose());
    Object.values(grads).forEach((g) => g.dispose());
    return out;
  }

  /** Moments as named tensors (m0, v0, m1, …) for tf.io.encodeWeights. */
  namedState(): { name: string; tensor: tf.Tensor }[] {
    const out: { name: string; tensor: tf.Tensor }[] = [];
    this.m.forEach((m, i) => {
      out.push({ name: `m${i}`, tensor: m });
      out.push({ name: `v${i}`, tensor: this.v[i]! });
    });
    return out;
  }

  restore(named: Record<string, tf.Tensor>, step: number): void {
    this.m.forEach((m, i) => {
      const mi = named[`m${i}`];
      const vi = named[`v${i}`];
      if (!mi || !vi || !tf.util.arraysEqual(mi.shape, m.shape))
        throw new CheckpointError(`optimizer state does not match the network (slot ${i})`);
      m.assign(mi);
      this.v[i]!.assign(vi);
    });
    this.step = step;
  }

  dispose(): void {
    this.m.forEach((x) => x.dispose());
    this.v.forEach((x) => x.dispose());
  }
}
