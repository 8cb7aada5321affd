import { describe, expect, it } from "vitest";
import { cardToString, NO_CARD } from "../../src/engine/card.js";
import { dealMs } from "../../src/engine/deal.js";
import {
  applyMove,
  CELL0,
  FOUNDATION,
  generateMoves,
  isLegal,
  MAX_MOVES,
  moveCard,
  moveFrom,
  moveToEmpty,
} from "../../src/engine/moves.js";
import { walkChoices } from "../engine/helpers.js";
import { resolveRules } from "../../src/engine/rules.js";
import { COLUMN_CAP, type State } from "../../src/engine/state.js";
import { BestFirst } from "../../src/solver/best-first.js";
import {
  hasManoeuvres,
  listManoeuvres,
  listPurposeful,
  MANOEUVRE,
  playManoeuvre,
  VIA_EMPTY,
} from "../../src/solver/manoeuvre.js";
import { replayWins, solve } from "../../src/solver/search.js";
import { Walker } from "../../src/solver/walker.js";
import { position } from "../engine/position.js";

/** Plays the walker's path from `from` through the engine; true when every move is legal. */
function replays(from: State, walk: Walker): boolean {
  const s = from.clone();
  for (let i = 0; i < walk.pathLen; i++) {
    if (!isLegal(s, walk.path[i]!)) return false;
    applyMove(s, walk.path[i]!);
  }
  return true;
}

