/** Board text formats: our own and Freecell Solver's, round trips and one-line errors. */
import { describe, expect, it } from "vitest";
import {
  applyMove,
  dealMs,
  formatBoard,
  formatFcsBoard,
  generateMoves,
  MAX_MOVES,
  parseBoard,
  parseFcsBoard,
  parseMove,
  PRESET_NAMES,
  readBoardFile,
  renderBoard,
  resolveRules,
  type State,
} from "../../src/engine/index.js";
import { UsageError } from "../../src/errors.js";
import { prng } from "./helpers.js";

/** Positions along a seeded random game, so foundations, flippers and empty columns vary. */
function walk(preset: string, n: number, steps: number): State[] {
  const rules = resolveRules(preset);
  const rand = prng(n);
  const s = dealMs(rules, n);
  const buf = new Int32Array(MAX_MOVES);
  const out = [s.clone()];
  for (let i = 0; i < steps; i++) {
    const k = generateMoves(s, buf);
    if (!k) break;
    applyMove(s, buf[Math.floor(rand() * k)]!);
    out.push(s.clone());
  }
  return out;
}

describe("penguin-board format", () => {
  it("Penguin #1 reads as documented", () => {
    const text = formatBoard(dealMs(resolveRules("penguin"), 1));
    expect(text.split("\n").slice(0, 5)).toEqual([
      "penguin-board 1",
      "base: J",
      "foundations: JC - JH JS",
      "flippers: - - - - - - -",
      "1: JD KD 3H 3C 4D 2C 3D",
    ]);
  });
  it("round-trips every preset along random games (base, flippers, foundations included)", () => {
    let checked = 0;
    for (const p of PRESET_NAMES)
      for (const n of [1, 2, 3])
        for (const s of walk(p, n, 80)) {
          const back = parseBoard(formatBoard(s), s.rules);
          expect(back.equals(s)).toBe(true);
          expect(back.hash()).toBe(s.hash());
          checked++;
        }
    expect(checked).toBeGreaterThan(500);
  });
  it("rank foundations (Stalactites): each foundation's whole pile, which must rise by one rank", () => {
    const r = resolveRules("stalactites");
    const s = dealMs(r, 1);
    const text = formatBoard(s);
    expect(text.split("\n")[2]).toBe("foundations: 6S 9C 2H 6H");
    applyMove(s, parseMove("8h", s)); // TC onto 9C
    expect(formatBoard(s).split("\n")[2]).toBe("foundations: 6S 9C,TC 2H 6H");
    expect(() => parseBoard(formatBoard(s).replace("9C,TC", "9C,JC"), r)).toThrow(
      /foundation 2 must rise by one rank per card/,
    );
    expect(() => parseBoard(text, resolveRules("freecell"))).toThrow(UsageError);
  });
  it("accepts comments, blank lines, 10 for T and lower case", () => {
    const s = dealMs(resolveRules("penguin"), 1);
    const text =
      "# saved game\n\n" +
      formatBoard(s).replace("TC", "10c").replace("base: J", "base: J   # the beak's rank");
    expect(parseBoard(text, s.rules).equals(s)).toBe(true);
  });
  const rules = resolveRules("penguin");
  const good = formatBoard(dealMs(rules, 1));
  const cases: [string, string, RegExp][] = [
    ["no magic line", good.replace("penguin-board 1\n", ""), /expected "penguin-board 1"/],
    ["duplicate card", good.replace("3D\n", "3H\n"), /3H appears twice/],
    ["missing card", good.replace(" 3D\n", "\n"), /card\(s\) missing: 3D/],
    ["bad card", good.replace("3D\n", "3X\n"), /board line 5: bad card "3X"/],
    [
      "wrong suit on a foundation",
      good.replace("foundations: JC - JH JS", "foundations: JH - JC JS"),
      /is the C foundation/,
    ],
    ["column order", good.replace("2: ", "3: "), /expected column 2 next/],
    [
      "too many flippers",
      good.replace("flippers: - - - - - - -", "flippers: - - - - - - - -"),
      /7 flippers, the board has 8/,
    ],
    ["unknown line", `${good}rules: penguin\n`, /unknown line "rules:"/],
  ];
  for (const [what, text, re] of cases)
    it(`rejects ${what} with a one-line UsageError`, () => {
      let err: unknown;
      try {
        parseBoard(text, rules);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).not.toContain("\n");
    });
  it("an ace-based rule set refuses a base other than A", () => {
    const s = dealMs(rules, 1);
    expect(() =>
      parseBoard(formatBoard(s), resolveRules("bakers-game", { deal: "penguin" })),
    ).toThrow(/base is J/);
  });
});

