/**
 * Legal moves, apply and undo. A move is one int so that move lists live in an Int32Array:
 *
 *   bits 0-4   from: column 0..9, flipper 10..17
 *   bits 5-9   to:   column 0..9, flipper 10..17, foundation 18
 *   bits 10-15 count: cards moved (a run for column-to-column moves, else 1)
 *   bits 16-21 card: the head of the moved group (the card that lands on the destination)
 *   bit  22    the destination column was empty
 *
 * Conventions that keep the move list free of moves that change nothing but labels:
 * - A card goes to the lowest-numbered free flipper; flipper-to-flipper moves are not generated.
 * - A whole column is never moved into an empty column.
 * Under `groupMove: "supermove"` the largest group is (free flippers + 1) × 2^(empty columns),
 * not counting the target column; empty columns count only where any card may fill them
 * (`emptyColumn: "any"`), since under `below-base` they cannot hold the intermediate cards. That
 * gives Eight Off and Seahaven Towers their (free cells + 1) rule with no extra option.
 */
import { NO_CARD, suitOf } from "./card.js";
import { COLUMN_CAP, type State } from "./state.js";

export type Move = number;
export const CELL0 = 10;
export const FOUNDATION = 18;
/** Enough for any position of any rule set here (Penguin's worst case is far below). */
export const MAX_MOVES = 512;

export const moveFrom = (m: Move): number => m & 31;
export const moveTo = (m: Move): number => (m >> 5) & 31;
export const moveCount = (m: Move): number => (m >> 10) & 63;
export const moveCard = (m: Move): number => (m >> 16) & 63;
export const moveToEmpty = (m: Move): boolean => ((m >> 22) & 1) === 1;
export const makeMove = (from: number, to: number, count: number, card: number, toEmpty = false): Move =>
  from | (to << 5) | (count << 10) | (card << 16) | (toEmpty ? 1 << 22 : 0);

/** Length of the run (cards in build order) at the end of column c; 0 for an empty column. */
export function runLength(s: State, c: number): number {
  const n = s.len[c]!;
  if (n === 0) return 0;
  const b = c * COLUMN_CAP;
  const buildOn = s.tables.buildOn;
  let r = 1;
  while (r < n && buildOn[s.cards[b + n - r]! * 52 + s.cards[b + n - r - 1]!] === 1) r++;
  return r;
}

/** Largest group that may move to column `dst` (rules' group-move option). */
export function groupCap(s: State, dst: number): number {
  const mode = s.tables.groupMode;
  if (mode === 0) return 64;
  if (mode === 2) return 1;
  let empty = 0;
  if (s.tables.emptyMode === 1) {
    empty = s.emptyColumns();
    if (s.len[dst] === 0) empty--;
  }
  return (s.freeCells() + 1) << empty;
}

/**
 * Writes every legal move into `out` and returns how many. Deterministic order: for each column,
 * foundation, then columns left to right (largest group first into an empty column), then a
 * flipper; then for each flipper, foundation, then columns.
 */
