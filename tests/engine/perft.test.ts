/**
 * Perft: the number of legal move sequences of length 1, 2 and 3 from fixed positions of every
 * preset (MS deals #1 and #617, and a mid-game position reached from MS deal #2). The golden
 * numbers in data/perft.json were produced by the engine AND cross-checked, when written and again
 * on every run below, against refPerft: the independent brute-force move checker in reference.ts
 * (every (from, to, count) triple decided from docs/rules.md's text, with its own apply). Both must
 * match the checked-in numbers.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  dealMs,
  parseBoard,
  PRESET_NAMES,
  resolveRules,
  type State,
} from "../../src/engine/index.js";
import { perft } from "./perft.js";
import { refPerft } from "./reference.js";
import { refRules, toRef } from "./helpers.js";

interface Golden {
  preset: string;
  start: string;
  board?: string;
  perft: number[];
}
const golden = JSON.parse(
  readFileSync(new URL("./data/perft.json", import.meta.url), "utf8"),
) as Golden[];

describe("perft golden counts, depth 1-3", () => {
  it("covers every preset", () =>
    expect(new Set(golden.map((g) => g.preset)).size).toBe(PRESET_NAMES.length));
  for (const g of golden)
    it(`${g.preset} ${g.start}: ${g.perft.join(", ")}`, () => {
      const rules = resolveRules(g.preset);
      const s: State = g.board
        ? parseBoard(g.board, rules)
        : dealMs(rules, Number(g.start.slice(2)));
      const before = s.clone();
      expect([1, 2, 3].map((d) => perft(s, d))).toEqual(g.perft);
      expect(s.equals(before) && s.hash() === before.hash()).toBe(true); // apply/undo left it intact
      expect([1, 2, 3].map((d) => refPerft(refRules(rules), toRef(s), d))).toEqual(g.perft);
    });
});

describe("position hash", () => {
  it("is stable across releases (golden values; change only with HASH_VERSION)", () => {
    expect(dealMs(resolveRules("penguin"), 1).hash()).toBe(0xbbd1b535982bef5dn);
    expect(dealMs(resolveRules("freecell"), 1).hash()).toBe(0x2e4ea9f4b6f191fen);
    expect(dealMs(resolveRules("seahaven-towers"), 1).hash()).toBe(0x914fa56f8e11f964n);
  });
  it("ignores which flipper holds a card, but not where tableau cards are", () => {
    const r = resolveRules("eight-off");
    const a = dealMs(r, 1);
    const b = a.clone();
    const [x, y] = [b.cells[0]!, b.cells[3]!];
    b.setCell(0, y);
    b.setCell(3, x);
    expect(b.equals(a)).toBe(false);
    expect(b.hash()).toBe(a.hash());
    const c = a.clone();
    c.push(1, c.pop(0));
    expect(c.hash()).not.toBe(a.hash());
  });
});
