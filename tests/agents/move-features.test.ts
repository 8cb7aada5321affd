import { describe, expect, it } from "vitest";
import { deal } from "../../src/engine/deal.js";
import {
  CELL0,
  FOUNDATION,
  generateMoves,
  MAX_MOVES,
  applyMove,
  moveTo,
  undoMove,
} from "../../src/engine/moves.js";
import { PRESET_NAMES, resolveRules } from "../../src/engine/rules.js";
import type { State } from "../../src/engine/state.js";
import { FEATURES, FeatureScratch } from "../../src/agents/move-features.js";
import { HEURISTIC_PRESETS, MoveScorer } from "../../src/agents/heuristic.js";

/** Where x and y (both meant to hold the facts of s) differ, or "" when they agree. */
function differ(x: FeatureScratch, y: FeatureScratch, s: State): string {
  for (let card = 0; card < 52; card++) {
    if (x.where[card] !== y.where[card]) return `where of card ${card}`;
    if (x.where[card]! >= 0 && x.cover[card] !== y.cover[card]) return `cover of card ${card}`;
  }
  for (let c = 0; c < s.nColumns; c++)
    if (x.inSuit[c] !== y.inSuit[c] || x.settled[c] !== y.settled[c] || x.buried[c] !== y.buried[c])
      return `column ${c}'s sums`;
  for (const f of FEATURES)
    if (f.potential && f.potential(s, x) !== f.potential(s, y)) return f.name;
  return "";
}

