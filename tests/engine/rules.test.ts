/**
 * One focused test per rule of RULES.md, on hand-built positions (tests/engine/position.ts):
 * wrap, base-rank foundations, each empty-column option, each group-move option with the
 * supermove formula's edge cases, and the engine's conventions.
 */
import { describe, expect, it } from "vitest";
import {
  CELL0,
  FOUNDATION,
  legalMoves,
  moveCount,
  parseBoard,
  parseCard,
  moveFrom,
  moveTo,
  moveToString,
  parseMove,
  resolveRules,
  type RuleOverrides,
  type State,
} from "../../src/engine/index.js";
import { IllegalMoveError } from "../../src/errors.js";
import { position } from "./position.js";
import { refLegalMoves, refMoveKey } from "./reference.js";
import { refRules, toRef } from "./helpers.js";

const texts = (s: State): string[] => legalMoves(s).map((m) => moveToString(m, s)).sort();
/** Sizes of the legal moves from column `from` to column `to` (1-based labels). */
const sizes = (s: State, from: number, to: number): number[] =>
  legalMoves(s)
    .filter((m) => moveFrom(m) === from - 1 && moveTo(m) === to - 1)
    .map(moveCount)
    .sort((a, b) => b - a);

describe("wrap (beak base) and base-rank foundations", () => {
  const penguin = resolveRules("penguin");
  // Base 5: spades 5..Q are home, K A 2 3 4 of spades are out; every other suit is home.
  const cols = ["AS", "2S KS", "4S 3S"];

  it("a K goes on an A in the tableau, and the K is next for a foundation at Q", () => {
    const s = position(penguin, "5", cols);
    expect(texts(s)).toEqual(["1a", "21", "2a", "2h", "3a"]);
  });
  it("foundations wrap K→A from the base rank", () => {
    const s = position(penguin, "5", ["AS", "2S", "4S 3S"], ["KS"].map(() => "-"));
    // With KS home too (top KS), the ace is next, then the 2.
    expect(s.found[3]).toBe(9); // 5 6 7 8 9 T J Q K
    expect(texts(s)).toContain("1h");
    expect(() => parseMove("2h", s)).toThrow(/not the next one its foundation needs/);
  });
  it("a base−1 card may go onto the base card (the one step across the base)", () => {
    const s = position(penguin, "5", ["5S", "4S", "6S 7S 8S 9S TS JS QS KS AS 2S 3S"]);
    expect(s.found[3]).toBe(0);
    expect(texts(s)).toContain("21");
    expect(texts(s)).toContain("1h"); // the base card starts its own foundation
    expect(() => parseMove("2h", s)).toThrow(IllegalMoveError);
  });
  it("ace-based rules do not wrap: no K on an A", () => {
    const bakers = resolveRules("bakers-game");
    // Spades 2..Q stand in ascending order (no runs) so the spade foundation can be empty.
    const s = position(bakers, "A", ["AS", "KS", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"]);
    expect(texts(s)).not.toContain("21");
    expect(texts(s)).toContain("32"); // QS onto KS
    expect(texts(s)).toContain("1h");
    expect(() => parseMove("21", s)).toThrow(/builds on the destination/);
  });
  it("cards never leave a foundation", () => {
    const s = position(penguin, "5", cols);
    expect(legalMoves(s).some((m) => moveFrom(m) === FOUNDATION)).toBe(false);
    expect(() => parseMove("h1", s)).toThrow(IllegalMoveError);
  });
});

describe("empty columns", () => {
  // Base 5: 4S (base − 1) and 3H are available; a 4C waits in flipper a.
  const cols = ["4H 4S", "4D 3H"];
  const at = (o: RuleOverrides): State => position(resolveRules("penguin", o), "5", cols, ["4C"]);

  it("below-base: only a base−1 card (or a run headed by one) fills an empty column", () => {
    const t = texts(at({}));
    expect(t).toEqual(expect.arrayContaining(["13", "17", "a3", "a7"]));
    expect(t.filter((m) => m.startsWith("2") && /^2[3-7]/.test(m))).toEqual([]);
    expect(() => parseMove("23", at({}))).toThrow(/only a card .* one rank below the base/);
  });
  it("any: every card may fill an empty column", () => {
    const t = texts(at({ emptyColumn: "any" }));
    expect(t).toEqual(expect.arrayContaining(["13", "23", "a3", "27"]));
  });
  it("none: nothing fills an empty column", () => {
    const t = texts(at({ emptyColumn: "none" }));
    expect(t.filter((m) => /^[12a][3-7]/.test(m))).toEqual([]);
    expect(() => parseMove("13", at({ emptyColumn: "none" }))).toThrow(/never refill/);
  });
  it("kings only under an ace base (kings-only Baker's Game)", () => {
    const r = resolveRules("kings-only-bakers-game");
    const s = position(r, "A", ["QH KS", "JH KH", "QS", "JS", "", "", "", ""], ["KC", "QC"]);
    const t = texts(s);
    expect(t).toEqual(expect.arrayContaining(["15", "a5"]));
    expect(t).not.toContain("b5");
    expect(t).not.toContain("35");
  });
  it("a whole column never moves into an empty column (it would only swap labels)", () => {
    const s = position(resolveRules("penguin-relaxed"), "5", ["4S 3S", "4H"]);
    expect(sizes(s, 1, 3)).toEqual([1]); // 3S alone may go; the whole "4S 3S" may not
    expect(sizes(s, 2, 3)).toEqual([]);
  });
});

describe("group moves", () => {
  // Ace base: TH alone; a run 9H..2H (8 cards) on AH; K Q J of hearts; spades J Q K apart; 2 empties.
  const cols = ["TH", "AH 9H 8H 7H 6H 5H 4H 3H 2H", "KH QH JH", "JS", "QS", "KS"];
  const bakers = (o: RuleOverrides = {}) => resolveRules("bakers-game", o);

  it("supermove: (free + 1) × 2^empties onto a non-empty column", () => {
    // 1 free cell, 2 empty columns: 2 × 4 = 8, so the 8-card run may go onto TH.
    const s = position(bakers(), "A", cols, ["KC", "QC", "JC", "-"]);
    expect(sizes(s, 2, 1)).toEqual([8]);
    // 0 free cells: 1 × 4 = 4 < 8.
    expect(sizes(position(bakers(), "A", cols, ["KC", "QC", "JC", "TC"]), 2, 1)).toEqual([]);
  });
  it("supermove: halved once when the target column is itself empty", () => {
    // 1 free, 2 empties, target empty: 2 × 2^1 = 4; every size 1..4 is its own move under "any".
    const s = position(bakers(), "A", cols, ["KC", "QC", "JC", "-"]);
    expect(sizes(s, 2, 7)).toEqual([4, 3, 2, 1]);
    expect(moveToString(parseMove("27", s), s)).toBe("27");
    expect(moveCount(parseMove("27", s))).toBe(4);
    expect(moveCount(parseMove("27/2", s))).toBe(2);
    expect(() => parseMove("27/5", s)).toThrow(IllegalMoveError);
  });
  it("supermove edge cases: no free cells with one or no empty column", () => {
    // 0 free, 1 empty (col 7): onto a column 2 cards; into the empty column 1 card.
    const one = position(bakers(), "A", [...cols, "", "9C"], ["KC", "QC", "JC", "TC"]);
    expect(sizes(one, 2, 7)).toEqual([1]);
    expect(sizes(one, 2, 1)).toEqual([]); // 1 × 2^1 = 2 < 8
    // 0 free, 0 empty: single cards only.
    const none = position(bakers(), "A", [...cols, "8C", "9C"], ["KC", "QC", "JC", "TC"]);
    expect(sizes(none, 2, 1)).toEqual([]);
  });
  it("supermove: empty columns count only when any card may fill them", () => {
    // Same position under kings-only: 1 free cell, empties do not count: at most 2 cards.
    const s = position(resolveRules("kings-only-bakers-game"), "A", cols, ["KC", "QC", "JC", "-"]);
    expect(sizes(s, 2, 1)).toEqual([]);
    // The K-headed run of 3 into an empty column needs 3 ≤ free + 1: 4 free cells allow it.
    const k = position(resolveRules("kings-only-bakers-game"), "A", ["TH", "AH 9H 8H 7H 6H 5H 4H 3H", "2H KH QH JH"]);
    expect(sizes(k, 3, 5)).toEqual([3]);
  });
  it("Eight Off: free cells + 1, kings only into empty columns", () => {
    const r = resolveRules("eight-off");
    const cells = ["KC", "QC", "JC", "TC", "9C", "8C", "-", "-"];
    const s = position(r, "A", ["TH 9H 8H", "AH 7H 6H 5H 4H 3H 2H", "KH QH JH"], cells);
    expect(sizes(s, 2, 1)).toEqual([]); // needs 6 > 2 + 1
    const s2 = position(r, "A", ["TH 9H 8H", "AH 7H 6H 5H", "KH QH JH 4H 3H 2H"], ["KC", "QC", "JC", "TC", "9C", "-", "-", "-"]);
    expect(sizes(s2, 2, 1)).toEqual([3]); // 3 ≤ 3 + 1
  });
  it("unlimited: any run moves whatever the free cells and empty columns", () => {
    const s = position(bakers({ groupMove: "unlimited" }), "A", [...cols, "8C", "9C"], ["KC", "QC", "JC", "TC"]);
    expect(sizes(s, 2, 1)).toEqual([8]);
    // Penguin: the same, and the run may wrap across K-A.
    // A 9-card run 6S..KS AS that wraps across K-A moves as one unit onto 2S, flippers full.
    const p = position(resolveRules("penguin"), "5", ["3S", "4S AS KS QS JS TS 9S 8S 7S 6S", "5S 2S"], ["4C", "4D", "4H", "3C", "3D", "3H", "2C"]);
    expect(p.base).toBe(4);
    expect(p.freeCells()).toBe(0);
    expect(sizes(p, 2, 3)).toEqual([9]);
    const q = position(resolveRules("penguin"), "5", ["2S", "4S AS KS QS JS TS 9S 8S 7S 6S", "5S 3S"]);
    expect(sizes(q, 3, 1)).toEqual([]); // 3S onto 2S is upward: illegal
    expect(sizes(q, 1, 3)).toEqual([1]); // 2S onto 3S
    expect(sizes(q, 2, 1)).toEqual([9]); // the wrapped run headed by AS onto 2S
  });
  it("a wrapped alternate-colour run can pass 13 cards; its deeper heads still move", () => {
    // Found by comparing the first generateMoves with the current one: with build
    // "alternate-color" and wrap, a rank repeats 13 cards down a run, so the TD 14 cards down
    // may go onto JS although the TS on top may not. The reference model agrees.
    const rules = resolveRules("penguin", { build: "alternate-color" });
    const text = [
      "penguin-board 1", "base: 9", "foundations: KC 9D KH -", "flippers: 4H 7D 6H 5H - 4C 2S",
      "1:", "2: 8D 8S 3C", "3: 7S 6S 5S 2D TD 9S 8H 7C 6D 5C 4D 3S 2H AS KD QS JD TS",
      "4:", "5: QD JS", "6: 8C 7H 6C 5D 4S 3H 2C AD KS", "7: AC AH 3D",
    ].join("\n");
    const s = parseBoard(text, rules);
    expect(sizes(s, 3, 5)).toEqual([14]);
    expect(refLegalMoves(refRules(rules), toRef(s)).map(refMoveKey)).toContain("2>4x14:" + parseCard("TD"));
  });
  it("single: one card at a time", () => {
    const s = position(bakers({ groupMove: "single" }), "A", cols, ["-", "-", "-", "-"].map(() => "-"));
    expect(sizes(s, 2, 1)).toEqual([]);
    expect(sizes(s, 2, 7)).toEqual([1]);
  });
});

describe("engine conventions", () => {
  it("a card goes to the lowest free flipper; no flipper-to-flipper moves", () => {
    const s = position(resolveRules("penguin"), "5", ["4H 4S", "4D 3H"], ["-", "4C"]);
    const toCell = legalMoves(s).filter((m) => moveTo(m) >= CELL0 && moveTo(m) < FOUNDATION);
    expect(toCell.map((m) => moveTo(m) - CELL0)).toEqual([0, 0]);
    const t = position(resolveRules("penguin"), "5", ["4H 4S", "4D 3H"], ["4C", "-"]);
    expect(parseMove("1a", t)).toBe(parseMove("1g", t));
    expect(moveTo(parseMove("1a", t))).toBe(CELL0 + 1);
    expect(() => parseMove("ab", t)).toThrow(/flipper to flipper/);
  });
  it("bad notation is an IllegalMoveError naming the syntax", () => {
    const s = position(resolveRules("penguin"), "5", ["4H 4S", "4D 3H"]);
    expect(() => parseMove("xyz", s)).toThrow(/moves are <from><to>/);
    expect(() => parseMove("8h", s)).toThrow(/no column or flipper "8"/);
    expect(() => parseMove("19", s)).toThrow(/no column "9"/);
    expect(() => parseMove("31", s)).toThrow(/source is empty/);
  });
});
