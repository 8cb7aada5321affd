/**
 * One focused test per rule of docs/rules.md, on hand-built positions (tests/engine/position.ts):
 * wrap, base-rank foundations, each empty-column option, each group-move option with the
 * supermove formula's edge cases, and the engine's conventions.
 */
import { describe, expect, it } from "vitest";
import {
  applyMove,
  cardToString,
  dealMs,
  isLegal,
  moveAutoHome,
  moveFoundation,
  moveCard,
  undoMove,
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

const texts = (s: State): string[] =>
  legalMoves(s)
    .map((m) => moveToString(m, s))
    .sort();
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
    const s = position(
      penguin,
      "5",
      ["AS", "2S", "4S 3S"],
      ["KS"].map(() => "-"),
    );
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
  it("below-base: a wrapping alternate-colour run longer than 13 cards has a second base−1 head", () => {
    // Base 5, colours alternate and ranks wrap A→K and 5→4, so column 1 ends in the 15-card run
    // 4C…3S whose cards 2 and 15 from the top are 4s: both runs they head may fill column 2.
    const rules = resolveRules("penguin", { build: "alternate-color" });
    const text = [
      "penguin-board 1",
      "base: 5",
      "foundations: - - - -",
      "flippers: - - - - - - -",
      "1: KS 4C 3H 2S AD KC QH JS TD 9C 8H 7S 6D 5C 4D 3S",
      "2:",
      "3: AC AH AS 2C 2D 2H 3C 3D 4H",
      "4: 4S 5D 5H 5S 6C 6H 6S 7C 7D",
      "5: 7H 8C 8D 8S 9D 9H 9S TC TH",
      "6: TS JC JD JH QC",
      "7: QD QS KD KH",
    ].join("\n");
    const s = parseBoard(text, rules);
    expect(sizes(s, 1, 2)).toEqual([15, 2]);
    const ref = refLegalMoves(refRules(rules), toRef(s)).map(refMoveKey);
    expect(ref).toContain(`0>1x15:${parseCard("4C")}e`);
    const long = parseMove("12", s);
    expect(moveCount(long)).toBe(15);
    expect(isLegal(s, long)).toBe(true);
    expect(moveToString(long, s)).toBe("12");
    expect(moveCount(parseMove("12/2", s))).toBe(2);
    // Not a run headed by a 4: refused by the check that reads the position without listing.
    expect(isLegal(s, (long & ~(63 << 10)) | (14 << 10))).toBe(false);
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
  it("supermove is the formula whatever the empty-column rule: Penguin, base 4, 3 free, 2 empty", () => {
    // A run of 5 headed by a 3 (base − 1) into an empty column: 4 × 2^(2 − 1) = 8 ≥ 5.
    const cols = ["2D 3S 2S AS KS QS", "2H", "AC", "AD", "AH", "", ""];
    const cells = ["3C", "3D", "3H", "2C", "-", "-", "-"];
    const s = position(resolveRules("penguin", { groupMove: "supermove" }), "4", cols, cells);
    expect(sizes(s, 1, 6)).toEqual([5]);
    // free-cells (the conservative reading) caps it at 3 + 1 = 4.
    expect(
      sizes(position(resolveRules("penguin", { groupMove: "free-cells" }), "4", cols, cells), 1, 6),
    ).toEqual([]);
  });
  it("supermove under kings-only: 3 free cells, 5 empty columns, a 5-card run onto a column", () => {
    const cols = ["TH", "4H 9H 8H 7H 6H 5H", "KH QH JH"];
    const s = position(resolveRules("kings-only-bakers-game"), "A", cols, ["3H", "-", "-", "-"]);
    expect(sizes(s, 2, 1)).toEqual([5]); // 4 × 2^5 ≥ 5
    expect(
      sizes(
        position(resolveRules("kings-only-bakers-game", { groupMove: "free-cells" }), "A", cols, [
          "3H",
          "-",
          "-",
          "-",
        ]),
        2,
        1,
      ),
    ).toEqual([]);
    // Halved once into an empty column: K-headed run of 3, 0 free cells, 5 empties: 1 × 2^4.
    const k = position(
      resolveRules("kings-only-bakers-game"),
      "A",
      ["TH", "AH 9H 8H 7H 6H 5H 4H 3H", "2H KH QH JH"],
      ["KC", "KD", "KS", "QC"],
    );
    expect(sizes(k, 3, 5)).toEqual([3]);
  });
  it("Eight Off: free cells + 1, kings only into empty columns", () => {
    const r = resolveRules("eight-off");
    const cells = ["KC", "QC", "JC", "TC", "9C", "8C", "-", "-"];
    const s = position(r, "A", ["TH 9H 8H", "AH 7H 6H 5H 4H 3H 2H", "KH QH JH"], cells);
    expect(sizes(s, 2, 1)).toEqual([]); // needs 6 > 2 + 1
    const s2 = position(
      r,
      "A",
      ["TH 9H 8H", "AH 7H 6H 5H", "KH QH JH 4H 3H 2H"],
      ["KC", "QC", "JC", "TC", "9C", "-", "-", "-"],
    );
    expect(sizes(s2, 2, 1)).toEqual([3]); // 3 ≤ 3 + 1
  });
  it("unlimited: any run moves whatever the free cells and empty columns", () => {
    const s = position(
      bakers({ groupMove: "unlimited" }),
      "A",
      [...cols, "8C", "9C"],
      ["KC", "QC", "JC", "TC"],
    );
    expect(sizes(s, 2, 1)).toEqual([8]);
    // Penguin: the same, and the run may wrap across K-A.
    // A 9-card run 6S..KS AS that wraps across K-A moves as one unit onto 2S, flippers full.
    const p = position(
      resolveRules("penguin"),
      "5",
      ["3S", "4S AS KS QS JS TS 9S 8S 7S 6S", "5S 2S"],
      ["4C", "4D", "4H", "3C", "3D", "3H", "2C"],
    );
    expect(p.base).toBe(4);
    expect(p.freeCells()).toBe(0);
    expect(sizes(p, 2, 3)).toEqual([9]);
    const q = position(resolveRules("penguin"), "5", [
      "2S",
      "4S AS KS QS JS TS 9S 8S 7S 6S",
      "5S 3S",
    ]);
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
      "penguin-board 1",
      "base: 9",
      "foundations: KC 9D KH -",
      "flippers: 4H 7D 6H 5H - 4C 2S",
      "1:",
      "2: 8D 8S 3C",
      "3: 7S 6S 5S 2D TD 9S 8H 7C 6D 5C 4D 3S 2H AS KD QS JD TS",
      "4:",
      "5: QD JS",
      "6: 8C 7H 6C 5D 4S 3H 2C AD KS",
      "7: AC AH 3D",
    ].join("\n");
    const s = parseBoard(text, rules);
    expect(sizes(s, 3, 5)).toEqual([14]);
    expect(refLegalMoves(refRules(rules), toRef(s)).map(refMoveKey)).toContain(
      `2>4x14:${parseCard("TD")}`,
    );
  });
  it("single: one card at a time", () => {
    const s = position(
      bakers({ groupMove: "single" }),
      "A",
      cols,
      ["-", "-", "-", "-"].map(() => "-"),
    );
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
  it("a copy with hashed = false plays without touching its hash; a clone or copy of it gets the right hash back", () => {
    // Penguin MS 1, and Stalactites MS 1 (rank foundations: the foundation keys too).
    for (const preset of ["penguin", "stalactites"]) {
      const s = dealMs(resolveRules(preset), 1);
      const u = s.clone();
      u.hashed = false;
      const frozen = u.hash();
      // The same line on both: the first legal move each time, a move home when there is one.
      for (let i = 0; i < 40; i++) {
        const moves = legalMoves(s);
        if (moves.length === 0) break;
        const m = moves.find((x) => moveTo(x) === FOUNDATION) ?? moves[0]!;
        applyMove(s, m);
        applyMove(u, m);
      }
      expect(s.found.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(u.equals(s)).toBe(true);
      expect(u.hash()).toBe(frozen);
      expect(s.hash()).not.toBe(frozen);
      expect(u.clone().hash()).toBe(s.hash());
      const back = dealMs(resolveRules(preset), 2);
      back.copyFrom(u);
      expect(back.hash()).toBe(s.hash());
    }
  });
});

describe("penguin-beak-home: base cards go home as they emerge, during play too", () => {
  // MS #1, beak J♦ (home at the start): column 3 is JC 9S KS 4C 7S JH 3D, so JH lies under 3D.
  const r = resolveRules("penguin-beak-home");
  it("the move that exposes a base card carries it home; undo restores both", () => {
    const s = dealMs(r, 1);
    expect(s.column(2).map(cardToString)).toEqual(["JC", "9S", "KS", "4C", "7S", "JH", "3D"]);
    const before = s.clone();
    const m = parseMove("3a", s);
    expect(moveAutoHome(m)).toBe(1);
    expect(moveToString(m, s)).toBe("3a+JH");
    expect(parseMove("3a+JH", s)).toBe(m);
    expect(() => parseMove("3a+JS", s)).toThrow(/sends \+JH home/);
    applyMove(s, m);
    expect(s.column(2).map(cardToString)).toEqual(["JC", "9S", "KS", "4C", "7S"]);
    expect(s.found[2]).toBe(1); // JH on the heart foundation
    expect(s.cells[0]).toBe(parseCard("3D"));
    const h = s.hash();
    s.rehash();
    expect(s.hash()).toBe(h);
    undoMove(s, m);
    expect(s.equals(before) && s.hash() === before.hash()).toBe(true);
  });
  it("a base card is never left at a column's end, so it never goes to a flipper or takes a card", () => {
    const s = dealMs(r, 1);
    applyMove(s, parseMove("3a", s));
    const jh = parseCard("JH");
    for (const m of legalMoves(s)) expect(moveCard(m)).not.toBe(jh);
    for (let c = 0; c < s.nColumns; c++) expect(s.top(c)).not.toBe(jh);
  });
  it("chains: two base cards under the moved card both go home, in order, and come back", () => {
    // Base 5, clubs and spades home. Column 1: 5D and 5H (their foundations empty) under 9H.
    const board = [
      "penguin-board 1",
      "base: 5",
      "foundations: 4C - - 4S",
      "flippers: - - - - - - -",
      "1: 6D 5D 5H 9H",
      "2: 7D 8D 9D TD",
      "3: JD QD KD AD",
      "4: 2D 3D 4D",
      "5: 6H 7H 8H TH",
      "6: JH QH KH AH",
      "7: 2H 3H 4H",
    ].join("\n");
    const s = parseBoard(board, r);
    expect(s.found[1]).toBe(0); // diamonds foundation empty
    const m = parseMove("1a", s);
    expect(moveAutoHome(m)).toBe(2);
    expect(moveToString(m, s)).toBe("1a+5H+5D");
    const before = s.clone();
    applyMove(s, m);
    expect(s.column(0).map(cardToString)).toEqual(["6D"]);
    expect([s.found[1], s.found[2]]).toEqual([1, 1]);
    undoMove(s, m);
    expect(s.equals(before) && s.hash() === before.hash()).toBe(true);
  });
});

describe("Stalactites: rank foundations, no building", () => {
  const r = resolveRules("stalactites");
  it("only a column's last card moves, to a cell or a foundation that needs its rank, in any suit", () => {
    // MS #1: foundations start 6S 9C 2H 6H; column ends 6D 8S 8D QS 6C 3D 8C TC.
    const s = dealMs(r, 1);
    expect(texts(s)).toEqual(["1a", "2a", "3a", "4a", "5a", "6a", "6h", "7a", "8a", "8h"]);
    const m = parseMove("6h", s);
    expect(moveFoundation(m)).toBe(2); // 3D onto the 2H foundation
    applyMove(s, parseMove("8h", s)); // TC onto 9C
    // 7D is now at column 8's end and both the 6S and the 6H foundations take it: two moves.
    const sevens = legalMoves(s).filter(
      (x) => moveTo(x) === FOUNDATION && moveCard(x) === parseCard("7D"),
    );
    expect(sevens.map(moveFoundation)).toEqual([0, 3]);
    expect(sevens.map((x) => moveToString(x, s))).toEqual(["8h", "8h4"]);
    expect(parseMove("8h4", s)).toBe(sevens[1]);
    expect(() => parseMove("8h2", s)).toThrow(/foundation 2 does not take that card/);
    const before = s.clone();
    applyMove(s, sevens[1]!);
    expect(cardToString(s.foundationTop(3))).toBe("7D");
    expect(s.hash()).not.toBe(before.hash());
    const other = before.clone();
    applyMove(other, sevens[0]!);
    expect(other.hash()).not.toBe(s.hash()); // same cards home, on different foundations
    undoMove(s, sevens[1]!);
    expect(s.equals(before) && s.hash() === before.hash()).toBe(true);
  });
  it("a cell card goes only home, and nothing is ever built on a column", () => {
    const s = dealMs(r, 1);
    applyMove(s, parseMove("1a", s));
    expect(texts(s).filter((t) => t.startsWith("a"))).toEqual([]); // 6D: no foundation needs a 6
    expect(texts(s).some((t) => /^\d\d$/.test(t))).toBe(false);
  });
});
