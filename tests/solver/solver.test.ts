import { describe, expect, it } from "vitest";
import {
  applyMove,
  deal,
  dealMs,
  legalMoves,
  parseMove,
  readBoardFile,
  resolveRules,
  undoMove,
  type State,
} from "../../src/engine/index.js";
import { CanonicalKey } from "../../src/solver/canonical.js";
import { lineText, replayWins, shortenSolution, solve } from "../../src/solver/index.js";
import { DepthFirst } from "../../src/solver/depth-first.js";
import { Walker } from "../../src/solver/walker.js";
import { shortenedWin } from "../../src/solver/shorten.js";
import { bruteForce } from "./brute.js";
import { Rng } from "../../src/util/rng.js";

/** The same position with its columns in another order (the solver must not care). */
function permuteColumns(s: State, order: readonly number[]): State {
  const t = s.clone();
  for (let c = 0; c < s.nColumns; c++) while (t.len[c]! > 0) t.pop(c);
  order.forEach((from, c) => s.column(from).forEach((card) => t.push(c, card)));
  t.rehash();
  return t;
}

/** A seeded random walk of `steps` legal moves (the project's `Rng`). */
function randomWalk(start: State, steps: number, seed: number): State {
  const s = start.clone();
  const rng = new Rng(seed);
  for (let i = 0; i < steps; i++) {
    const ms = legalMoves(s);
    if (ms.length === 0) break;
    applyMove(s, ms[rng.int(ms.length)]!);
  }
  return s;
}

describe("FreeCell MS #11982 (the one unsolvable deal of 1–32000)", () => {
  it("is unsolvable with 4 free cells", () => {
    const r = solve(dealMs(resolveRules("freecell"), 11982), { maxStates: 2_000_000 });
    expect(r.result).toBe("unsolvable");
  });
  it("is solvable with 5, and the line replays to a win", () => {
    const s = dealMs(resolveRules("freecell", { cells: 5 }), 11982);
    const r = solve(s, { maxStates: 2_000_000 });
    expect(r.result).toBe("solved");
    if (r.result === "solved") expect(replayWins(s, r.moves)).toBe(true);
  });
});

describe("Penguin", () => {
  it("solves seeded deals with lines that replay through the notation to a win", () => {
    const rules = resolveRules("penguin");
    for (let seed = 0; seed < 20; seed++) {
      const start = deal(rules, seed);
      const r = solve(start);
      expect(r.result, `seed ${seed}`).toBe("solved");
      if (r.result !== "solved") continue;
      // Through the text form, as `penguin solve` prints it and `penguin play` reads it.
      const s = start.clone();
      for (const text of lineText(start, r.moves)) applyMove(s, parseMove(text, s));
      expect(s.isWon(), `seed ${seed}`).toBe(true);
      expect(r.states).toBeGreaterThan(0);
    }
  });

  it("agrees with a naive breadth-first search on small positions (3-flipper deals, random walks, late positions of won lines)", () => {
    let solved = 0;
    let unsolvable = 0;
    // Whole deals at 3 flippers (all lost; a few hundred canonical positions each) and, at 1-2
    // flippers, positions after a seeded random walk.
    const starts = [0, 5, 7, 8].map((seed) => deal(resolveRules("penguin", { cells: 3 }), seed));
    for (let seed = 0; seed < 4; seed++)
      starts.push(
        randomWalk(deal(resolveRules("penguin", { cells: 1 + (seed % 2) }), seed), 10, seed),
      );
    for (const [i, start] of starts.entries()) {
      const brute = bruteForce(start, 30_000);
      if (brute === "unknown") continue;
      expect(solve(start).result, `position ${i}`).toBe(brute);
      if (brute === "solved") solved++;
      else unsolvable++;
    }
    // Late positions of a won line are small enough for the naive search to reach a win.
    for (let seed = 0; seed < 4; seed++) {
      const start = deal(resolveRules("penguin"), seed);
      const r = solve(start);
      if (r.result !== "solved") continue;
      const pos = start.clone();
      r.moves.slice(0, Math.floor(r.moves.length * 0.92)).forEach((m) => applyMove(pos, m));
      const brute = bruteForce(pos, 20_000);
      if (brute === "unknown") continue;
      expect(solve(pos).result, `late seed ${seed}`).toBe(brute);
      if (brute === "solved") solved++;
      else unsolvable++;
    }
    expect(solved).toBeGreaterThan(0);
    expect(unsolvable).toBeGreaterThan(0);
  });

  it("proves a hand-built deadlock unsolvable, and solves it once the rules give room", () => {
    // 4D lies on 3C and 4C on 3D: each blocks the card the other needs, and the fives are buried
    // under the rest of their suits. No flipper and no refilling of empty columns: nothing moves.
    const board = (cells: number): string =>
      [
        "penguin-board 1",
        "base: A",
        "foundations: 2C 2D KH KS",
        `flippers:${" -".repeat(cells)}`,
        "1: 3C 4D",
        "2: 3D 4C",
        "3: 5C KC QC JC TC 9C 8C 7C 6C",
        "4: 5D KD QD JD TD 9D 8D 7D 6D",
        "5:",
        "6:",
        "7:",
        "8:",
      ].join("\n");
    const stuck = resolveRules("kings-only-bakers-game", { cells: 0, emptyColumn: "none" });
    expect(legalMoves(readBoardFile(board(0), stuck))).toEqual([]);
    expect(solve(readBoardFile(board(0), stuck)).result).toBe("unsolvable");
    // One flipper alone is not enough: the 8-card runs cannot leave the fives.
    const oneFlipper = resolveRules("kings-only-bakers-game", { cells: 1, emptyColumn: "none" });
    expect(solve(readBoardFile(board(1), oneFlipper)).result).toBe("unsolvable");
    // With a flipper and empty columns that take anything, it comes out.
    const roomy = resolveRules("bakers-game", { cells: 1 });
    const start = readBoardFile(board(1), roomy);
    const r = solve(start);
    expect(r.result).toBe("solved");
    if (r.result === "solved") expect(replayWins(start, r.moves)).toBe(true);
  });
});

