// The one position set, never-repeat guard and tie-break that every player shares, and the one
// deal-split check of the training runs.
import { describe, expect, it } from "vitest";
import { deal } from "../../src/engine/deal.js";
import { applyMove, undoMove } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import { PositionSet } from "../../src/engine/position-set.js";
import { bestAllowed, guardActions } from "../../src/agents/repeat-guard.js";
import { ActionCodec } from "../../src/env/actions.js";
import { checkSplit } from "../../src/train/splits.js";

const rules = resolveRules("penguin");

describe("PositionSet", () => {
  it("keeps 64-bit hashes apart through growth and clears in one step", () => {
    const set = new PositionSet(4);
    // Many hashes share their high word, and one low word comes with two high words.
    for (let i = 0; i < 3000; i++) expect(set.add(i * 2654435761, i & 7)).toBe(true);
    for (let i = 0; i < 3000; i++) expect(set.add(i * 2654435761, i & 7)).toBe(false);
    expect(set.size).toBe(3000);
    expect(set.has(0, 0)).toBe(true);
    expect(set.has(0, 1)).toBe(false);
    expect(set.has(2654435761, 2)).toBe(false);
    const copy = new PositionSet();
    copy.copyFrom(set);
    expect(copy.entries().sort()).toEqual(set.entries().sort());
    set.clear();
    expect(set.size).toBe(0);
    expect(set.has(0, 0)).toBe(false);
    expect(set.add(0, 0)).toBe(true);
  });
});

describe("the never-repeat guard", () => {
  it("masks exactly the actions leading to a seen position, and keeps all when every one does", () => {
    const s = deal(rules, 7);
    const codec = new ActionCodec(rules);
    const mask = new Uint8Array(codec.n);
    const moves = new Int32Array(codec.n);
    const order = new Int32Array(512);
    const n = codec.fillMask(s, mask, moves, order);
    expect(n).toBeGreaterThan(2);
    const seen = new PositionSet();
    // The positions after the first two legal actions (in engine order) were seen.
    for (const a of [order[0]!, order[1]!]) {
      applyMove(s, moves[a]!);
      seen.addState(s);
      undoMove(s, moves[a]!);
    }
    const before = s.hashLo;
    const out = new Uint8Array(codec.n);
    expect(guardActions(s, mask, 0, codec.n, moves, seen, out, 0)).toBe(n - 2);
    expect(s.hashLo).toBe(before);
    for (let a = 0; a < codec.n; a++)
      expect(out[a]).toBe(mask[a] === 1 && a !== order[0] && a !== order[1] ? 1 : 0);
    // In place gives the same.
    const inPlace = mask.slice();
    guardActions(s, inPlace, 0, codec.n, moves, seen);
    expect(inPlace).toEqual(out);
    // Every legal action repeats: all stay allowed.
    for (let k = 0; k < n; k++) {
      applyMove(s, moves[order[k]!]!);
      seen.addState(s);
      undoMove(s, moves[order[k]!]!);
    }
    expect(guardActions(s, mask, 0, codec.n, moves, seen, out, 0)).toBe(0);
    expect(out).toEqual(mask);
  });

  it("breaks ties by the first candidate in the order given", () => {
    const score = [1, 5, 5, 2, 5];
    const allowed = new Uint8Array([1, 1, 1, 1, 1]);
    expect(bestAllowed(score, allowed, 5)).toBe(1);
    expect(bestAllowed(score, allowed, 5, Int32Array.from([4, 3, 2, 1, 0]))).toBe(4);
    allowed[1] = 0;
    expect(bestAllowed(score, allowed, 5)).toBe(2);
    expect(bestAllowed(score, new Uint8Array(5), 5)).toBe(-1);
    // Scores and flags of a block at an offset (one row of a batch).
    expect(
      bestAllowed(
        [9, 9, ...score],
        new Uint8Array([1, 1, 1, 1, 1, 1, 1]),
        5,
        Int32Array.from([4, 3, 2, 1, 0]),
        2,
      ),
    ).toBe(4);
  });
});

describe("checkSplit", () => {
  it("accepts training and validation seeds in their splits and refuses any other", () => {
    expect(
      checkSplit({ training: { from: 2_000_000 }, validation: { from: 200_000, count: 500 } }),
    ).toMatchObject({
      training: "2000000 up",
      validation: "200000–200499",
      evaluation: "10001–20000",
      splits: { test: "10001–20000 (played once per shipped model)" },
    });
    expect(
      checkSplit({
        training: { from: 1_000_001, count: 10 },
        evaluation: { from: 1, count: 1000 },
      }),
    ).toMatchObject({ training: "1000001–1000010", evaluation: "1–1000" });
    expect(() => checkSplit({ training: { from: 9_000, count: 5 } })).toThrow(
      /training seeds 9000–9004 include seeds below 100000, which are reserved for evaluation/,
    );
    expect(() => checkSplit({ training: { from: 5_000 } })).toThrow(
      /training seeds from 5000 up include seeds below 100000/,
    );
    // Validation seeds are not training seeds, and the other way round.
    expect(() => checkSplit({ training: { from: 999_990, count: 5 } })).toThrow(
      /training seeds 999990–999994 must lie in 1000000 up/,
    );
    expect(() =>
      checkSplit({ training: { from: 1_000_000 }, validation: { from: 1_500_000, count: 10 } }),
    ).toThrow(/validation seeds 1500000–1500009 must lie in 100000–999999/);
    expect(() =>
      checkSplit({ training: { from: 1_000_000 }, validation: { from: 999_995, count: 10 } }),
    ).toThrow(/validation seeds 999995–1000004 must lie in 100000–999999/);
    expect(() =>
      checkSplit({ training: { from: 1_000_000 }, validation: { from: 99_999, count: 1 } }),
    ).toThrow(/reserved for evaluation/);
  });
});
