import { describe, expect, it } from "vitest";
import {
  applyMove,
  CELL0,
  dealMs,
  FOUNDATION,
  generateMoves,
  isLegal,
  legalMoves,
  MAX_MOVES,
  NO_CARD,
  resolveRules,
  type State,
} from "../../src/engine/index.js";
import { walkChoices } from "../engine/helpers.js";
import { COLUMN_CAP } from "../../src/engine/state.js";
import { MANOEUVRE, parkRuns, parkWhole, playManoeuvre } from "../../src/solver/manoeuvre.js";
import { solve, type SolvePlan } from "../../src/solver/index.js";
import { Walker } from "../../src/solver/walker.js";
import { bruteForce } from "./brute.js";

// The complete search in the engine's order, parking whole runs (the default) or single cards.
const W = [20, 12, 20, 3, 3] as const;
const WHOLE: SolvePlan = [
  { name: "whole", strategy: "depth-first", weights: W, order: "engine", complete: true },
];
// With Horne's prune too, as the default plans of the suit-building rule sets have it.
const HORNE: SolvePlan = [{ ...WHOLE[0]!, name: "horne", horne: true }];
// Single parks leave Horne's prune out of a complete search: that is the plain search.
const SINGLE: SolvePlan = [{ ...HORNE[0]!, name: "single", singleParks: true }];

/** A seeded random walk of `steps` legal moves. */
function walkFrom(start: State, steps: number, seed: number): State {
  const s = start.clone();
  const next = walkChoices(seed);
  for (let i = 0; i < steps; i++) {
    const ms = legalMoves(s);
    if (ms.length === 0) break;
    applyMove(s, ms[next() % ms.length]!);
  }
  return s;
}

