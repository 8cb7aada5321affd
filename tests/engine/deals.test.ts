/**
 * Golden deals. The FreeCell layouts below are copied from independent published sources (cited
 * per deal), not produced by this engine; the Penguin, Eight Off and Seahaven layouts of MS deck
 * #1 were derived by hand from the published deal #1 using docs/rules.md's layout rules.
 */
import { describe, expect, it } from "vitest";
import {
  cardToString,
  deal,
  dealMs,
  msDeck,
  NO_CARD,
  parseCard,
  rankOf,
  resolveRules,
  seededDeck,
  suitOf,
  type State,
} from "../../src/engine/index.js";
import { layout } from "../../src/engine/deal.js";
import { UsageError } from "../../src/errors.js";

const cols = (s: State): string[] =>
  Array.from({ length: s.nColumns }, (_, c) => s.column(c).map(cardToString).join(" "));
const cells = (s: State): string[] =>
  Array.from(s.cells.subarray(0, s.nCells), (c) => (c === NO_CARD ? "-" : cardToString(c)));
/** A row-per-line published layout (Rosetta Code style) turned into columns. */
function rowsToColumns(rows: string[], n: number): string[] {
  const out: string[][] = Array.from({ length: n }, () => []);
  for (const row of rows) row.split(" ").forEach((c, i) => out[i]!.push(c));
  return out.map((c) => c.join(" "));
}

// Rosetta Code, "Deal cards for FreeCell" (rosettacode.org/wiki/Deal_cards_for_FreeCell): games #1 and #617, rows.
const ROSETTA: Record<number, string[]> = {
  1: [
    "JD 2D 9H JC 5D 7H 7C 5H",
    "KD KC 9S 5S AD QC KH 3H",
    "2S KS 9D QD JS AS AH 3C",
    "4C 5C TS QH 4H AC 4D 7S",
    "3S TD 4S TH 8H 2C JH 7D",
    "6D 8S 8D QS 6C 3D 8C TC",
    "6S 9C 2H 6H",
  ],
  617: [
    "7D AD 5C 3S 5S 8C 2D AH",
    "TD 7S QD AC 6D 8H AS KH",
    "TH QC 3H 9D 6S 8D 3D TC",
    "KD 5H 9S 3C 8S 7H 4D JS",
    "4C QS 9C 9H 7C 6H 2C 2S",
    "4S TS 2H 5D JC 6C JH QH",
    "JD KS KC 4H",
  ],
};
// Column-per-line layouts (deepest card first):
// #24, #11982, #1234567: Freecell Solver's board_gen tests (make_multi_boards / fc_solve_get_board), "board %d was generated fine";
// #123456: Shlomi Fish's make_pysol_freecell_board tests, 'ms123456' -> "Microsoft Deal 123456";
// #100000: Freecell Solver's make_pysol tests, `--ms -t 100000` ("the FC-Pro board").
const COLUMNS: Record<number, string[]> = {
  24: [
    "4C 2C 9C 8C QS 4S 2H",
    "5H QH 3C AC 3H 4H QD",
    "QC 9S 6H 9H 3S KS 3D",
    "5D 2S JC 5C JH 6D AS",
    "2D KD TH TC TD 8D",
    "7H JS KH TS KC 7C",
    "AH 5S 6S AD 8H JD",
    "7S 6C 7D 4D 8S 9D",
  ],
  11982: [
    "AH 3D KD JC 6C JD KC",
    "AS 3H 6H 5D 2C 7D 8D",
    "4H QS 5S 5C TH 8H 2S",
    "AC QC 4D 8C QH 9C 3S",
    "2D 8S 9H 9D 6D 2H",
    "6S 7H JH TD TC QD",
    "TS AD 9S KH 4S 4C",
    "JS KS 3C 7C 7S 5H",
  ],
  1234567: [
    "2H 7S 4S 4D 8C KD QD",
    "9C KH 5D 6C TC 5H 7D",
    "JC TH JD 2S KS TS 9H",
    "4H 8H 5C 9D 5S JS 3D",
    "AD 3H 6D JH 3S KC",
    "QC 9S 8D AS 7C 8S",
    "AC 3C QH TD 6S 6H",
    "2C 2D 4C 7H AH QS",
  ],
  123456: [
    "QD TC AS KC AH KH 6H",
    "6D TD 8D TH 7C 2H 9C",
    "AC AD 5C 5H 8C 9H 9D",
    "JS 8S 4D 4C 2S 7D 3C",
    "7H 7S 9S 2C JC 5S",
    "5D 3S 3D 3H KD JH",
    "6C QS 4S 2D KS TS",
    "JD QH 6S 4H QC 8H",
  ],
  100000: [
    "5C 6S JC 2D 2C 8S 3C",
    "QS 7S 9C QD JD 9D AS",
    "8C TH 3H 4C TS 2H QC",
    "AD 7C JS QH 5D 6D 4H",
    "7D 4S KD 7H 5S 3D",
    "TD 4D TC 6H 8D 2S",
    "KC AH JH 8H KH 6C",
    "3S AC 9H KS 5H 9S",
  ],
};

