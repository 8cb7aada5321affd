/** The observation's layout, its base-rank invariance, and encoding at an offset. */
import { describe, expect, it } from "vitest";
import { parseCard, rankOf, suitOf } from "../../src/engine/card.js";
import { layout, seededDeck } from "../../src/engine/deal.js";
import { resolveRules } from "../../src/engine/rules.js";
import { makeEnv, ObservationEncoder, observationSize } from "../../src/env/index.js";

describe("ObservationEncoder", () => {
  it("has the documented size per column count", () => {
    expect(observationSize(7)).toBe(693);
    expect(observationSize(8)).toBe(752);
    expect(observationSize(10)).toBe(870);
    const e = new ObservationEncoder(resolveRules("seahaven-towers"));
    expect([e.size, e.shape]).toEqual([870, [870]]);
    expect(makeEnv("Opus-v3").observationSpace.shape).toEqual([693]);
    expect(makeEnv("Stalactites-v3").observationSpace.shape).toEqual([752]);
  });

  it("writes each card's place, each column's end and the globals", () => {
    const env = makeEnv("Penguin-v3");
    const { observation: o } = env.reset({ seed: 5 });
    // Seed 5: base J; column 1 is JH AC 6D 9D AS TS KH; JC, JD, JS start on their foundations.
    const K = 11;
    const block = (card: string): number => {
      const c = parseCard(card);
      return (suitOf(c) * 13 + ((rankOf(c) - 10 + 13) % 13)) * K;
    };
    const jh = block("JH");
    expect(Array.from(o.subarray(jh, jh + K))).toEqual([
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      Math.fround(6 / 13),
    ]);
    const kh = block("KH");
    expect(Array.from(o.subarray(kh, kh + K))).toEqual([
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      Math.fround(6 / 13),
      0,
    ]);
    const jc = block("JC");
    expect(Array.from(o.subarray(jc, jc + K))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    const col1 = 52 * K;
    // 7 cards, run of 1 (TS under KH), end card KH: rel 2, hearts.
    expect(Array.from(o.subarray(col1, col1 + 7))).toEqual(
      [7 / 13, 1 / 13, 3 / 13, 0, 0, 1, 0].map(Math.fround),
    );
    // No flipper holds a card yet: the 8 flipper blocks are all 0.
    const fl = 52 * K + 7 * 7;
    expect(o.subarray(fl, fl + 48).every((v) => v === 0)).toBe(true);
    const g = fl + 48;
    // Counts C D H S, what each needs next (rel + 1), free, empty, home, cells, then the rules:
    // below-base, unlimited, suit, beak, suit foundations.
    expect(Array.from(o.subarray(g, g + 24))).toEqual(
      [
        1 / 13,
        1 / 13,
        0,
        1 / 13,
        2 / 13,
        2 / 13,
        1 / 13,
        2 / 13,
        7 / 8,
        0,
        3 / 52,
        7 / 8,
        1,
        0,
        0,
        1,
        0,
        0,
        0,
        1,
        0,
        0,
        1,
        0,
      ].map(Math.fround),
    );
    // Every card sits in exactly one place.
    for (let b = 0; b < 52; b++) {
      let places = 0;
      for (let i = 0; i < 9; i++) places += o[b * K + i]!;
      expect(places).toBe(1);
    }
  });

  it("names the card in each flipper slot, so positions that flipper actions tell apart differ", () => {
    const env = makeEnv("FreeCell-v3");
    env.reset({ seed: 3 });
    env.step(env.codec.parseAction("1a"));
    env.step(env.codec.parseAction("2a"));
    const s = env.state;
    const [x, y] = [s.cells[0]!, s.cells[1]!];
    const a = env.observation.slice();
    const swapped = s.clone();
    swapped.setCell(0, y);
    swapped.setCell(1, x);
    const b = env.reset({ state: swapped }).observation.slice();
    // The same cards in the same places, but "a" moves a different card: the observations differ
    // exactly in the two flipper blocks.
    const fl = env.encoder.flippersOffset;
    const diff = Array.from(a.keys()).filter((i) => a[i] !== b[i]);
    expect(diff.length).toBeGreaterThan(0);
    expect(diff.every((i) => i >= fl && i < fl + 12)).toBe(true);
    const slot = (o: Float32Array, i: number): number[] =>
      Array.from(o.subarray(fl + i * 6, fl + i * 6 + 6));
    expect(slot(a, 0)).toEqual(slot(b, 1));
    expect(slot(a, 0)).toEqual(
      [1, ((x >> 2) + 1) / 13, ...[0, 1, 2, 3].map((su) => (su === (x & 3) ? 1 : 0))].map(
        Math.fround,
      ),
    );
  });

  it("Stalactites: says which cards are home and what each rank foundation takes next", () => {
    const env = makeEnv("Stalactites-v3", { shuffle: "microsoft" });
    const { observation: o } = env.reset({ seed: 1 });
    const s = env.state;
    const g = env.encoder.globalsOffset;
    const K = env.encoder.cardStride;
    for (let f = 0; f < 4; f++) {
      const first = s.pile[f * 13]!;
      expect(o[g + f]).toBe(Math.fround(1 / 13));
      expect(o[g + 4 + f]).toBe(Math.fround(((((first >> 2) + 1) % 13) + 1) / 13)); // the next rank up
      expect(o[((first & 3) * 13 + (first >> 2)) * K + 8 + 1]).toBe(1); // on a foundation
    }
    expect(o[g + 23]).toBe(1);
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
    const env = makeEnv("FreeCell-v3");
    env.reset({ seed: 3 });
    const size = env.encoder.size;
    const big = new Float32Array(3 * size).fill(-1);
    env.encoder.encode(env.state, big, size);
    expect(Array.from(big.subarray(size, 2 * size))).toEqual(Array.from(env.observation));
    expect(big.subarray(0, size).every((v) => v === -1)).toBe(true);
    expect(big.subarray(2 * size).every((v) => v === -1)).toBe(true);
  });
});