export function generateMoves(s: State, out: Int32Array): number {
  const t = s.tables;
  const buildOn = t.buildOn;
  const rel = t.rel;
  const emptyMode = t.emptyMode;
  const cards = s.cards;
  const nCols = s.nColumns;
  const wrap = s.rules.base === "beak";
  let firstFree = -1;
  let free = 0;
  for (let i = 0; i < s.nCells; i++)
    if (s.cells[i] === NO_CARD) {
      if (firstFree < 0) firstFree = i;
      free++;
    }
  let empties = 0;
  for (let c = 0; c < nCols; c++) if (s.len[c] === 0) empties++;
  // Group caps onto a non-empty and into an empty column (see groupCap).
  let capFull = 64;
  let capEmpty = 64;
  if (t.groupMode === 2) capFull = capEmpty = 1;
  else if (t.groupMode === 1) {
    const e = emptyMode === 1 ? empties : 0;
    capFull = (free + 1) << e;
    capEmpty = (free + 1) << (e > 0 ? e - 1 : 0);
  }
  let n = 0;
  for (let src = 0; src < nCols; src++) {
    const len = s.len[src]!;
    if (len === 0) continue;
    const b = src * COLUMN_CAP;
    const top = cards[b + len - 1]!;
    const su = suitOf(top);
    if (t.foundationCard[su * 14 + s.found[su]!] === top) out[n++] = makeMove(src, FOUNDATION, 1, top);
    const run = runLength(s, src);
    for (let dst = 0; dst < nCols; dst++) {
      if (dst === src) continue;
      const dlen = s.len[dst]!;
      if (dlen > 0) {
        const dtop = cards[dst * COLUMN_CAP + dlen - 1]!;
        // A run descends one rank per card, so the only head that can fit dtop sits exactly
        // (rank(dtop) - 1 - rank(top)) cards above the top: one probe instead of a scan.
        let k = (dtop >> 2) - 1 - (top >> 2);
        if (wrap) k = (k + 13) % 13;
        k++;
        if (k >= 1 && k <= run && k <= capFull) {
          const head = cards[b + len - k]!;
          if (buildOn[head * 52 + dtop] === 1) out[n++] = makeMove(src, dst, k, head);
        }
      } else if (emptyMode !== 2) {
        // Never the whole column: that would only swap two column labels.
        const max = Math.min(run, capEmpty, len - 1);
        for (let k = max; k >= 1; k--) {
          const head = cards[b + len - k]!;
          if (emptyMode === 1 || rel[head] === 12) out[n++] = makeMove(src, dst, k, head, true);
        }
      }
    }
    if (firstFree >= 0) out[n++] = makeMove(src, CELL0 + firstFree, 1, top);
  }
  for (let i = 0; i < s.nCells; i++) {
    const card = s.cells[i]!;
    if (card === NO_CARD) continue;
    const su = suitOf(card);
    if (t.foundationCard[su * 14 + s.found[su]!] === card) out[n++] = makeMove(CELL0 + i, FOUNDATION, 1, card);
    for (let dst = 0; dst < nCols; dst++) {
      const dlen = s.len[dst]!;
      if (dlen > 0) {
        if (buildOn[card * 52 + cards[dst * COLUMN_CAP + dlen - 1]!] === 1) out[n++] = makeMove(CELL0 + i, dst, 1, card);
      } else if (emptyMode === 1 || (emptyMode === 0 && rel[card] === 12)) {
        out[n++] = makeMove(CELL0 + i, dst, 1, card, true);
      }
    }
  }
  return n;
}

/** Plays a move produced by `generateMoves` for this position. No legality check: see isLegal. */
export function applyMove(s: State, m: Move): void {
  const from = m & 31;
  const to = (m >> 5) & 31;
  if (from < CELL0) {
    if (to === FOUNDATION) {
      const card = s.pop(from);
      s.found[suitOf(card)]!++;
    } else if (to >= CELL0) {
      s.setCell(to - CELL0, s.pop(from));
    } else {
      moveRun(s, from, to, (m >> 10) & 63);
    }
  } else {
    const card = s.cells[from - CELL0]!;
    s.setCell(from - CELL0, NO_CARD);
    if (to === FOUNDATION) s.found[suitOf(card)]!++;
    else s.push(to, card);
  }
}

/** Takes back a move that was the last one applied to this position. */
export function undoMove(s: State, m: Move): void {
  const from = m & 31;
  const to = (m >> 5) & 31;
  if (to === FOUNDATION) {
    const card = (m >> 16) & 63;
    s.found[suitOf(card)]!--;
    if (from < CELL0) s.push(from, card);
    else s.setCell(from - CELL0, card);
  } else if (to >= CELL0) {
    const card = s.cells[to - CELL0]!;
    s.setCell(to - CELL0, NO_CARD);
    s.push(from, card);
  } else if (from < CELL0) {
    moveRun(s, to, from, (m >> 10) & 63);
  } else {
    s.setCell(from - CELL0, s.pop(to));
  }
}

function moveRun(s: State, from: number, to: number, count: number): void {
  const start = from * COLUMN_CAP + s.len[from]! - count;
  for (let i = 0; i < count; i++) s.push(to, s.cards[start + i]!);
  for (let i = 0; i < count; i++) s.pop(from);
}

const scratch = new Int32Array(MAX_MOVES);
/** True when `m` is among the legal moves now (slow path: user input, replays, tests). */
export function isLegal(s: State, m: Move): boolean {
  const n = generateMoves(s, scratch);
  for (let i = 0; i < n; i++) if (scratch[i] === m) return true;
  return false;
}

/** All legal moves as a fresh array (convenience; hot paths use generateMoves). */
export function legalMoves(s: State): Move[] {
  const n = generateMoves(s, scratch);
  return Array.from(scratch.subarray(0, n));
}
