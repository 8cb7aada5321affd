import { describe, expect, it } from "vitest";
import { NO_CARD } from "../../src/engine/card.js";
import { deal } from "../../src/engine/deal.js";
import { resolveRules } from "../../src/engine/rules.js";
import type { State } from "../../src/engine/state.js";
import {
  encodeFlipperCosts,
  FLIPPER_COST_WIDTH,
  releaseCostOf,
  releaseCosts,
} from "../../src/players/safety/flippers.js";
import { locateCards } from "../../src/players/safety/structure.js";
import { FIRST, position } from "./positions.js";

const rules = resolveRules("penguin");

const encoded = (s: State): number[] => {
  const out = new Float32Array(FLIPPER_COST_WIDTH + 2);
  out.fill(9);
  encodeFlipperCosts(s, out, 1);
  expect(out[0]).toBe(9);
  expect(out[FLIPPER_COST_WIDTH + 1]).toBe(9);
  return Array.from(out.subarray(1, 1 + FLIPPER_COST_WIDTH));
};

const costsOf = (s: State): ReturnType<typeof releaseCostOf>[] => {
  locateCards(s);
  const n = releaseCosts(s);
  return Array.from({ length: n }, (_, j) => releaseCostOf(j));
};

describe("what each parked card costs to release", () => {
  it("costs nothing when its successor is a top card, and two flippers when that successor lies under two cards that have nowhere to go", () => {
    const s = position([13, 12, 5, 5], FIRST, ["7H", "7S"]);
    const [h7, s7] = costsOf(s);
    // 7H: 8H is column 0's top card.
    expect(h7).toEqual({ cost: 0, chain: false, need: 1, home: 0 });
    // 7S: 8S lies under KH (no empty column to take it) and 9H (TH is buried): two flippers.
    // Home would need 6S, under QH (KH buried), JS (QS buried) and TH (JH buried): three.
    expect(s7).toEqual({ cost: 2, chain: false, need: 1, home: 3 });
    const F = 7;
    const free = 5;
    expect(encoded(s)).toEqual(
      [
        2 / F,
        1 / F,
        1 / F,
        1 / F,
        0,
        2 / 20,
        2 / 8,
        0,
        0,
        0,
        (free - 1) / 7,
        (free - 2) / 7,
        2 / 40,
        0,
        0,
        3 / 20,
      ].map(Math.fround),
    );
  });

  it("follows a chain: a card whose successor is parked waits for what releases that one", () => {
    // 8S is parked too; its successor 9S lies under KD (one flipper, no empty column).
    const cols = [
      ["6H", "8H"],
      ["KH", "9H"],
      ["6S", "TH", "JS", "QH"],
      ["9S", "KD"],
      ["QS", "KS"],
      ["TS"],
      ["JH"],
    ];
    const s = position([13, 12, 5, 5], cols, ["7H", "7S", "8S"]);
    const [h7, s7, s8] = costsOf(s);
    expect(h7!.cost).toBe(0);
    // Home for 6S now costs two: QH (KH buried) and JS (QS buried); TH goes onto JH, a top card.
    expect(s8).toEqual({ cost: 1, chain: false, need: 2, home: 2 });
    expect(s7).toEqual({ cost: 1, chain: true, need: 1, home: 2 });
    const f = encoded(s);
    expect(f[0]).toBeCloseTo(3 / 7, 6);
    expect(f[2]! * 7).toBeCloseTo(2, 5); // two cost at least one flipper
    expect(f[3]).toBe(0); // none costs two
    expect(f[8]! * 7).toBeCloseTo(1, 5); // one chain
    expect(f[10]! * 7).toBeCloseTo(4 - 2, 5); // four free, two parked cards cost something
    expect(f[11]! * 7).toBeCloseTo(4 - 2, 5); // four free, debt two
    // With 9S on top instead, the chain opens for nothing.
    const open = position(
      [13, 12, 5, 5],
      [
        ["6H", "8H"],
        ["KH", "9H"],
        ["6S", "TH", "JS", "QH"],
        ["KD", "9S"],
        ["QS", "KS"],
        ["TS"],
        ["JH"],
      ],
      ["7H", "7S", "8S"],
    );
    expect(costsOf(open).map((c) => [c.cost, c.chain])).toEqual([
      [0, false],
      [0, true],
      [0, false],
    ]);
  });

  it("prices a parked top-rank card by what an empty column costs, and a card its foundation wants at nothing", () => {
    // KS parked, no empty column; 6H is the next card its foundation wants.
    const cols = [
      ["8H"],
      ["8S", "KH", "9H"],
      ["6S", "TH", "JS", "QH"],
      ["JH", "9S"],
      ["QS", "7H"],
      ["7S", "TS"],
      ["KD"],
    ];
    const s = position([13, 12, 5, 5], cols, ["KS", "6H"]);
    const [ks, h6] = costsOf(s);
    // Column 0 holds only 8H, whose successor 9H is a top card: emptying it is free.
    expect(ks!.cost).toBe(0);
    expect(ks!.need).toBe(7);
    expect(h6).toEqual({ cost: 0, chain: false, need: 0, home: 0 });
    expect(encoded(s)[14]).toBeCloseTo(1 / 7, 6); // a top-rank card parked, no empty column
    expect(encoded(s)[13]).toBeCloseTo(1 / 7, 6); // 6H can go home now
    // Bury 9H (and 9S, TS's successor JS, 7S's successor 8S): now every column costs at least a flipper to empty.
    const shut = position(
      [13, 12, 5, 5],
      [
        ["8H"],
        ["8S", "9H", "KH"],
        ["6S", "TH", "JS", "QH"],
        ["JH", "9S", "KD"],
        ["QS", "7H"],
        ["TS"],
        ["7S"],
      ],
      ["KS", "6H"],
    );
    expect(costsOf(shut)[0]!.cost).toBe(1);
    // An empty column takes the king for nothing (diamonds all home frees column 6).
    const empty = position(
      [13, 13, 5, 5],
      [
        ["8H"],
        ["8S", "9H", "KH"],
        ["6S", "TH", "JS", "QH"],
        ["JH", "9S"],
        ["QS", "7H"],
        ["7S", "TS"],
        [],
      ],
      ["KS", "6H"],
    );
    expect(costsOf(empty)[0]!.cost).toBe(0);
    expect(encoded(empty)[14]).toBe(0);
  });

  it("does not depend on the order of the flippers or of the columns", () => {
    const cols = [
      ["6H", "8H"],
      ["KH", "9H"],
      ["6S", "TH", "JS", "QH"],
      ["9S", "KD"],
      ["QS", "KS"],
      ["TS"],
      ["JH"],
    ];
    const a = encoded(position([13, 12, 5, 5], cols, ["7H", "7S", "8S"]));
    const b = encoded(position([13, 12, 5, 5], [...cols].reverse(), ["8S", "7H", "7S"]));
    // Gaps between the parked cards do not matter either.
    const gapped = position([13, 12, 5, 5], cols, ["8S", "7H", "7S"]);
    gapped.cells[5] = gapped.cells[0]!;
    gapped.cells[0] = NO_CARD;
    expect(b).toEqual(a);
    expect(encoded(gapped)).toEqual(a);
    expect(a.some((v) => v !== 0)).toBe(true);
  });

  it("is all zero with every flipper free, and never reads past its own slice on real deals", () => {
    const s = deal(rules, 7);
    expect(encoded(s)).toEqual(
      new Array(FLIPPER_COST_WIDTH).fill(0).map((v, i) => (i === 10 || i === 11 ? 1 : v)),
    );
  });
});
