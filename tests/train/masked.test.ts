import { describe, expect, it } from "vitest";
import { initBackend, tf } from "../../src/train/backend.js";
import { chooseMasked, maskedEntropy, maskedLogSoftmax } from "../../src/train/masked.js";
import { Rng } from "../../src/util/rng.js";

describe("masked categorical", () => {
  it("never samples an illegal action over many draws, and follows the softmax over legal ones", () => {
    const A = 126;
    const rng = new Rng(7);
    const logits = new Float32Array(A);
    const mask = new Uint8Array(A);
    // Illegal actions get the largest logits: a broken mask would pick them at once.
    for (let a = 0; a < A; a++) {
      mask[a] = a % 5 === 0 ? 1 : 0;
      logits[a] = mask[a] ? (a % 3) * 0.5 : 10;
    }
    const counts = new Float64Array(A);
    const draws = 200_000;
    for (let i = 0; i < draws; i++) {
      const a = chooseMasked(logits, 0, A, mask, 0, rng);
      counts[a] = counts[a]! + 1;
    }
    let z = 0;
    for (let a = 0; a < A; a++) if (mask[a]) z += Math.exp(logits[a]!);
    for (let a = 0; a < A; a++) {
      if (!mask[a]) expect(counts[a]).toBe(0);
      else expect(Math.abs(counts[a]! / draws - Math.exp(logits[a]!) / z)).toBeLessThan(0.005);
    }
  });

  it("argmax picks the best legal action and reports its log-probability", () => {
    const logits = Float32Array.from([5, 1, 2, 9]);
    const mask = Uint8Array.from([0, 1, 1, 0]);
    const lp = new Float64Array(1);
    expect(chooseMasked(logits, 0, 4, mask, 0, undefined, lp)).toBe(2);
    expect(lp[0]).toBeCloseTo(2 - Math.log(Math.exp(1) + Math.exp(2)), 6);
    expect(chooseMasked(logits, 0, 4, new Uint8Array(4), 0, undefined)).toBe(-1);
  });

  it("the tf log-softmax gives illegal actions zero probability, no NaN, and no gradient", async () => {
    await initBackend();
    const logits = tf.tensor2d([[3, 1, 2, 100]]);
    const mask = tf.tensor2d([[1, 0, 1, 0]]);
    const lp = maskedLogSoftmax(logits, mask);
    const p = tf.exp(lp).dataSync();
    expect(p[1]).toBe(0);
    expect(p[3]).toBe(0);
    expect(p[0]! + p[2]!).toBeCloseTo(1, 6);
    const ent = maskedEntropy(lp, mask).dataSync()[0]!;
    const q = [Math.exp(3), Math.exp(2)].map((x) => x / (Math.exp(3) + Math.exp(2)));
    expect(ent).toBeCloseTo(-q.reduce((s, x) => s + x * Math.log(x), 0), 5);
    const g = tf
      .grad((x: tf.Tensor) =>
        tf.sum(tf.mul(maskedLogSoftmax(x as tf.Tensor2D, mask), tf.tensor2d([[1, 0, 0, 0]]))),
      )(logits)
      .dataSync();
    expect(g[1]).toBe(0);
    expect(g[3]).toBe(0);
    expect(Array.from(g).every(Number.isFinite)).toBe(true);
  });
});