describe("FeatureScratch", () => {
  it("counts the real options (moves not into a flipper) as the move list has them", () => {
    const moves = new Int32Array(MAX_MOVES);
    const x = new FeatureScratch();
    let checked = 0;
    for (const preset of PRESET_NAMES)
      for (const cells of [undefined, 0, 1]) {
        // Some deals fill flippers: those rules take no fewer.
        if (cells !== undefined && ["eight-off", "seahaven-towers"].includes(preset)) continue;
        const rules = resolveRules(preset, cells === undefined ? {} : { cells });
        for (let seed = 100010; seed < 100013; seed++) {
          const s = deal(rules, seed);
          for (let ply = 0; ply < 60; ply++) {
            const n = generateMoves(s, moves);
            let real = 0;
            for (let i = 0; i < n; i++) {
              const to = moveTo(moves[i]!);
              if (to < CELL0 || to === FOUNDATION) real++;
            }
            x.locate(s);
            expect(x.realOptions(s), `${preset} ${seed} ply ${ply}`).toBe(real);
            expect(x.legalMoves(s)).toBe(n);
            checked++;
            if (n === 0) break;
            applyMove(s, moves[(ply * 13 + seed) % n]!);
          }
        }
      }
    expect(checked).toBeGreaterThan(500);
  });

  it("relocates after a move, and back after its undo, to what locating afresh finds", () => {
    const moves = new Int32Array(MAX_MOVES);
    const x = new FeatureScratch();
    const fresh = new FeatureScratch();
    let checked = 0;
    for (const preset of PRESET_NAMES)
      for (let seed = 100020; seed < 100024; seed++) {
        const s = deal(resolveRules(preset), seed);
        for (let ply = 0; ply < 60; ply++) {
          const n = generateMoves(s, moves);
          if (n === 0) break;
          x.locate(s);
          for (let i = 0; i < n; i++) {
            const m = moves[i]!;
            applyMove(s, m);
            x.relocate(s, m, true);
            fresh.locate(s);
            const child = differ(x, fresh, s);
            undoMove(s, m);
            x.relocate(s, m, false);
            fresh.locate(s);
            const back = differ(x, fresh, s);
            if (child || back)
              expect.fail(`${preset} ${seed} ply ${ply} move ${m}: ${child || `back: ${back}`}`);
            checked++;
          }
          applyMove(s, moves[(ply * 13 + seed) % n]!);
        }
      }
    expect(checked).toBeGreaterThan(4000);
  });

  it("bounds each move's score from above, and then scores it exactly as scoreMoves does", () => {
    const moves = new Int32Array(MAX_MOVES);
    const exact = new Float64Array(MAX_MOVES);
    const bound = new Float64Array(MAX_MOVES);
    // Without the memo, so that every position is bounded afresh.
    const scorer = new MoveScorer(HEURISTIC_PRESETS.tuned!);
    const plain = new MoveScorer(HEURISTIC_PRESETS.tuned!);
    const x = new FeatureScratch();
    let bounded = 0;
    let skippable = 0;
    for (const preset of ["freecell", "bakers-game", "eight-off", "seahaven-towers", "penguin"])
      for (let seed = 100030; seed < 100034; seed++) {
        const s = deal(resolveRules(preset), seed);
        const seen = new Set<bigint>();
        for (let ply = 0; ply < 80; ply++) {
          const n = generateMoves(s, moves);
          if (n === 0) break;
          scorer.scoreMoves(s, moves, n, exact);
          // scoreMoves' scores, worked out move by move: move terms, value after, value now.
          const v0 = plain.value(s);
          x.locate(s);
          for (let i = 0; i < n; i++) {
            let t = 0;
            for (const f of FEATURES) {
              const w = HEURISTIC_PRESETS.tuned![f.name];
              if (w && f.moveTerm) t += w * f.moveTerm(s, moves[i]!, x);
            }
            const child = s.clone();
            applyMove(child, moves[i]!);
            if (t + plain.value(child) - v0 !== exact[i])
              expect.fail(`${preset} ${seed} ply ${ply} move ${i}: score ${exact[i]}`);
          }
          if (!scorer.boundMoves(s, moves, n, bound)) {
            const best = Math.max(...exact.subarray(0, n));
            for (let i = 0; i < n; i++) {
              if (!(bound[i]! >= exact[i]!))
                expect.fail(`${preset} ${seed} ply ${ply} move ${i}: ${bound[i]} < ${exact[i]}`);
              applyMove(s, moves[i]!);
              expect(scorer.exactScore(s, moves, i)).toBe(exact[i]);
              if (bound[i]! < best) skippable++;
            }
            bounded += n;
          }
          // Greedy play, never back to a position of the game: it reaches the wide lists.
          seen.add(s.hash());
          let next = -1;
          for (let i = 0; i < n; i++) {
            applyMove(s, moves[i]!);
            if (!seen.has(s.hash()) && (next < 0 || exact[i]! > exact[next]!)) next = i;
            undoMove(s, moves[i]!);
          }
          if (next < 0) break;
          applyMove(s, moves[next]!);
        }
      }
    expect(bounded).toBeGreaterThan(5000);
    // The bounds are worth having: many moves of a wide list are shown not to be the best.
    expect(skippable).toBeGreaterThan(bounded / 4);
  });

  it("sees no difference between two positions that differ only in which column is which", () => {
    const moves = new Int32Array(MAX_MOVES);
    const x = new FeatureScratch();
    const y = new FeatureScratch();
    let checked = 0;
    for (const preset of PRESET_NAMES)
      for (let seed = 100050; seed < 100053; seed++) {
        const s = deal(resolveRules(preset), seed);
        for (let ply = 0; ply < 40; ply++) {
          const n = generateMoves(s, moves);
          if (n === 0) break;
          // Columns c and c + 1 (or the last and the first) swapped.
          const c = ply % s.nColumns;
          const d = (c + 1) % s.nColumns;
          const t = s.clone();
          const a = t.column(c);
          const b = t.column(d);
          for (let k = a.length; k > 0; k--) t.pop(c);
          for (let k = b.length; k > 0; k--) t.pop(d);
          for (const card of b) t.push(c, card);
          for (const card of a) t.push(d, card);
          x.locate(s);
          y.locate(t);
          for (const f of FEATURES)
            if (f.potential && f.potential(s, x) !== f.potential(t, y))
              expect.fail(`${preset} ply ${ply}: ${f.name} sees columns ${c} and ${d} swapped`);
          checked++;
          applyMove(s, moves[(ply * 13 + seed) % n]!);
        }
      }
    expect(checked).toBeGreaterThan(300);
  });
});
