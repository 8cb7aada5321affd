import { describe, expect, it } from "vitest";
import { computeGae, scheduledLr } from "../../src/train/gae.js";
import { Rng } from "../../src/util/rng.js";
import { wilson95 } from "../../src/train/play.js";

describe("GAE", () => {
  it("matches a hand computation with an episode end inside the rollout", () => {
    // One env, 3 steps; the episode ends at t=1, so t=1 does not bootstrap from t=2.
    const rewards = Float32Array.from([1, 2, 3]);
    const values = Float32Array.from([0.5, 1, 1.5]);
    const dones = Uint8Array.from([0, 1, 0]);
    const last = Float32Array.from([2]);
    const adv = new Float32Array(3);
    const ret = new Float32Array(3);
    const g = 0.9;
    const l = 0.8;
    computeGae(rewards, values, dones, last, 1, 3, g, l, adv, ret);
    const d2 = 3 + g * 2 - 1.5;
    const d1 = 2 - 1; // terminal: no bootstrap
    const d0 = 1 + g * 1 - 0.5;
    expect(adv[2]).toBeCloseTo(d2, 5);
    expect(adv[1]).toBeCloseTo(d1, 5);
    expect(adv[0]).toBeCloseTo(d0 + g * l * d1, 5);
    expect(ret[0]).toBeCloseTo(adv[0]! + 0.5, 5);
  });

  it("keeps envs apart in the time-major layout", () => {
    const adv = new Float32Array(4);
    const ret = new Float32Array(4);
    // env 0 earns 1 at t=0; env 1 earns nothing.
    computeGae(
      Float32Array.from([1, 0, 0, 0]),
      new Float32Array(4),
      new Uint8Array(4),
      new Float32Array(2),
      2,
      2,
      1,
      1,
      adv,
      ret,
    );
    expect(Array.from(adv)).toEqual([1, 0, 0, 0]);
  });

  it("anneals the learning rate linearly", () => {
    expect(scheduledLr(1e-3, 0, "linear")).toBeCloseTo(1e-3);
    expect(scheduledLr(1e-3, 0.5, "linear")).toBeCloseTo(5e-4);
    expect(scheduledLr(1e-3, 1, "linear", 0.1)).toBeCloseTo(1e-4);
    expect(scheduledLr(1e-3, 0.7, "constant")).toBe(1e-3);
  });
});

describe("Rng", () => {
  it("restores its state exactly and gives a fixed stream per seed", () => {
    const a = new Rng(42);
    a.next();
    const saved = a.getState();
    const x = [a.next(), a.next(), a.nextU32()];
    const b = new Rng(0);
    b.setState(saved);
    expect([b.next(), b.next(), b.nextU32()]).toEqual(x);
    expect(new Rng(42).nextU32()).toBe(new Rng(42).nextU32());
    expect(new Rng(42).nextU32()).not.toBe(new Rng(43).nextU32());
    for (let i = 0; i < 1000; i++) {
      const v = a.next();
      expect(v >= 0 && v < 1).toBe(true);
    }
    expect(() => b.setState([1, 2, 3])).toThrow(/bad RNG state/);
  });

  it("shuffles into a permutation", () => {
    const p = new Rng(3).shuffle(Int32Array.from({ length: 100 }, (_, i) => i));
    expect(Array.from(p).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(Array.from(p.subarray(0, 10))).not.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe("wilson95", () => {
  it("gives the textbook interval", () => {
    const [lo, hi] = wilson95(57, 300);
    expect(lo).toBeCloseTo(0.1496, 3);
    expect(hi).toBeCloseTo(0.2382, 3);
  });
});