describe("manoeuvres", () => {
  it("each one is a line of legal engine moves that puts its card home or on the card it builds on", () => {
    const next = walkChoices(2026);
    const codes = new Int32Array(MAX_MOVES);
    const moves = new Int32Array(MAX_MOVES);
    let played = 0;
    let home = 0;
    let peeked = 0;
    // Peeked ones whose card goes home, and runs after which a card they uncover goes home.
    let peekedHome = 0;
    let peekedThenHome = 0;
    // Distinct weights, so that a wrong count in any part of the score shows.
    const weights = [20, 12, 30, 4, 5] as const;
    for (const preset of ["freecell", "bakers-game", "eight-off"]) {
      for (let n = 1; n <= 6; n++) {
        const s = dealMs(resolveRules(preset), n);
        expect(hasManoeuvres(s)).toBe(true);
        // Positions along a seeded random walk from the deal.
        for (let step = 0; step < 25; step++) {
          const walk = new Walker(s, weights);
          const k = listManoeuvres(walk, codes);
          for (let i = 0; i < k; i++) {
            const code = codes[i]!;
            const c = code & 15;
            const card = s.cards[c * COLUMN_CAP + ((code >> 4) & 63)]!;
            const dst = (code >> 16) & 31;
            // peekManoeuvre reads the score and key off the manoeuvre; when it does, they must be the played child's.
            const seen = walk.peekManoeuvre(code, true) ? walk.peekScore : null;
            const key = [walk.key.peekLo, walk.key.peekHi];
            if (playManoeuvre(walk, code)) {
              played++;
              if (seen !== null) {
                peeked++;
                if (dst === FOUNDATION) peekedHome++;
                else if (walk.s.cardsHome() > s.cardsHome()) peekedThenHome++;
                expect(seen).toBe(new Walker(walk.s, weights).score());
                expect(key).toEqual([walk.key.keyLo, walk.key.keyHi]);
              }
              expect(replays(s, walk)).toBe(true);
              const w = walk.s;
              if (dst === FOUNDATION) {
                home++;
                expect(w.found[card & 3]).toBeGreaterThan(s.found[card & 3]!);
              } else {
                // The card sits on the card it builds on (or already went home by itself).
                const at = w.cards
                  .subarray(dst * COLUMN_CAP, dst * COLUMN_CAP + w.len[dst]!)
                  .indexOf(card);
                if (at < 0) expect(w.found[card & 3]).toBeGreaterThan(s.found[card & 3]!);
                else
                  expect(s.tables.buildOn[card * 52 + w.cards[dst * COLUMN_CAP + at - 1]!]).toBe(1);
              }
            }
            walk.undoTo(0);
          }
          const m = generateMoves(s, moves);
          if (m === 0) break;
          applyMove(s, moves[next() % m]!);
        }
      }
    }
    expect(played).toBeGreaterThan(100);
    expect(home).toBeGreaterThan(0);
    expect(peeked).toBeGreaterThan(50);
    expect(peekedHome).toBeGreaterThanOrEqual(10);
    expect(peekedThenHome).toBeGreaterThanOrEqual(3);
  });

  it("peekManoeuvre's score is the played manoeuvre's along won lines (where columns empty and fill, and cards go home)", () => {
    // Random walks seldom empty a column; the positions of won lines do, late in the game.
    const weights = [20, 12, 30, 4, 5] as const;
    const codes = new Int32Array(MAX_MOVES);
    let peeked = 0;
    let intoEmpty = 0;
    let emptied = 0;
    let sentHome = 0;
    for (const [preset, n] of [
      ["freecell", 1],
      ["freecell", 2],
      ["bakers-game", 3],
    ] as const) {
      const r = solve(dealMs(resolveRules(preset), n));
      expect(r.result).toBe("solved");
      if (r.result !== "solved") continue;
      const s = dealMs(resolveRules(preset), n);
      for (const m of r.moves) {
        const walk = new Walker(s, weights);
        const k = listManoeuvres(walk, codes);
        for (let i = 0; i < k; i++) {
          const code = codes[i]!;
          const seen = walk.peekManoeuvre(code, true) ? walk.peekScore : null;
          const key = [walk.key.peekLo, walk.key.peekHi];
          const free = walk.s.freeCells();
          if (playManoeuvre(walk, code) && seen !== null) {
            peeked++;
            if (walk.s.freeCells() === 0 && free < walk.pathLen - 1) intoEmpty++;
            if (((code >> 4) & 63) === 0) emptied++;
            if (walk.s.cardsHome() > s.cardsHome()) sentHome++;
            expect(seen).toBe(new Walker(walk.s, weights).score());
            expect(key).toEqual([walk.key.keyLo, walk.key.keyHi]);
          }
          walk.undoTo(0);
        }
        applyMove(s, m);
      }
    }
    expect(peeked).toBeGreaterThan(100);
    expect(intoEmpty).toBeGreaterThan(0);
    expect(emptied).toBeGreaterThan(0);
    expect(sentHome).toBeGreaterThan(100);
  });

  it("best-first search stores manoeuvres without playing them, and its lines still replay to a win", () => {
    // Its nodes keep a manoeuvre as one step, played when the node is expanded and when the line is read back.
    const weights = [10, 10, 10, 7, 5] as const;
    for (let n = 1; n <= 12; n++) {
      const s = dealMs(resolveRules("freecell"), n);
      for (const lean of [false, true]) {
        const search = new BestFirst(
          s,
          20_000,
          weights,
          { meta: true, stepCost: 3, lean },
          { left: 20_000 },
        );
        expect(search.run(Infinity), `#${n}`).toBe("solved");
        const line = search.line();
        expect(line.every((m) => (m & MANOEUVRE) === 0)).toBe(true);
        expect(replayWins(s, line), `#${n}`).toBe(true);
      }
    }
  });

  it("under Horne's prune, a child is read off its move or manoeuvre only when no parked card follows, and then it is the played child", () => {
    // A horne walker's positions never hold a parked card whose card to build on is last in a
    // column (the move that makes it so is followed by the parked card's move). Children read
    // off without playing must then have the key and score of the child played.
    const weights = [20, 12, 30, 4, 5] as const;
    const moves = new Int32Array(MAX_MOVES);
    const codes = new Int32Array(MAX_MOVES);
    const count = { peeked: 0, refused: 0, manoeuvres: 0, manoeuvresRefused: 0, unparked: 0 };
    const closed = (w: Walker): boolean => {
      const t = w.s;
      for (let i = 0; i < t.nCells; i++) {
        const y = t.cells[i]!;
        for (let j = 0; j < 2 && y !== 255 && t.tables.targets[y * 2 + j]! >= 0; j++) {
          const p = t.tables.targets[y * 2 + j]!;
          const at = w.where[p]!;
          // (Never onto a base card: under Penguin's wrap it may have to go home first.)
          if (at >= 0 && (at & 63) === t.len[at >> 6]! - 1 && t.tables.rel[p] !== 0) return false;
        }
      }
      return true;
    };
    const check = (walk: Walker, seen: number[] | null, label: string): void => {
      const fresh = new Walker(walk.s, weights, false, true);
      expect(closed(walk), label).toBe(true);
      if (seen) expect(seen, label).toEqual([fresh.key.keyLo, fresh.key.keyHi, fresh.score()]);
    };
    for (const preset of ["penguin", "eight-off", "seahaven-towers", "bakers-game", "freecell"]) {
      for (let n = 1; n <= 4; n++) {
        const walk = new Walker(dealMs(resolveRules(preset), n), weights, false, true);
        walk.autoplay();
        const next = walkChoices(n);
        for (let step = 0; step < 50; step++) {
          const k = generateMoves(walk.s, moves);
          if (k === 0) break;
          walk.hold();
          const here = walk.pathLen;
          for (let i = 0; i < k; i++) {
            const m = moves[i]!;
            const seen = walk.peek(m)
              ? (walk.key.peek(m), [walk.key.peekLo, walk.key.peekHi, walk.peekScore])
              : null;
            const key = walk.peekKey(m) ? [walk.key.peekLo, walk.key.peekHi] : null;
            walk.apply(m);
            walk.autoplayAfter(m);
            if (seen) count.peeked++;
            else count.refused++;
            // A parked card that followed m onto a column.
            for (let p = here + 1; p < walk.pathLen; p++)
              if ((walk.path[p]! & 31) >= CELL0 && ((walk.path[p]! >> 5) & 31) < CELL0)
                count.unparked++;
            check(walk, seen, `${preset} #${n} step ${step} move ${m}`);
            if (key) expect(key).toEqual([walk.key.keyLo, walk.key.keyHi]);
            walk.undoTo(here);
          }
          const e = listManoeuvres(walk, codes);
          for (let i = 0; i < e; i++) {
            const seen = walk.peekManoeuvre(codes[i]!, true)
              ? [walk.key.peekLo, walk.key.peekHi, walk.peekScore]
              : null;
            if (playManoeuvre(walk, codes[i]!)) {
              if (seen) count.manoeuvres++;
              else count.manoeuvresRefused++;
              check(walk, seen, `${preset} #${n} step ${step} manoeuvre ${codes[i]}`);
            }
            walk.undoTo(here);
          }
          const m = moves[next() % k]!;
          walk.apply(m);
          walk.autoplayAfter(m);
        }
      }
    }
    expect(count.peeked).toBeGreaterThan(500);
    expect(count.refused).toBeGreaterThan(500);
    expect(count.manoeuvres).toBeGreaterThan(200);
    expect(count.manoeuvresRefused).toBeGreaterThan(200);
    expect(count.unparked).toBeGreaterThan(50);
  });

  it("under Horne's prune, a scored depth-first search ranks a child that a parked card follows without playing it: as that child without the prune, plus a free flipper", () => {
    // Such a child is still played when its turn comes (peekKey refuses it): only its rank is estimated.
    const weights = [20, 12, 30, 4, 5] as const;
    const moves = new Int32Array(MAX_MOVES);
    const codes = new Int32Array(MAX_MOVES);
    let moved = 0;
    let manoeuvres = 0;
    for (const preset of ["freecell", "bakers-game", "seahaven-towers"]) {
      for (let n = 1; n <= 3; n++) {
        const walk = new Walker(dealMs(resolveRules(preset), n), weights, false, true);
        walk.autoplay();
        const next = walkChoices(n);
        // The score of the child without the prune (a walker of the same position without it), plus one free flipper.
        const unpruned = (play: (w: Walker) => boolean): number | null => {
          const w = new Walker(walk.s, weights);
          return play(w) ? w.score() + weights[1] : null;
        };
        for (let step = 0; step < 40; step++) {
          const k = generateMoves(walk.s, moves);
          if (k === 0) break;
          for (let i = 0; i < k; i++) {
            const m = moves[i]!;
            walk.estimate = false;
            if (walk.peek(m)) continue;
            walk.estimate = true;
            if (!walk.peek(m)) continue;
            moved++;
            expect(walk.peekKey(m)).toBe(false);
            expect(walk.peekScore).toBe(unpruned((w) => (w.apply(m), w.autoplayAfter(m), true)));
          }
          const e = listManoeuvres(walk, codes);
          for (let i = 0; i < e; i++) {
            walk.estimate = false;
            if (walk.peekManoeuvre(codes[i]!)) continue;
            walk.estimate = true;
            if (!walk.peekManoeuvre(codes[i]!)) continue;
            manoeuvres++;
            expect(walk.peekManoeuvre(codes[i]!, true)).toBe(false);
            expect(walk.peekScore).toBe(unpruned((w) => playManoeuvre(w, codes[i]!)));
          }
          const m = moves[next() % k]!;
          walk.apply(m);
          walk.autoplayAfter(m);
        }
      }
    }
    expect(moved).toBeGreaterThan(50);
    expect(manoeuvres).toBeGreaterThan(50);
  });

  it("leave out a run that would go home on the way, which could not be finished", () => {
    // Baker's Game: the hearts up to the ten are home, so the jack goes home once the king on it moves.
    const s = position(resolveRules("bakers-game"), "A", ["QH", "KS JH KH"]);
    const walk = new Walker(s, [20, 12, 20, 3, 3]);
    const codes = new Int32Array(MAX_MOVES);
    const home = MANOEUVRE | 1 | (1 << 4) | (1 << 10) | (FOUNDATION << 16);
    const ontoQueen = MANOEUVRE | 1 | (1 << 4) | (1 << 10) | (0 << 16) | (0 << 21);
    expect(Array.from(codes.subarray(0, listManoeuvres(walk, codes)))).toEqual([home]);
    // The jack onto the queen: the jack goes home as soon as the king is parked, so it fails.
    expect(playManoeuvre(walk, ontoQueen)).toBe(false);
    walk.undoTo(0);
    // The jack home instead: then every card left follows it (safe foundation moves), a win.
    expect(playManoeuvre(walk, home)).toBe(true);
    expect(walk.s.isWon()).toBe(true);
  });

  it("are not offered where a move can carry cards home or name its foundation", () => {
    expect(hasManoeuvres(dealMs(resolveRules("penguin-beak-home"), 1))).toBe(false);
    expect(hasManoeuvres(dealMs(resolveRules("stalactites"), 1))).toBe(false);
    expect(hasManoeuvres(dealMs(resolveRules("penguin"), 1))).toBe(true);
  });
});