describe("Microsoft deals, FreeCell layout, against published layouts", () => {
  const freecell = resolveRules("freecell");
  for (const [n, rows] of Object.entries(ROSETTA))
    it(`#${n} (Rosetta Code)`, () =>
      expect(cols(dealMs(freecell, Number(n)))).toEqual(rowsToColumns(rows, 8)));
  for (const [n, columns] of Object.entries(COLUMNS))
    it(`#${n} (Freecell Solver / PySolFC tests)`, () =>
      expect(cols(dealMs(freecell, Number(n)))).toEqual(columns));
  it("Baker's Game #N uses the same layout, empty cells and foundations", () => {
    const s = dealMs(resolveRules("bakers-game"), 24);
    expect(cols(s)).toEqual(COLUMNS[24]);
    expect(cells(s)).toEqual(["-", "-", "-", "-"]);
    expect(Array.from(s.found)).toEqual([0, 0, 0, 0]);
  });
  it("the largest deal number works and the range is enforced", () => {
    expect(new Set(msDeck(2 ** 31 - 1)).size).toBe(52);
    expect(() => msDeck(0)).toThrow(UsageError);
    expect(() => msDeck(2 ** 31)).toThrow(/from 1 to 2147483647/);
    expect(() => msDeck(1.5)).toThrow(UsageError);
  });
});

describe("other layouts of MS deck #1 (derived by hand from the published deck order)", () => {
  it("Penguin #1: beak JD, foundations JC JH JS, 7x7 tableau", () => {
    const s = dealMs(resolveRules("penguin"), 1);
    expect(s.base).toBe(rankOf(parseCard("JD")));
    expect(cols(s)).toEqual([
      "JD KD 3H 3C 4D 2C 3D",
      "2D KC 2S 4C 7S 7D 8C",
      "9H 9S KS 5C 3S 6D TC",
      "5D 5S 9D TS TD 8S 6S",
      "7H AD QD QH 4S 8D 9C",
      "7C QC AS 4H TH QS 2H",
      "5H KH AH AC 8H 6C 6H",
    ]);
    expect(Array.from(s.found)).toEqual([1, 0, 1, 1]); // C D H S: JC, -, JH, JS
    expect(cells(s)).toEqual(["-", "-", "-", "-", "-", "-", "-"]);
  });
  it("penguin-beak-home #1: JD home, the other 51 dealt 8,8,7,7,7,7,7; no J ends a column", () => {
    const s = dealMs(resolveRules("penguin-beak-home"), 1);
    expect(cols(s)).toEqual([
      "2D KD 3H AH AC 8H QS 2H",
      "9H KC 2S 3C 4D 2C 6C 6H",
      "JC 9S KS 4C 7S JH 3D",
      "5D 5S 9D 5C 3S 7D 8C",
      "7H AD QD TS TD 6D TC",
      "7C QC JS QH 4S 8S 6S",
      "5H KH AS 4H TH 8D 9C",
    ]);
    expect(Array.from(s.found)).toEqual([0, 1, 0, 0]);
  });
  it("penguin-beak-home moves a base card that ends a column home, repeatedly", () => {
    // Deck: beak 5C, then cards so that 5D ends column 1 with 5H under it... build a deck by hand.
    const rules = resolveRules("penguin-beak-home");
    const deck = [parseCard("5C")];
    const rest = Array.from({ length: 52 }, (_, i) => i).filter((c) => c !== deck[0]);
    // Columns get deck[1+k] for k ≡ c (mod 7); put 5H then 5D as the last two cards of column 1.
    const tail = [parseCard("5H"), parseCard("5D")];
    const others = rest.filter((c) => !tail.includes(c));
    const order: number[] = [];
    // Slots 0..50; column 0 gets slots 0,7,...,49 (8 cards): slot 42 = 5H, slot 49 = 5D.
    for (let slot = 0, o = 0; slot < 51; slot++)
      order.push(slot === 42 ? tail[0]! : slot === 49 ? tail[1]! : others[o++]!);
    const s = layout(rules, [...deck, ...order]);
    expect(s.found[suitOf(parseCard("5D"))]).toBe(1);
    expect(s.found[suitOf(parseCard("5H"))]).toBe(1);
    expect(s.len[0]).toBe(6);
  });
  it("Eight Off #1: first 48 cards in 8 columns of 6, the last 4 in cells 1-4", () => {
    const s = dealMs(resolveRules("eight-off"), 1);
    expect(cols(s)).toEqual(rowsToColumns(ROSETTA[1]!.slice(0, 6), 8));
    expect(cells(s)).toEqual(["6S", "9C", "2H", "6H", "-", "-", "-", "-"]);
  });
  it("Seahaven Towers #1: first 50 cards in 10 columns of 5, the last 2 in cells 1-2", () => {
    const s = dealMs(resolveRules("seahaven-towers"), 1);
    const deck = ROSETTA[1]!.join(" ").split(" ");
    const rows = [0, 1, 2, 3, 4].map((r) => deck.slice(r * 10, r * 10 + 10).join(" "));
    expect(cols(s)).toEqual(rowsToColumns(rows, 10));
    expect(cells(s)).toEqual(["2H", "6H", "-", "-"]);
  });
  it("Stalactites #1: first 48 cards in 8 columns of 6, the last 4 onto foundations 1-4", () => {
    const s = dealMs(resolveRules("stalactites"), 1);
    expect(cols(s)).toEqual(rowsToColumns(ROSETTA[1]!.slice(0, 6), 8));
    // Eight Off's four cell cards, here each the first card (and base rank) of its foundation.
    expect([0, 1, 2, 3].map((f) => cardToString(s.foundationTop(f)))).toEqual([
      "6S",
      "9C",
      "2H",
      "6H",
    ]);
    expect([0, 1, 2, 3].map((f) => s.foundationBase(f))).toEqual([5, 8, 1, 5]);
    expect(Array.from(s.found)).toEqual([1, 1, 1, 1]);
    expect(s.cardsHome()).toBe(4);
    // Seeded deals use the same layout.
    const t = deal(resolveRules("stalactites"), 7);
    expect([t.len.slice(0, 8).every((n) => n === 6), t.cardsHome()]).toEqual([true, 4]);
  });
});