describe("search machinery", () => {
  it("gives the same key to a position whatever the order of its columns and flippers", () => {
    // Walk seed 1 plays all 25 moves and still has moves left (most short random walks in
    // Penguin fill the flippers and stop).
    const s = randomWalk(deal(resolveRules("penguin"), 3), 25, 1);
    expect(legalMoves(s).length).toBeGreaterThan(0);
    const t = permuteColumns(s, [6, 5, 4, 3, 2, 1, 0]);
    const cards = Array.from(t.cells.subarray(0, t.nCells)).reverse();
    cards.forEach((c, i) => t.setCell(i, c));
    const a = new CanonicalKey(s);
    const b = new CanonicalKey(t);
    expect([b.keyLo, b.keyHi]).toEqual([a.keyLo, a.keyHi]);
    // ... and a different key to a different position.
    const u = s.clone();
    applyMove(u, legalMoves(u)[0]!);
    const c = new CanonicalKey(u);
    expect([c.keyLo, c.keyHi]).not.toEqual([a.keyLo, a.keyHi]);
  });

  it("keeps the walker's score, key and card places exact through children tried and taken back, and peek() and peekKey() agree with playing the move", () => {
    // The walker counts a child's score off per-column tables and takes a child back by copying
    // the held key: after any mix of moves, holds and take-backs it must agree with a walker
    // built fresh on the same position.
    const weights = [20, 8, 16, 6, 6] as const;
    let peeked = 0;
    // peekKey() on rules where peek() does not work (kings-only, Penguin) too.
    const keyed: Record<string, number> = {};
    for (const preset of [
      "penguin",
      "penguin-beak-home",
      "freecell",
      "bakers-game",
      "eight-off",
      "kings-only-bakers-game",
      "stalactites",
    ]) {
      const walk = new Walker(deal(resolveRules(preset), 7), weights);
      let a = 777;
      const rand = (n: number): number =>
        ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) >>> 8) % n;
      for (let step = 0; step < 80; step++) {
        const ms = legalMoves(walk.s);
        if (ms.length === 0) break;
        walk.hold();
        const here = walk.pathLen;
        // Try a few children (each with its safe foundation moves), scoring each, and take it back.
        for (let t = 0; t < 3; t++) {
          const m = ms[rand(ms.length)]!;
          // peek() reads the child's key and score off the move; when it does, they must be the played child's.
          const seen = walk.peek(m)
            ? (walk.key.peek(m), [walk.key.peekLo, walk.key.peekHi, walk.peekScore])
            : null;
          // peekKey() reads only the key, on any rules, when no safe foundation move follows m.
          const key = walk.peekKey(m) ? [walk.key.peekLo, walk.key.peekHi] : null;
          walk.apply(m);
          walk.autoplayAfter(m);
          const fresh = new Walker(walk.s, weights);
          if (key) {
            keyed[preset] = (keyed[preset] ?? 0) + 1;
            expect(walk.pathLen, `${preset} step ${step}`).toBe(here + 1);
            expect(key, `${preset} step ${step} move ${m}`).toEqual([
              fresh.key.keyLo,
              fresh.key.keyHi,
            ]);
          }
          if (seen) {
            peeked++;
            expect(walk.pathLen).toBe(here + 1);
            expect(seen).toEqual([fresh.key.keyLo, fresh.key.keyHi, fresh.score()]);
          }
          expect(walk.score(), `${preset} step ${step}`).toBe(fresh.score());
          expect([walk.key.keyLo, walk.key.keyHi]).toEqual([fresh.key.keyLo, fresh.key.keyHi]);
          expect(Array.from(walk.where.subarray(0, 52))).toEqual(
            Array.from(fresh.where.subarray(0, 52)),
          );
          walk.undoTo(here);
        }
        const back = new Walker(walk.s, weights);
        expect(walk.score()).toBe(back.score());
        expect([walk.key.keyLo, walk.key.keyHi]).toEqual([back.key.keyLo, back.key.keyHi]);
        // Then go down one of them; now and then take two steps back (past the held point).
        const m = ms[rand(ms.length)]!;
        walk.apply(m);
        walk.autoplayAfter(m);
        if (rand(5) === 0 && walk.pathLen > 2) {
          walk.undoTo(walk.pathLen - 2);
          const again = new Walker(walk.s, weights);
          expect([walk.key.keyLo, walk.key.keyHi]).toEqual([again.key.keyLo, again.key.keyHi]);
          expect(walk.score()).toBe(again.score());
        }
      }
    }
    expect(peeked).toBeGreaterThan(50);
    for (const preset of ["penguin", "eight-off", "kings-only-bakers-game", "freecell"])
      expect(keyed[preset], preset).toBeGreaterThan(20);
  });
  it("keeps the key up to date through moves and take-backs (group moves, flippers, foundations)", () => {
    for (const preset of ["penguin", "freecell", "seahaven-towers"]) {
      const s = deal(resolveRules(preset), 5);
      const key = new CanonicalKey(s);
      const played: number[] = [];
      let a = 12345;
      for (let i = 0; i < 60; i++) {
        const ms = legalMoves(s);
        if (ms.length === 0) break;
        a = (Math.imul(a, 1103515245) + 12345) >>> 0;
        const m = ms[a % ms.length]!;
        applyMove(s, m);
        key.toggleMove(m);
        key.recompute();
        played.push(m);
        const fresh = new CanonicalKey(s);
        expect([key.keyLo, key.keyHi], `${preset} move ${i}`).toEqual([fresh.keyLo, fresh.keyHi]);
      }
      const start = deal(resolveRules(preset), 5);
      while (played.length) {
        const m = played.pop()!;
        key.toggleMove(m);
        undoMove(s, m);
      }
      key.recompute();
      const fresh = new CanonicalKey(start);
      expect([key.keyLo, key.keyHi]).toEqual([fresh.keyLo, fresh.keyHi]);
    }
  });

  it("says unknown, never unsolvable, when the budget runs out", () => {
    const s = dealMs(resolveRules("freecell"), 11982);
    const r = solve(s, { maxStates: 1000 });
    expect(r).toMatchObject({ result: "unknown", reason: "max-states" });
    expect(r.states).toBeLessThanOrEqual(1000);
    const t = solve(s, { timeoutMs: 1 });
    expect(t).toMatchObject({ result: "unknown", reason: "timeout" });
  });

  it("decides a relabelled deal the same way", () => {
    const s = deal(resolveRules("penguin", { cells: 4 }), 11);
    const a = solve(s);
    const b = solve(permuteColumns(s, [3, 1, 4, 0, 6, 2, 5]));
    expect(b.result).toBe(a.result);
  });
});

describe("shortening a found line", () => {
  // A depth-first search's own line wanders (before solve shortens it), so the pass has detours
  // to cut. It must vouch only for lines that are legal and end won.
  const start = dealMs(resolveRules("freecell"), 5);
  const dfs = new DepthFirst(start, 200_000, [20, 12, 20, 3, 3], "score");
  if (dfs.run(Infinity) !== "solved") throw new Error("MS #5 is won");
  const found = dfs.line();

  it("cuts detours and returns a line that replays to a win", () => {
    expect(replayWins(start, found)).toBe(true);
    const short = shortenedWin(start, found)!;
    expect(short).toEqual(shortenSolution(start, found));
    expect(short.length).toBeLessThan(found.length);
    expect(replayWins(start, short)).toBe(true);
  });
  it("vouches for no line with an illegal move or that does not end won", () => {
    // The line's last move (a card home) cannot be played first.
    expect(shortenedWin(start, [found[found.length - 1]!, ...found])).toBeNull();
    expect(shortenedWin(start, found.slice(0, -1))).toBeNull();
  });
});
