/** The action layout on hand-built positions: ids, split moves into empty columns, text forms. */
import { describe, expect, it } from "vitest";
import { parseCard } from "../../src/engine/card.js";
import { moveCount, moveFrom, moveTo, moveToEmpty } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import { ActionCodec } from "../../src/env/actions.js";
import { makeEnv } from "../../src/env/index.js";
import { position } from "./helpers.js";

describe("ActionCodec layout", () => {
  it("has the documented sizes per preset", () => {
    const n = (p: string) => new ActionCodec(resolveRules(p)).n;
    expect(n("penguin")).toBe(14 * 9);
    expect(n("opus")).toBe(12 * 9);
    expect(n("penguin-relaxed")).toBe(14 * 9 + 7 * 7 * 12);
    expect(n("bakers-game")).toBe(12 * 10 + 8 * 8 * 12);
    expect(n("freecell")).toBe(888);
    expect(n("kings-only-bakers-game")).toBe(120);
    expect(n("eight-off")).toBe(160);
    expect(n("seahaven-towers")).toBe(14 * 12);
  });

  it("names base ids src * (C + 2) + dst", () => {
    const c = new ActionCodec(resolveRules("penguin"));
    expect(c.parseAction("34")).toBe(2 * 9 + 3);
    expect(c.parseAction("3a")).toBe(2 * 9 + 7);
    expect(c.parseAction("3c")).toBe(2 * 9 + 7); // any flipper letter means "a free flipper"
    expect(c.parseAction("3h")).toBe(2 * 9 + 8);
    expect(c.parseAction("b1")).toBe(8 * 9 + 0);
    expect(c.actionToString(8 * 9 + 0)).toBe("b1");
    expect(() => c.parseAction("48")).toThrow(/no column "8"/);
    expect(() => c.parseAction("84")).toThrow(/no column or flipper "8"/);
    expect(() => c.parseAction("h4")).toThrow(/no column or flipper "h"/);
    expect(() => c.parseAction("34/2")).toThrow(/group sizes/);
    expect(() => c.actionToString(126)).toThrow(/out of range: allowed 0..125/);
  });

  it("gives the largest group into an empty column the plain id and each smaller group a split id", () => {
    const rules = resolveRules("bakers-game");
    // Column 1 ends in the run 6C 5C 4C over a 9D; column 2 is empty; 4 free cells.
    const s = position(rules, 0, ["9D 6C 5C 4C", "", "KH", "KS", "KD", "KC", "QH", "QS"]);
    const env = makeEnv("BakersGame-v3");
    env.reset({ state: s });
    const c = env.codec;
    const legal = env.legalActions().map((a) => c.actionToString(a));
    expect(legal).toEqual(expect.arrayContaining(["12", "12/1", "12/2"]));
    expect(legal).not.toContain("12/3");
    const whole = env.actionMoves[c.parseAction("12")]!;
    expect([moveFrom(whole), moveTo(whole), moveCount(whole), moveToEmpty(whole)]).toEqual([
      0,
      1,
      3,
      true,
    ]);
    expect(moveCount(env.actionMoves[c.parseAction("12/2")]!)).toBe(2);
    expect(() => env.step(c.parseAction("12/3"))).toThrow(
      /3 cards is the largest group, which action \d+ \("12"\) moves/,
    );
    const r = env.step(c.parseAction("12/2"));
    expect(env.state.column(1)).toEqual([parseCard("5C"), parseCard("4C")]);
    expect(r.reward).toBe(0);
  });

  it("supermove caps the plain id's group under Baker's Game", () => {
    const rules = resolveRules("bakers-game");
    // Run of 4 (7C..4C); no free cell (all 4 hold cards) and one empty column: cap into it is 1.
    const s = position(
      rules,
      0,
      ["9D 7C 6C 5C 4C", "", "KH", "KS", "KD", "KC", "QH", "QS"],
      ["2D", "2H", "2S", "3D"],
    );
    const env = makeEnv("BakersGame-v3");
    env.reset({ state: s });
    const legal = env.legalActions().map((a) => env.codec.actionToString(a));
    expect(legal).toContain("12");
    expect(legal.filter((t) => t.startsWith("12/"))).toEqual([]);
    expect(moveCount(env.actionMoves[env.codec.parseAction("12")]!)).toBe(1);
  });

  it("lets only a base − 1 card or its run enter an empty Penguin column", () => {
    const rules = resolveRules("penguin");
    // Base 5 (rel 12 = 4): column 1 ends 4H 3H over QS; column 2 is empty.
    const s = position(rules, 4, ["QS 4H 3H", "", "9C", "9D", "9S", "TC", "TD"]);
    const env = makeEnv("Penguin-v3");
    env.reset({ state: s });
    const m = env.actionMoves[env.codec.parseAction("12")]!;
    expect(env.actionMask[env.codec.parseAction("12")]).toBe(1);
    expect(moveCount(m)).toBe(2);
    expect(env.actionMask[env.codec.parseAction("32")]).toBe(0);
    expect(() => env.step(env.codec.parseAction("32"))).toThrow(
      /action 19 \("32"\) is illegal here: an empty column takes only a card/,
    );
  });
});