describe("seeded deals", () => {
  it("are the same on every machine (snapshot: must not change without a version bump)", () => {
    const r = resolveRules("penguin");
    expect(deal(r, 1).column(0).map(cardToString).join(" ")).toBe("QS 5C 9C 6C 8S AD 9H");
    expect(deal(r, "abc").column(0).map(cardToString).join(" ")).toBe("6C KD TS AD AS 8C 9H");
    expect(seededDeck(7)).toEqual(seededDeck("7"));
    expect(seededDeck(7)).not.toEqual(seededDeck(8));
  });

  it("Penguin invariants over 10,000 seeds", () => {
    const r = resolveRules("penguin");
    let bad = 0;
    for (let seed = 0; seed < 10_000; seed++) {
      const s = deal(r, seed);
      const seen = new Set<number>();
      let tableau = 0;
      for (let c = 0; c < 7; c++) {
        if (s.len[c] !== 7) bad++;
        for (const card of s.column(c)) {
          seen.add(card);
          tableau++;
        }
      }
      const beak = s.column(0)[0]!;
      const started = [0, 1, 2, 3].filter((su) => s.found[su] === 1);
      for (const su of started) seen.add(s.base * 4 + su);
      const ok =
        tableau === 49 &&
        seen.size === 52 &&
        rankOf(beak) === s.base &&
        started.length === 3 &&
        s.found[suitOf(beak)] === 0 &&
        s.freeCells() === 7 &&
        // No other base-rank card stayed in the tableau.
        Array.from({ length: 7 }, (_, c) => s.column(c))
          .flat()
          .filter((c) => rankOf(c) === s.base).length === 1;
      if (!ok) bad++;
    }
    expect(bad).toBe(0);
  });
});

describe("rule validation", () => {
  it("unknown preset and bad values are one-line UsageErrors naming what is allowed", () => {
    expect(() => resolveRules("pengiun")).toThrow(
      /unknown rules "pengiun"; known: penguin, penguin-relaxed/,
    );
    expect(() => resolveRules("penguin", { cells: 9 })).toThrow(
      /cells must be an integer from 0 to 8/,
    );
    expect(() => resolveRules("penguin", { cells: -1 })).toThrow(UsageError);
    expect(() => resolveRules("penguin", { emptyColumn: "kings" as never })).toThrow(
      /allowed: below-base, any, none/,
    );
    expect(() => resolveRules("penguin", { groupMove: "x" as never })).toThrow(
      /allowed: unlimited, supermove, free-cells, single/,
    );
    expect(() => resolveRules("freecell", { base: "beak" })).toThrow(/needs a penguin deal/);
    expect(() => resolveRules("eight-off", { cells: 3 })).toThrow(/cells must be at least 4/);
  });
  it("overrides apply to any preset", () => {
    const r = resolveRules("penguin", { cells: 3, emptyColumn: "any", groupMove: "supermove" });
    expect([r.cells, r.emptyColumn, r.groupMove, r.columns]).toEqual([3, "any", "supermove", 7]);
    expect(resolveRules("freecell", { deal: "seahaven" }).columns).toBe(10);
  });
});
