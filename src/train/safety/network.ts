/**
 * The safety network in TensorFlow.js, for training: the same layers as the player's plain
 * JavaScript forward pass (JsSafety in src/players/safety/model.ts), on a whole minibatch at once,
 * with the weights as tf variables that Adam updates. read() gives them back in the player's
 * format, so validation games and saved networks play exactly what was trained.
 */
import { tf } from "../backend.js";
import {
  cardLayers,
  cardsAt,
  cardWidth,
  denseLayers,
  layerShapes,
  type SafetyWeights,
} from "../../players/safety/model.js";

/** A network's weights as tf variables, and its forward pass over a minibatch. */
export class TfSafety {
  readonly W: tf.Variable[];
  readonly b: tf.Variable[];
  constructor(readonly w: SafetyWeights) {
    const shapes = layerShapes(w.config);
    this.W = w.W.map((a, l) => tf.variable(tf.tensor2d(a, shapes[l]!), true, `W${l}`));
    this.b = w.b.map((a, l) => tf.variable(tf.tensor1d(a), true, `b${l}`));
  }
  vars(): tf.Variable[] {
    return [...this.W, ...this.b];
  }
  /** Logits of B encoded rows: cols [B·columns, COLUMN_WIDTH], flips [B, FLIPPER_WIDTH], globals [B, globalWidth]. */
  forward(cols: tf.Tensor2D, flips: tf.Tensor2D, globals: tf.Tensor2D, B: number): tf.Tensor1D {
    return this.forwardHidden(cols, flips, globals, B)[0];
  }
  /** The logits, and the head's last hidden layer [B, headHidden's last] that the output layer reads (PPO's value head reads it). */
  forwardHidden(
    cols: tf.Tensor2D,
    flips: tf.Tensor2D,
    globals: tf.Tensor2D,
    B: number,
  ): [tf.Tensor1D, tf.Tensor2D] {
    const c = this.w.config;
    const nc = c.columnHidden.length;
    let x: tf.Tensor2D = cols;
    for (let l = 0; l < nc; l++)
      x = tf.relu(tf.add(tf.matMul(x, this.W[l]!), this.b[l]!)) as tf.Tensor2D;
    const H = c.columnHidden[nc - 1]!;
    let x3 = tf.reshape(x, [B, c.columns, H]) as tf.Tensor3D;
    if (c.attentionHeads) x3 = this.#attend(x3, flips, B);
    const ch = c.cardHidden ?? [];
    let h: tf.Tensor2D;
    if (ch.length === 0)
      h = tf.concat([tf.mean(x3, 1), tf.max(x3, 1), flips, globals], 1) as tf.Tensor2D;
    else {
      // The card rows sit at the end of the globals: through the card network, pooled like the columns (JsSafety.logit).
      const G = cardsAt(c);
      const cw = cardWidth(c);
      let y = tf.reshape(tf.slice(globals, [0, G], [B, 52 * cw]), [B * 52, cw]) as tf.Tensor2D;
      const first = cardLayers(c);
      for (let l = 0; l < ch.length; l++)
        y = tf.relu(tf.add(tf.matMul(y, this.W[first + l]!), this.b[first + l]!)) as tf.Tensor2D;
      const y3 = tf.reshape(y, [B, 52, ch[ch.length - 1]!]);
      h = tf.concat(
        [
          tf.mean(x3, 1),
          tf.max(x3, 1),
          flips,
          tf.slice(globals, [0, 0], [B, G]),
          tf.mean(y3, 1),
          tf.max(y3, 1),
        ],
        1,
      ) as tf.Tensor2D;
    }
    const L = denseLayers(c);
    let hidden = h;
    for (let l = nc; l < L; l++) {
      hidden = h;
      h = tf.add(tf.matMul(h, this.W[l]!), this.b[l]!) as tf.Tensor2D;
      if (l < L - 1) h = tf.relu(h);
    }
    return [tf.reshape(h, [B]), hidden];
  }
  /** The attention block of JsSafety.attend, batched: tokens [B, columns + 1, H] → column tokens [B, columns, H]. */
  #attend(x3: tf.Tensor3D, flips: tf.Tensor2D, B: number): tf.Tensor3D {
    const c = this.w.config;
    const A = denseLayers(c);
    const H = c.columnHidden[c.columnHidden.length - 1]!;
    const heads = c.attentionHeads!;
    const dh = H / heads;
    const T = c.columns + 1;
    const f = tf.reshape(tf.relu(tf.add(tf.matMul(flips, this.W[A]!), this.b[A]!)), [B, 1, H]);
    const tok = tf.concat([x3, f], 1);
    const flat = tf.reshape(tok, [B * T, H]) as tf.Tensor2D;
    const proj = (l: number): tf.Tensor4D =>
      tf.transpose(
        tf.reshape(tf.add(tf.matMul(flat, this.W[l]!), this.b[l]!), [B, T, heads, dh]),
        [0, 2, 1, 3],
      );
    const q = proj(A + 1);
    const k = proj(A + 2);
    const v = proj(A + 3);
    const att = tf.softmax(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)));
    const mix = tf.reshape(tf.transpose(tf.matMul(att, v), [0, 2, 1, 3]), [
      B * T,
      H,
    ]) as tf.Tensor2D;
    const out = tf.add(
      tok,
      tf.reshape(tf.add(tf.matMul(mix, this.W[A + 4]!), this.b[A + 4]!), [B, T, H]),
    );
    return tf.slice(out, [0, 0, 0], [B, c.columns, H]) as tf.Tensor3D;
  }

  /** The current weights, copied out in the player's format. */
  read(): SafetyWeights {
    return {
      config: this.w.config,
      W: this.W.map((v) => Float32Array.from(v.dataSync())),
      b: this.b.map((v) => Float32Array.from(v.dataSync())),
    };
  }
  dispose(): void {
    this.vars().forEach((v) => v.dispose());
  }
}
