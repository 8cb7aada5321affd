import { describe, expect, it } from "vitest";
import { safeSetLoss } from "../../src/train/safety/choice.js";

describe("the fatal-move term of the choice objective", () => {
  it("is −log of the softmax weight on the winnable moves, only in the positions that hold a losing move", async () => {
    const { initBackend, tf } = await import("../../src/train/backend.js");
    await initBackend();
    // Position 0: three moves, the third loses. Position 1: two winnable moves (not critical).
    const z = [0.5, -1, 2, 0.3, 0.3];
    const safe = [1, 1, 0, 1, 1];
    const critical = [1, 0];
    const member = tf.tensor2d(
      [0, 0, 0, 1, 1].flatMap((p) => [p === 0 ? 1 : 0, p === 1 ? 1 : 0]),
      [5, 2],
    );
    const sq = z.map((v) => 20 * Math.tanh(v / 20));
    const e = sq.map((v) => Math.exp(v));
    const want = -Math.log((e[0]! + e[1]!) / (e[0]! + e[1]! + e[2]!)) / 2;
    const f = (zt: Parameters<typeof safeSetLoss>[0]) =>
      safeSetLoss(zt, member, tf.tensor1d(safe), tf.tensor1d(critical), 2);
    expect(tf.tidy(() => f(tf.tensor1d(z)).dataSync()[0]!)).toBeCloseTo(want, 5);
    const g = tf.tidy(() =>
      Array.from(
        tf
          .grad((x) => f(x as Parameters<typeof safeSetLoss>[0]))(tf.tensor1d(z))
          .dataSync(),
      ),
    );
    expect(g[2]!).toBeGreaterThan(0); // descent lowers the losing move
    expect(g[0]!).toBeLessThan(0); // and raises the winnable ones
    expect(g[1]!).toBeLessThan(0);
    // The winnable moves share in proportion to their weight (times the squash's slope): no
    // preference among them is taught.
    const slope = (v: number): number => 1 - Math.tanh(v / 20) ** 2;
    expect(g[0]! / g[1]!).toBeCloseTo((e[0]! * slope(z[0]!)) / (e[1]! * slope(z[1]!)), 4);
    expect(g[3]!).toBeCloseTo(0, 6); // a position with no losing move adds nothing
    expect(g[4]!).toBeCloseTo(0, 6);
    // Once the losing move is far below, the term vanishes.
    expect(tf.tidy(() => f(tf.tensor1d([3, 3, -15, 0, 0])).dataSync()[0]!)).toBeLessThan(1e-6);
  });
});