describe("steps with a purpose (the `purpose` order)", () => {
  it("list only legal engine moves, and manoeuvres that play as legal engine moves; a parked card goes into an empty column with its run on it", () => {
    const next = walkChoices(77);
    const codes = new Int32Array(MAX_MOVES);
    const ranks = new Int32Array(MAX_MOVES);
    const moves = new Int32Array(MAX_MOVES);
    let engine = 0;
    let played = 0;
    let intoEmpty = 0;
    let toEmpty = 0;
    for (const preset of ["freecell", "bakers-game", "eight-off", "seahaven-towers", "penguin"]) {
      for (let n = 1; n <= 8; n++) {
        const s = dealMs(resolveRules(preset), n);
        for (let step = 0; step < 60; step++) {
          const walk = new Walker(s, [20, 12, 20, 3, 3]);
          // Both parts: the steps other than runs onto their cards, then those runs.
          for (const runs of [false, true]) {
            const k = listPurposeful(walk, codes, ranks, runs);
            // Without runs into an empty column (PlanStep.emptyFrom): the same list less exactly those.
            const all = Array.from(codes.subarray(0, k));
            const early = Array.from(
              codes.subarray(0, listPurposeful(walk, codes, ranks, runs, false)),
            );
            expect(early).toEqual(
              all.filter((m) => m & MANOEUVRE || moveFrom(m) >= CELL0 || !moveToEmpty(m)),
            );
            toEmpty += all.length - early.length;
            listPurposeful(walk, codes, ranks, runs);
            for (let i = 0; i < k; i++) {
              const code = codes[i]!;
              // The runs, listed later, rank below the rest by more than the noise of 10: the order is kept.
              if (runs) expect(ranks[i]).toBeLessThanOrEqual(71);
              else expect(ranks[i]).toBeGreaterThanOrEqual(80);
              if (!(code & MANOEUVRE)) {
                engine++;
                expect(isLegal(s, code), `${preset} #${n}: engine move ${code}`).toBe(true);
                continue;
              }
              if (!playManoeuvre(walk, code)) {
                walk.undoTo(0);
                continue;
              }
              played++;
              expect(replays(s, walk)).toBe(true);
              if (code & VIA_EMPTY) {
                intoEmpty++;
                // The parked card now heads a column of its own, with the card that builds on it next.
                const x = s.cells[(code >> 16) & 31]!;
                const w = walk.s;
                const col = Array.from({ length: w.nColumns }, (_, c) => c).find(
                  (c) => w.len[c]! > 0 && w.cards[c * COLUMN_CAP] === x,
                );
                expect(col, `${preset} #${n}: the parked card heads a column`).toBeDefined();
                expect(w.len[col!]).toBeGreaterThanOrEqual(2);
                expect(s.tables.buildOn[w.cards[col! * COLUMN_CAP + 1]! * 52 + x]).toBe(1);
              }
              walk.undoTo(0);
            }
          }
          const m = generateMoves(s, moves);
          if (m === 0) break;
          applyMove(s, moves[next() % m]!);
        }
      }
    }
    expect(engine).toBeGreaterThan(1000);
    expect(played).toBeGreaterThan(200);
    expect(intoEmpty).toBeGreaterThan(5);
    expect(toEmpty).toBeGreaterThan(20);
  });

  it("a parked card into an empty column, with the run that builds on it from under another card", () => {
    // FreeCell: the nine of hearts is parked; the eight of spades and seven of diamonds lie under
    // the queen of clubs, and four columns are empty. (The six of clubs stays in play, so the
    // seven of diamonds does not go home by itself once uncovered.)
    const s = position(
      resolveRules("freecell"),
      "A",
      ["KH QH JH TH", "KS QS JS TS 9S 8S 7D QC", "KD QD JD TD 9D 8D", "KC 6C JC TC 9C 8C 7C"],
      ["9H"],
    );
    const walk = new Walker(s, [20, 12, 20, 3, 3]);
    const codes = new Int32Array(MAX_MOVES);
    const ranks = new Int32Array(MAX_MOVES);
    // (The eight of clubs, under the seven, could go onto it too.)
    const into = Array.from(codes.subarray(0, listPurposeful(walk, codes, ranks, false))).filter(
      (c) => c & VIA_EMPTY && (c & 15) === 1,
    );
    expect(into).toHaveLength(1);
    expect(playManoeuvre(walk, into[0]!)).toBe(true);
    expect(replays(s, walk)).toBe(true);
    const w = walk.s;
    const col = [4, 5, 6, 7].find((c) => w.len[c]! > 0 && w.cards[c * COLUMN_CAP] === s.cells[0]);
    expect(col).toBeDefined();
    expect(
      Array.from(w.cards.subarray(col! * COLUMN_CAP, col! * COLUMN_CAP + w.len[col!]!)).map(
        cardToString,
      ),
    ).toEqual(["9H", "8S", "7D"]);
    // The queen of clubs was parked on the way, where the nine was.
    expect(
      Array.from(w.cells.subarray(0, w.nCells)).map((c) => (c === NO_CARD ? "-" : cardToString(c))),
    ).toEqual(["QC", "-", "-", "-"]);
  });

  it("a parked card of the last rank into an empty column alone, only where no other card may fill one", () => {
    const codes = new Int32Array(MAX_MOVES);
    const ranks = new Int32Array(MAX_MOVES);
    /** The engine moves of a flipper card into an empty column that the purpose order lists, as "card column". */
    const alone = (s: State): string[] => {
      const walk = new Walker(s, [20, 12, 20, 3, 3]);
      const out: string[] = [];
      for (const runs of [false, true]) {
        const k = listPurposeful(walk, codes, ranks, runs);
        for (let i = 0; i < k; i++) {
          const m = codes[i]!;
          if (m & MANOEUVRE || moveFrom(m) < CELL0 || !moveToEmpty(m)) continue;
          expect(isLegal(s, m)).toBe(true);
          out.push(`${cardToString(moveCard(m))} ${(m >> 5) & 31}`);
        }
      }
      return out;
    };
    // Penguin with the fives as base: the fours are the last rank, and fill empty columns. The
    // four of hearts is parked with nothing to build on it in play; columns 3 to 6 are empty.
    expect(
      alone(position(resolveRules("penguin"), "5", ["4S 3S", "4D 3D", "4C 3C"], ["4H", "3H"])),
    ).toEqual(["4H 3"]);
    // A parked card that is not of the last rank stays parked.
    expect(
      alone(position(resolveRules("penguin"), "5", ["4S 3S", "4D 3D", "4C 3C", "4H"], ["3H"])),
    ).toEqual([]);
    // FreeCell: any card fills an empty column, so none goes there alone.
    expect(
      alone(
        position(
          resolveRules("freecell"),
          "A",
          ["KH QH JH TH", "KS QS JS TS 9S 8S 7D QC", "KD QD JD TD 9D 8D", "KC 6C JC TC 9C 8C 7C"],
          ["9H"],
        ),
      ),
    ).toEqual([]);
  });
});
