/**
 * The safety network's encoding of candidate moves, checked where it is computed cleverly: the
 * digging costs kept per column against a walk for each height, and every input the player
 * writes against the numbers it wrote before its passes were merged (a digest per rule set,
 * over positions of seeded random games), for every rule preset and both card-row layouts.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { suitOf } from "../../src/engine/card.js";
import { deal } from "../../src/engine/deal.js";
import { applyMove, generateMoves, MAX_MOVES, undoMove } from "../../src/engine/moves.js";
import { PRESET_NAMES, resolveRules, type Rules } from "../../src/engine/rules.js";
import { COLUMN_CAP, type State } from "../../src/engine/state.js";
import { cardWidthOf } from "../../src/players/safety/cards.js";
import {
  COLUMN_WIDTH,
  encodeCandidate,
  FLIPPER_WIDTH,
  GLOBAL_WIDTH,
} from "../../src/players/safety/encode.js";
import { FLIPPER_COST_WIDTH } from "../../src/players/safety/flippers.js";
import {
  columnOf,
  digCost,
  isTop,
  locateCards,
  STRUCTURE_WIDTH,
} from "../../src/players/safety/structure.js";
import { Rng } from "../../src/util/rng.js";

/** Positions along seeded random games of `rules`: every one from which a move is left. */
function positions(rules: Rules, games: number, steps: number): State[] {
  const rng = new Rng(`safety-encode-test:${rules.preset}`);
  const moves = new Int32Array(MAX_MOVES);
  const out: State[] = [];
  for (let g = 0; g < games; g++) {
    const s = deal(rules, 100_000 + g);
    for (let t = 0; t < steps; t++) {
      const n = generateMoves(s, moves);
      if (n === 0) break;
      out.push(s.clone());
      applyMove(s, moves[Math.floor(rng.next() * n)]!);
    }
  }
  return out;
}

/** The digging cost of height d of column c walked on its own (the definition digCost keeps per column). */
function walk(s: State, c: number, d: number): number {
  const b = c * COLUMN_CAP;
  let empty = s.emptyColumns();
  let cost = 0;
  let i = s.len[c]! - 1;
  while (i > d) {
    let j = i;
    while (j - 1 > d && s.tables.buildOn[s.cards[b + j]! * 52 + s.cards[b + j - 1]!] === 1) j--;
    const onto = s.tables.rel[s.cards[b + j]!]! * 4 + suitOf(s.cards[b + j]!) + 4;
    if (onto < 52 && columnOf(onto) !== c && isTop(s, onto)) {
      // free: onto its successor
    } else if (onto >= 52 && empty > 0) empty--;
    else cost += i - j + 1;
    i = j - 1;
  }
  return cost;
}

/**
 * sha1 of every candidate's inputs (columns, flippers, globals with the groups of `features`)
 * from each position, with a zero scorer row. Recorded below from the encoder as it was before
 * its passes were merged (one pass per feature, one walk per digging cost).
 */
function digest(rules: Rules, features: "links" | "cards", list: State[]): string {
  const globals = new Float32Array(
    GLOBAL_WIDTH + STRUCTURE_WIDTH + FLIPPER_COST_WIDTH + 52 * cardWidthOf(features === "links"),
  );
  const cols = new Float32Array(rules.columns * COLUMN_WIDTH);
  const flips = new Float32Array(FLIPPER_WIDTH);
  const row = new Float32Array(64);
  const moves = new Int32Array(MAX_MOVES);
  const h = createHash("sha1");
  for (const s of list) {
    const n = generateMoves(s, moves);
    for (let i = 0; i < n; i++) {
      applyMove(s, moves[i]!);
      encodeCandidate(s, row, 0, cols, 0, flips, 0, globals, 0, features);
      undoMove(s, moves[i]!);
      h.update(new Uint8Array(cols.buffer));
      h.update(new Uint8Array(flips.buffer));
      h.update(new Uint8Array(globals.buffer));
    }
  }
  return h.digest("hex").slice(0, 16);
}

const RECORDED: Record<string, [links: string, cards: string]> = {
  penguin: ["aa228dcef776efea", "82a06c311f50253a"],
  "penguin-relaxed": ["fb0f2a0fedf91d35", "465f984396add87f"],
  opus: ["813b80bb737a3bef", "e3e1d48a7cb9bc38"],
  "penguin-beak-home": ["8367b84251d99962", "3705215f1b119d50"],
  "bakers-game": ["3e0ef65650ee95c5", "59cc4d776184d953"],
  "kings-only-bakers-game": ["cef56a9719b9df99", "7c5323cba262fd0f"],
  freecell: ["8a47e1140cf78da0", "7f63247e6f6f6229"],
  "eight-off": ["3ba2cf57f3221bed", "318d2ba9282033c5"],
  "seahaven-towers": ["f8ad89b7655cf0eb", "c6259f5bf895eef0"],
  stalactites: ["9fb861780fad16cc", "ba7c10888fbe6dd6"],
};

describe("the safety network's encoding", () => {
  for (const preset of PRESET_NAMES) {
    const rules = resolveRules(preset);
    const list = positions(rules, 8, 40);

    it(`keeps each column's digging costs as the walk for each height gives them (${preset})`, () => {
      let checked = 0;
      for (const s of list) {
        locateCards(s);
        for (let c = 0; c < s.nColumns; c++)
          for (let d = -1; d < s.len[c]!; d++) {
            expect(digCost(s, c, d), `${preset} column ${c} height ${d}`).toBe(walk(s, c, d));
            checked++;
          }
      }
      expect(checked).toBeGreaterThan(500);
    });

    it(`writes the inputs it wrote before, number for number (${preset})`, () => {
      expect(list.length).toBeGreaterThan(50);
      const got: [string, string] = [digest(rules, "links", list), digest(rules, "cards", list)];
      expect(got).toEqual(RECORDED[preset]);
    });
  }
});