describe("Freecell Solver format", () => {
  it("writes MS #24 as Freecell Solver's tests show it", () => {
    const text = formatFcsBoard(dealMs(resolveRules("freecell"), 24));
    expect(text).toBe(
      "Foundations: H-0 C-0 D-0 S-0\nFreecells: - - - -\n" +
        ": 4C 2C 9C 8C QS 4S 2H\n: 5H QH 3C AC 3H 4H QD\n: QC 9S 6H 9H 3S KS 3D\n: 5D 2S JC 5C JH 6D AS\n" +
        ": 2D KD TH TC TD 8D\n: 7H JS KH TS KC 7C\n: AH 5S 6S AD 8H JD\n: 7S 6C 7D 4D 8S 9D\n",
    );
  });
  it("reads a mid-game board from Freecell Solver's own test data", () => {
    // From Games::Solitaire::Verify's tests (MS #24 after some moves), trailing spaces included.
    const text =
      "Foundations: H-6 C-A D-A S-4 \nFreecells:  3D  3C  JH  9H\n: 4C 2C 9C 8C QS JD\n: KS QH\n: QC 9S 8H\n: 5C 4D\n: 2D KD TH TC TD 8D 7C 6D 5S\n: 7H JS KH TS KC QD JC\n: 9D 8S\n: 7S 6C 7D 6S 5D\n";
    const s = readBoardFile(text, resolveRules("freecell"));
    expect(Array.from(s.found)).toEqual([1, 1, 6, 4]);
    expect(s.freeCells()).toBe(0);
    expect(formatFcsBoard(s)).toBe(text.replace(" \n", "\n").replace(/ {2}/g, " "));
  });
  it("reads boards without a Foundations line, without colons and with 10 for T", () => {
    const s = dealMs(resolveRules("freecell"), 24);
    const bare =
      "4C 2C 9C 8C QS 4S 2H\n5H QH 3C AC 3H 4H QD\nQC 9S 6H 9H 3S KS 3D\n5D 2S JC 5C JH 6D AS\n2D KD 10H 10C 10D 8D\n7H JS KH 10S KC 7C\nAH 5S 6S AD 8H JD\n7S 6C 7D 4D 8S 9D\n";
    expect(readBoardFile(bare, s.rules).equals(s)).toBe(true);
  });
  it("round-trips every ace-based preset along random games", () => {
    for (const p of PRESET_NAMES.filter(
      (p) => resolveRules(p).base === "ace" && resolveRules(p).foundations === "suit",
    ))
      for (const s of walk(p, 5, 80)) {
        const back = readBoardFile(formatFcsBoard(s), s.rules);
        expect(back.equals(s)).toBe(true);
      }
  });
  it("needs ace-based rules, and the right column count", () => {
    const penguin = dealMs(resolveRules("penguin"), 1);
    expect(() => formatFcsBoard(penguin)).toThrow(UsageError);
    expect(() => parseFcsBoard(": AS", penguin.rules)).toThrow(/needs ace-based rules/);
    const fc = formatFcsBoard(dealMs(resolveRules("freecell"), 1));
    expect(() => readBoardFile(fc, resolveRules("seahaven-towers"))).toThrow(
      /10 columns, the board has 8/,
    );
    expect(() => readBoardFile("Foundations: H-X\n", resolveRules("freecell"))).toThrow(
      /bad foundation "H-X"/,
    );
    expect(() => readBoardFile("\n# nothing\n", resolveRules("freecell"))).toThrow(/empty/);
  });
  it("readBoardFile takes either format", () => {
    const s = walk("bakers-game", 9, 40).at(-1)!;
    expect(readBoardFile(formatBoard(s), s.rules).equals(s)).toBe(true);
    expect(readBoardFile(`\uFEFF${formatFcsBoard(s)}`, s.rules).equals(s)).toBe(true);
  });
});

describe("rendering", () => {
  const s = dealMs(resolveRules("penguin"), 1);
  it("no-colour mode has suit symbols and no escape codes", () => {
    const text = renderBoard(s, { color: false });
    expect(text).not.toContain("\x1b[");
    expect(text.split("\n")[0]).toBe("Foundations  J♣  --  J♥  J♠     base J  (3/52 home)");
    expect(text.split("\n")[4]).toBe(" J♦   2♦   9♥   5♦   7♥   7♣   5♥");
    expect(renderBoard(s, { color: false, symbols: false }).split("\n")[4]).toBe(
      " JD   2D   9H   5D   7H   7C   5H",
    );
  });
  it("colour mode paints red suits red and the base rank bold", () => {
    const text = renderBoard(s);
    expect(text).toContain("\x1b[31m2♦\x1b[0m");
    expect(text).toContain("\x1b[31m\x1b[1mJ♦\x1b[0m");
    expect(text).toContain(" 7♣ ");
  });
});