describe("whole runs parked as one step", () => {
  it("applies where cards build in suit and groups may move, and nowhere else", () => {
    for (const preset of [
      "penguin",
      "bakers-game",
      "kings-only-bakers-game",
      "eight-off",
      "seahaven-towers",
    ])
      expect(parkRuns(dealMs(resolveRules(preset), 1)), preset).toBe(true);
    expect(parkRuns(dealMs(resolveRules("freecell"), 1))).toBe(false);
    expect(parkRuns(dealMs(resolveRules("bakers-game", { groupMove: "single" }), 1))).toBe(false);
  });

  it("replaces the park of a card on the card it builds on by legal parks of its whole run, or drops it when flippers are short", () => {
    const moves = new Int32Array(MAX_MOVES);
    let whole = 0;
    let dropped = 0;
    for (const preset of ["penguin", "bakers-game", "eight-off", "seahaven-towers"]) {
      for (let n = 1; n <= 8; n++) {
        const next = walkChoices(n);
        const s = dealMs(resolveRules(preset), n);
        for (let step = 0; step < 30; step++) {
          const free = s.freeCells();
          const k = generateMoves(s, moves);
          for (let i = 0; i < k; i++) {
            const m = moves[i]!;
            const code = parkWhole(s, m, free);
            if (code === m) continue;
            const c = m & 31;
            const len = s.len[c]!;
            // The run it ends: each card on the card it builds on, which is not a base card.
            let r = 1;
            const at = (d: number): number => s.cards[c * COLUMN_CAP + len - d]!;
            while (
              r < len &&
              s.tables.buildOn[at(r) * 52 + at(r + 1)] === 1 &&
              s.tables.rel[at(r + 1)] !== 0
            )
              r++;
            expect(r).toBeGreaterThan(1);
            if (r > free) {
              expect(code).toBe(-1);
              dropped++;
              continue;
            }
            expect(code & MANOEUVRE).toBe(MANOEUVRE);
            const walk = new Walker(s, W);
            expect(playManoeuvre(walk, code)).toBe(true);
            // r single parks, each legal where it is played, then only the safe foundation moves
            // of the card they uncover (no parked card goes home: the foundations did not move).
            expect(walk.pathLen).toBeGreaterThanOrEqual(r);
            const t = s.clone();
            for (let j = 0; j < walk.pathLen; j++) {
              const p = walk.path[j]!;
              expect(isLegal(t, p)).toBe(true);
              const to = (p >> 5) & 31;
              if (j < r) expect([p & 31, to >= CELL0 && to < FOUNDATION]).toEqual([c, true]);
              else expect(to).toBe(FOUNDATION);
              applyMove(t, p);
              if (j === r - 1) {
                expect(t.len[c]).toBe(len - r);
                expect(Array.from(t.cells).filter((x) => x !== NO_CARD).length).toBe(
                  s.nCells - free + r,
                );
              }
            }
            whole++;
          }
          const ms = legalMoves(s);
          if (ms.length === 0) break;
          applyMove(s, ms[next() % ms.length]!);
        }
      }
    }
    expect(whole).toBeGreaterThan(20);
    expect(dropped).toBeGreaterThan(5);
  });

  it("agrees with the naive breadth-first search on small lost positions, with and without Horne's prune, and with single parks in fewer positions", () => {
    // With one or two free flippers most parks of a run's card are dropped: the sharpest test
    // that no win needs a run's card parked alone.
    let lost = 0;
    let fewer = 0;
    for (const [preset, cells] of [
      ["bakers-game", 1],
      ["bakers-game", 2],
      ["seahaven-towers", 2],
      ["eight-off", 4],
    ] as const) {
      for (let d = 1; d <= 8; d++) {
        const pos = walkFrom(dealMs(resolveRules(preset, { cells }), d), d % 3, d);
        const brute = bruteForce(pos, 60_000);
        if (brute === "unknown") continue;
        const a = solve(pos, { plan: WHOLE });
        const h = solve(pos, { plan: HORNE });
        const b = solve(pos, { plan: SINGLE });
        expect([a.result, h.result, b.result], `${preset} ${cells} #${d}`).toEqual([
          brute,
          brute,
          brute,
        ]);
        if (brute === "unsolvable") lost++;
        if (h.states < a.states && a.states < b.states) fewer++;
        expect(a.states).toBeLessThanOrEqual(b.states);
      }
    }
    expect(lost).toBeGreaterThan(20);
    expect(fewer).toBeGreaterThan(10);
  });

  it("with Horne's prune, gives the verdicts of single parks on whole deals, won and lost, of four rule sets", () => {
    const verdicts = { solved: 0, unsolvable: 0 };
    for (const [preset, cells, deals] of [
      ["bakers-game", 3, 12],
      ["seahaven-towers", 3, 6],
      ["penguin", 4, 12],
      ["eight-off", 5, 6],
    ] as const) {
      for (let d = 1; d <= deals; d++) {
        const s = dealMs(resolveRules(preset, { cells }), d);
        const a = solve(s, { plan: HORNE, maxStates: 400_000 });
        const b = solve(s, { plan: SINGLE, maxStates: 400_000 });
        if (a.result === "unknown" || b.result === "unknown") continue;
        expect(a.result, `${preset} ${cells} #${d}`).toBe(b.result);
        verdicts[a.result]++;
      }
    }
    expect(verdicts.solved).toBeGreaterThan(5);
    expect(verdicts.unsolvable).toBeGreaterThan(5);
  });

  it("proves lost Penguin MS #9893 and #16837 with the default plan and without either prune", () => {
    // Freecell Solver 6.16's -l lg "wins" both (relabelled as kings-only Baker's Game) only with a
    // move that fills an empty column with a card other than base - 1; its -l eo calls them lost.
    const rules = resolveRules("penguin");
    for (const n of [9893, 16837]) {
      const s = dealMs(rules, n);
      for (const plan of [undefined, WHOLE, SINGLE])
        expect(solve(s, { plan }).result, `#${n} ${plan?.[0]?.name ?? "default"}`).toBe(
          "unsolvable",
        );
    }
  });
});
