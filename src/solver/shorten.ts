/**
 * Depth-first search finds a win, not a short one: on hard deals its line can wander through
 * thousands of positions. This pass keeps the line's destination and cuts its detours: from each
 * position it looks one (on long lines, also two) moves ahead for a position that occurs later on the line and
 * jumps to the latest such one. Positions are compared exactly (flipper slots included, since
 * later moves name them), by a 64-bit fingerprint; the caller replays the result through the
 * engine and keeps the original line if anything went wrong.
 */
import {
  applyMove,
  FOUNDATION,
  generateMoves,
  MAX_MOVES,
  undoMove,
  type Move,
} from "../engine/moves.js";
import type { State } from "../engine/state.js";

/** The slot mix of the flippers (the engine's hash ignores which flipper holds a card). */
function slots(s: State): number {
  let f = 0x811c9dc5;
  for (let i = 0; i < s.nCells; i++) f = Math.imul(f ^ s.cells[i]!, 0x01000193);
  f ^= f >>> 15;
  f = Math.imul(f, 0x2c1b3c6d);
  return f ^ (f >>> 12);
}

/**
 * Position fingerprint (64 bits: the engine's hash with the flipper slots folded in) → latest
 * index on the line, in open addressing on typed arrays (a Map of float keys was the pass's
 * main cost).
 */
class LineIndex {
  readonly #lo: Int32Array;
  readonly #hi: Int32Array;
  readonly #at: Int32Array;
  readonly #mask: number;

  constructor(positions: number) {
    let cap = 16;
    while (cap < positions * 2) cap *= 2;
    this.#lo = new Int32Array(cap);
    this.#hi = new Int32Array(cap);
    this.#at = new Int32Array(cap).fill(-1);
    this.#mask = cap - 1;
  }

  /** The slot holding this position's fingerprint, or the free slot where it would go (the fingerprint left in lastLo/lastHi). */
  #lastLo = 0;
  #lastHi = 0;
  #slot(s: State): number {
    const f = slots(s);
    const lo = s.hashLo ^ Math.imul(f, 0x297a2d39);
    const hi = s.hashHi ^ f;
    this.#lastLo = lo;
    this.#lastHi = hi;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.#mask;
    while (this.#at[i] !== -1 && (this.#lo[i] !== lo || this.#hi[i] !== hi))
      i = (i + 1) & this.#mask;
    return i;
  }

  set(s: State, index: number): void {
    const i = this.#slot(s);
    this.#lo[i] = this.#lastLo;
    this.#hi[i] = this.#lastHi;
    this.#at[i] = index;
  }

  /** Latest index of this position on the line, or -1. */
  get(s: State): number {
    return this.#at[this.#slot(s)]!;
  }
}

/** Room for every count of cards home (52), plus the most a pair of moves can add. */
const HOME_BOUND = 61;

/** Cards a move sends home: its own card if it goes to a foundation, and any base cards it exposes. */
function homeGain(m: Move): number {
  return (((m >> 5) & 31) === FOUNDATION ? 1 : 0) + ((m >>> 25) & 3);
}

/** Lines longer than this after the one-move pass get the two-move pass too. */
export const LONG_LINE = 300;

export function shortenSolution(start: State, moves: readonly Move[]): Move[] {
  // Looking two moves ahead costs branching² per step and saves only ~5% on ordinary lines
  // (FreeCell MS 1-60: 6687 vs 7020 moves, 2.5× the time), so it is kept for lines that still
  // wander after the one-move pass. Either pass costs in proportion to the line it returns.
  const once = shortcut(start, moves, false).line;
  return once.length <= LONG_LINE ? once : shortcut(start, moves, true).line;
}

/**
 * shortenSolution, and whether its result is a legal winning line: the pass plays every move
 * it keeps from the engine's list of legal moves at that point, so when the line it followed was
 * legal and it ends on a won position, the result needs no separate replay. Null otherwise.
 */
export function shortenedWin(start: State, moves: readonly Move[]): Move[] | null {
  let r = shortcut(start, moves, false);
  if (r.line.length > LONG_LINE) r = shortcut(start, moves, true);
  return r.won ? r.line : null;
}

/** The shortened line; won: every move of it was legal where it was played and it ends won. */
function shortcut(
  start: State,
  moves: readonly Move[],
  twoMoves: boolean,
): { line: Move[]; won: boolean } {
  const s = start.clone();
  const lastAt = new LineIndex(moves.length + 1);
  // upTo[h]: the last line position with at most h cards home. No move takes a card off a
  // foundation, so a move that leaves h cards home can only reach a position up to upTo[h]: the
  // moves that cannot beat the best jump so far are not looked at (same line, less work).
  const upTo = new Int32Array(HOME_BOUND).fill(-1);
  lastAt.set(s, 0);
  upTo[s.cardsHome()] = 0;
  for (let i = 0; i < moves.length; i++) {
    applyMove(s, moves[i]!);
    lastAt.set(s, i + 1);
    upTo[s.cardsHome()] = i + 1;
  }
  for (let h = 1; h < HOME_BOUND; h++) if (upTo[h]! < upTo[h - 1]!) upTo[h] = upTo[h - 1]!;
  s.copyFrom(start);
  const out: Move[] = [];
  const first = new Int32Array(MAX_MOVES);
  const second = new Int32Array(MAX_MOVES);
  let i = 0;
  let legal = true;
  while (i < moves.length) {
    // Best jump: the most line positions skipped beyond the moves it takes (0 = follow the line).
    let best = 0;
    let to = i + 1;
    let m1 = moves[i]!;
    let m2 = -1;
    let onLine = false;
    const n1 = generateMoves(s, first);
    const home = s.cardsHome();
    for (let a = 0; a < n1; a++) {
      const ma = first[a]!;
      if (ma === moves[i]) onLine = true;
      const ha = home + homeGain(ma);
      // No position this move (or, in the two-move pass, this move and any next one) can reach
      // lies far enough ahead to beat the best jump.
      if (
        upTo[ha]! - i - 1 <= best &&
        (!twoMoves || upTo[Math.min(ha + 4, HOME_BOUND - 1)]! - i - 2 <= best)
      )
        continue;
      applyMove(s, ma);
      const j = lastAt.get(s);
      if (j - i - 1 > best) {
        best = j - i - 1;
        to = j;
        m1 = ma;
        m2 = -1;
      }
      const n2 = twoMoves ? generateMoves(s, second) : 0;
      for (let b = 0; b < n2; b++) {
        const mb = second[b]!;
        if (upTo[Math.min(ha + homeGain(mb), HOME_BOUND - 1)]! - i - 2 <= best) continue;
        applyMove(s, mb);
        const k = lastAt.get(s);
        if (k - i - 2 > best) {
          best = k - i - 2;
          to = k;
          m1 = ma;
          m2 = mb;
        }
        undoMove(s, mb);
      }
      undoMove(s, ma);
    }
    // Following the line (no jump) plays its own move: legal only if the engine listed it.
    if (best === 0 && !onLine) legal = false;
    out.push(m1);
    applyMove(s, m1);
    if (m2 >= 0) {
      out.push(m2);
      applyMove(s, m2);
    }
    i = to;
  }
  return { line: out, won: legal && s.isWon() };
}
