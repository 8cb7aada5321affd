import { describe, expect, it } from "vitest";
import { NO_CARD } from "../../src/engine/card.js";
import { deal } from "../../src/engine/deal.js";
import { applyMove, generateMoves, MAX_MOVES, undoMove } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import { MoveScorer, HEURISTIC_PRESETS } from "../../src/agents/heuristic.js";
import { PositionCache } from "../../src/agents/position-cache.js";

describe("PositionCache", () => {
  it("hands a value back only for the very same position, never for one that shares its hash", () => {
    const s = deal(resolveRules("freecell"), 100001);
    const cache = new PositionCache(4, 2);
    const owner = {};
    const miss = cache.find(s, owner);
    expect(miss).toBeLessThan(0);
    cache.floats[cache.put(miss, s) >> 1] = 1.25;
    const hit = cache.find(s, owner);
    expect(hit).toBe(-1 - miss);
    expect(cache.floats[hit >> 1]).toBe(1.25);
    // Another position forced onto the same hash (a Zobrist collision) must miss.
    const moves = new Int32Array(MAX_MOVES);
    generateMoves(s, moves);
    const [lo, hi] = [s.hashLo, s.hashHi];
    applyMove(s, moves[0]!);
    s.hashLo = lo;
    s.hashHi = hi;
    expect(cache.find(s, owner)).toBeLessThan(0);
    undoMove(s, moves[0]!);
    s.rehash();
    expect(cache.find(s, owner)).toBe(hit);
    // Flippers hash by content, but a hit needs them in the same order too.
    const t = deal(resolveRules("eight-off"), 100002);
    const c = t.cells.findIndex((card, i) => i < t.nCells && card !== NO_CARD);
    const card = t.cells[c]!;
    const free = t.cells.findIndex((x, i) => i < t.nCells && x === NO_CARD);
    cache.put(cache.find(t, owner), t);
    expect(cache.find(t, owner)).toBeGreaterThanOrEqual(0);
    t.setCell(c, NO_CARD);
    t.setCell(free, card);
    expect(cache.find(t, owner)).toBeLessThan(0);
    // What the table holds belongs to one owner (a scorer's weights): another empties it.
    t.setCell(free, NO_CARD);
    t.setCell(c, card);
    expect(cache.find(t, owner)).toBeGreaterThanOrEqual(0);
    expect(cache.find(t, {})).toBeLessThan(0);
    expect(cache.find(t, owner)).toBeLessThan(0);
  });

  it("gives scorers the values they work out without it, also two weightings in turn", () => {
    for (const preset of ["penguin", "freecell", "stalactites", "penguin-beak-home"]) {
      const s = deal(resolveRules(preset), 100003);
      // Two weightings share the thread's memo tables, taking turns.
      const scorers = ["tuned", "parlett"].map((h) => ({
        plain: new MoveScorer(HEURISTIC_PRESETS[h]!),
        cached: new MoveScorer(HEURISTIC_PRESETS[h]!, true),
      }));
      const moves = new Int32Array(MAX_MOVES);
      const a = new Float64Array(MAX_MOVES);
      const b = new Float64Array(MAX_MOVES);
      for (let ply = 0; ply < 40; ply++) {
        const n = generateMoves(s, moves);
        if (n === 0) break;
        for (const { plain, cached } of scorers) {
          plain.scoreMoves(s, moves, n, a);
          // Twice: the second time the scores come from the table.
          for (let k = 0; k < 2; k++) {
            cached.scoreMoves(s, moves, n, b);
            expect(Array.from(b.subarray(0, n)), `${preset} ply ${ply}`).toEqual(
              Array.from(a.subarray(0, n)),
            );
          }
        }
        applyMove(s, moves[(ply * 7) % n]!);
      }
    }
  });
});
