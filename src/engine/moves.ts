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

/** colOfTop[card] = the column whose last card is `card`, else -1. Set and cleared by generateMoves. */
const colOfTop = new Int8Array(52).fill(-1);
/** Moves onto non-empty columns found for one source, kept sorted by destination column. */
const hitDst = new Int8Array(16);
const hitMove = new Int32Array(16);

/**
 * Writes every legal move into `out` and returns how many. Deterministic order: for each column,
 * foundation, then columns left to right (largest group first into an empty column), then a
 * flipper; then for each flipper, foundation, then columns.
 *
 * Speed: instead of testing every destination column, each candidate head card looks up the
 * (at most two) cards it builds on in `colOfTop`, so the work is per card of the movable run,
 * not per column pair; the few hits are insertion-sorted to keep the order above.
 */
export function generateMoves(s: State, out: Int32Array): number {
  const t = s.tables;
  const buildOn = t.buildOn;
  const targets = t.targets;
  const rel = t.rel;
  const fcard = t.foundationCard;
  const emptyMode = t.emptyMode;
  const cards = s.cards;
  const lens = s.len;
  const cells = s.cells;
  const found = s.found;
  const nCols = s.nColumns;
  const nCells = s.nCells;
  let firstFree = -1;
  let free = 0;
  for (let i = 0; i < nCells; i++)
    if (cells[i] === NO_CARD) {
      if (firstFree < 0) firstFree = i;
      free++;
    }
  let empties = 0;
  for (let c = 0; c < nCols; c++) {
    const l = lens[c]!;
    if (l === 0) empties++;
    else colOfTop[cards[c * COLUMN_CAP + l - 1]!] = c;
  }
  // Empty destinations matter only when the rules let something fill them.
  const fillEmpty = empties > 0 && emptyMode !== 2;
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
    const len = lens[src]!;
    if (len === 0) continue;
    const b = src * COLUMN_CAP;
    const top = cards[b + len - 1]!;
    const su = top & 3;
    if (fcard[su * 14 + found[su]!] === top) out[n++] = makeMove(src, FOUNDATION, 1, top);
    let run = 1;
    while (run < len && buildOn[cards[b + len - run]! * 52 + cards[b + len - run - 1]!] === 1) run++;
    // Onto non-empty columns: one head per destination at most (the ranks of a run differ).
    let hits = 0;
    const most = run < capFull ? run : capFull;
    for (let k = 1; k <= most; k++) {
      const head = cards[b + len - k]!;
      for (let j = head * 2, e = j + 2; j < e; j++) {
        const tg = targets[j]!;
        if (tg < 0) break;
        const d = colOfTop[tg]!;
        // d === src only for a full 13-card wrapped run whose head fits its own top.
        if (d < 0 || d === src) continue;
        let h = hits++;
        while (h > 0 && hitDst[h - 1]! > d) {
          hitDst[h] = hitDst[h - 1]!;
          hitMove[h] = hitMove[h - 1]!;
          h--;
        }
        hitDst[h] = d;
        hitMove[h] = makeMove(src, d, k, head);
      }
    }
    let h = 0;
    if (fillEmpty) {
      // Never the whole column: that would only swap two column labels.
      const max = Math.min(run, capEmpty, len - 1);
      for (let dst = 0; dst < nCols; dst++) {
        if (lens[dst] !== 0) continue;
        while (h < hits && hitDst[h]! < dst) out[n++] = hitMove[h++]!;
        if (emptyMode === 1) {
          for (let k = max; k >= 1; k--) out[n++] = makeMove(src, dst, k, cards[b + len - k]!, true);
        } else {
          // Ranks in a run rise by one per card going down, so the one head of rank base − 1
          // (rel 12) sits exactly 12 − rel(top) cards under the top.
          const k = 13 - rel[top]!;
          if (k <= max) out[n++] = makeMove(src, dst, k, cards[b + len - k]!, true);
        }
      }
    }
    while (h < hits) out[n++] = hitMove[h++]!;
    if (firstFree >= 0) out[n++] = makeMove(src, CELL0 + firstFree, 1, top);
  }
  for (let i = 0; i < nCells; i++) {
    const card = cells[i]!;
    if (card === NO_CARD) continue;
    const su = card & 3;
    if (fcard[su * 14 + found[su]!] === card) out[n++] = makeMove(CELL0 + i, FOUNDATION, 1, card);
    const toEmpty = fillEmpty && (emptyMode === 1 || rel[card] === 12);
    const d0 = targets[card * 2]! >= 0 ? colOfTop[targets[card * 2]!]! : -1;
    const d1 = targets[card * 2 + 1]! >= 0 ? colOfTop[targets[card * 2 + 1]!]! : -1;
    if (!toEmpty) {
      const lo = d0 < d1 ? d0 : d1;
      const hi = d0 < d1 ? d1 : d0;
      if (lo >= 0) out[n++] = makeMove(CELL0 + i, lo, 1, card);
      if (hi >= 0) out[n++] = makeMove(CELL0 + i, hi, 1, card);
    } else {
      for (let dst = 0; dst < nCols; dst++) {
        if (lens[dst] === 0) out[n++] = makeMove(CELL0 + i, dst, 1, card, true);
        else if (dst === d0 || dst === d1) out[n++] = makeMove(CELL0 + i, dst, 1, card);
      }
    }
  }
  for (let c = 0; c < nCols; c++) {
    const l = lens[c]!;
    if (l !== 0) colOfTop[cards[c * COLUMN_CAP + l - 1]!] = -1;
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
