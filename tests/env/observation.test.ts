/** The observation's layout, its base-rank invariance, and encoding at an offset. */
import { describe, expect, it } from "vitest";
import { parseCard, rankOf, suitOf } from "../../src/engine/card.js";
import { layout, seededDeck } from "../../src/engine/deal.js";
import { resolveRules } from "../../src/engine/rules.js";
import { makeEnv, ObservationEncoder, observationSize } from "../../src/env/index.js";

describe("ObservationEncoder", () => {
  it("has the documented size per column count", () => {
    expect(observationSize(7)).toBe(637);
    expect(observationSize(8)).toBe(696);
    expect(observationSize(10)).toBe(814);
    const e = new ObservationEncoder(resolveRules("seahaven-towers"));
    expect([e.size, e.shape]).toEqual([814, [814]]);
    expect(makeEnv("Opus-v1").observationSpace.shape).toEqual([637]);
  });

  it("writes each card's place, each column's end and the globals", () => {
    const env = makeEnv("Penguin-v1");
    const { observation: o } = env.reset({ seed: 5 });
    // Seed 5: base J; column 1 is JH AC 6D 9D AS TS KH; JC, JD, JS start on their foundations.
    const K = 11;
    const block = (card: string): number => {
      const c = parseCard(card);
      return (suitOf(c) * 13 + ((rankOf(c) - 10 + 13) % 13)) * K;
    };
    const jh = block("JH");
    expect(Array.from(o.subarray(jh, jh + K))).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, Math.fround(6 / 13)]);
    const kh = block("KH");
    expect(Array.from(o.subarray(kh, kh + K))).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, Math.fround(6 / 13), 0]);
    const jc = block("JC");
    expect(Array.from(o.subarray(jc, jc + K))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    const col1 = 52 * K;
    // 7 cards, run of 1 (TS under KH), end card KH: rel 2, hearts.
    expect(Array.from(o.subarray(col1, col1 + 7))).toEqual([7 / 13, 1 / 13, 3 / 13, 0, 0, 1, 0].map(Math.fround));
    const g = 52 * K + 7 * 7;
    expect(Array.from(o.subarray(g, g + 16))).toEqual(
      [1 / 13, 1 / 13, 0, 1 / 13, 7 / 8, 0, 3 / 52, 7 / 8, 1, 0, 0, 1, 0, 0, 0, 1].map(Math.fround),
    );
    // Every card sits in exactly one place.
    for (let b = 0; b < 52; b++) {
      let places = 0;
      for (let i = 0; i < 9; i++) places += o[b * K + i]!;
      expect(places).toBe(1);
    }
  });

  it("is the same for deals that differ only by the base rank", () => {
    const rules = resolveRules("penguin");
    const enc = new ObservationEncoder(rules);
    const deck = seededDeck(42);
    const a = new Float32Array(enc.size);
    enc.encode(layout(rules, deck), a);
    for (const shift of [1, 5, 12]) {
      const moved = deck.map((c) => ((rankOf(c) + shift) % 13) * 4 + suitOf(c));
      const s = layout(rules, moved);
      expect(s.base).toBe((rankOf(deck[0]!) + shift) % 13);
      const b = new Float32Array(enc.size);
      enc.encode(s, b);
      expect(Array.from(b)).toEqual(Array.from(a));
    }
  });

  it("encodes at an offset without touching the rest of the buffer", () => {
    const env = makeEnv("FreeCell-v1");
    env.reset({ seed: 3 });
    const size = env.encoder.size;
    const big = new Float32Array(3 * size).fill(-1);
    env.encoder.encode(env.state, big, size);
    expect(Array.from(big.subarray(size, 2 * size))).toEqual(Array.from(env.observation));
    expect(big.subarray(0, size).every((v) => v === -1)).toBe(true);
    expect(big.subarray(2 * size).every((v) => v === -1)).toBe(true);
  });
});
