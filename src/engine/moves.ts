/**
 * Legal moves, apply and undo. A move is one int so that move lists live in an Int32Array:
 *
 *   bits 0-4   from: column 0..9, flipper 10..17
 *   bits 5-9   to:   column 0..9, flipper 10..17, foundation 18
 *   bits 10-15 count: cards moved (a run for column-to-column moves, else 1)
 *   bits 16-21 card: the head of the moved group (the card that lands on the destination)
 *   bit  22    the destination column was empty
 *   bits 23-24 which foundation (rank foundations only; a suit's card has one foundation)
 *   bits 25-26 base cards that go home with the move (penguin-beak-home: cards it exposes)
 *   bits 27-28, 29-30  the suits of the first and second of them; bit 31 picks the third's
 *              suit among the two left (1 = the higher), so undo can put them back
 *
 * Conventions that keep the move list free of moves that change nothing but labels:
 * - A card goes to the lowest-numbered free flipper; flipper-to-flipper moves are not generated.
 * - A whole column is never moved into an empty column.
 *
 * Group moves. `supermove`: at most (free flippers + 1) × 2^E cards, E the empty columns other
 * than the target, whatever the empty-column rule (the Portuguese rule text's formula, written for Penguin, whose
 * empty columns take only base − 1 cards: there it can exceed what single moves could do).
 * `free-cells`: at most free flippers + 1 (Eight Off, Seahaven Towers).
 *
 * Under `deal: "penguin-beak-home"` a base-rank card goes to its foundation as soon as it is a
 * column's last card; the move that exposes it carries it (bits 25-31), so it is one move for
 * the environment, the solver and undo alike.
 */
import { NO_CARD } from "./card.js";
import { COLUMN_CAP, State } from "./state.js";
import { describeValue, IllegalMoveError, InvalidArgumentError } from "../errors.js";

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
/** Foundation index of a move home under rank foundations (0 otherwise). */
export const moveFoundation = (m: Move): number => (m >> 23) & 3;
/** Base cards the move sends home after it (penguin-beak-home), 0..3. */
export const moveAutoHome = (m: Move): number => (m >>> 25) & 3;
export const makeMove = (
  from: number,
  to: number,
  count: number,
  card: number,
  toEmpty = false,
): Move => from | (to << 5) | (count << 10) | (card << 16) | (toEmpty ? 1 << 22 : 0);

/**
 * The legal move that sends the card at `from` (a column or flipper) home, or -1: with the
 * lowest foundation that takes it and the base cards it exposes, exactly as generateMoves has it.
 */
export function homeMove(s: State, from: number): Move {
  const card = from < CELL0 ? s.top(from) : s.cells[from - CELL0]!;
  if (card === NO_CARD) return -1;
  if (s.tables.rankHome) for (let f = 0; f < 4; f++) needs[f] = s.foundationNeeds(f);
  const extra = from < CELL0 && s.tables.autoHome ? homeChain(s, from, s.len[from]! - 1) : 0;
  return homeMoves(s, from, card, homeScratch, 0, extra) > 0 ? homeScratch[0]! : -1;
}
const homeScratch = new Int32Array(4);

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
  if (mode === 3) return s.freeCells() + 1;
  let empty = s.emptyColumns();
  if (s.len[dst] === 0) empty--;
  return (s.freeCells() + 1) << empty;
}

/** Suit of the i-th base card (0-2) a move sends home (see the file comment). */
export function autoHomeSuit(m: Move, i: number): number {
  if (i < 2) return (m >>> (27 + 2 * i)) & 3;
  const a = (m >>> 27) & 3;
  const b = (m >>> 29) & 3;
  let lo = -1;
  let hi = -1;
  for (let su = 0; su < 4; su++) if (su !== a && su !== b) lo < 0 ? (lo = su) : (hi = su);
  return m >>> 31 ? hi : lo;
}

/**
 * The auto-home bits for a move that leaves `rest` cards in column c: base-rank cards whose
 * foundation is empty, from the new last card down (penguin-beak-home).
 */
function homeChain(s: State, c: number, rest: number): number {
  const b = c * COLUMN_CAP;
  const base = s.base;
  let bits = 0;
  let k = 0;
  for (let d = rest - 1; d >= 0; d--) {
    const card = s.cards[b + d]!;
    if (card >> 2 !== base || s.found[card & 3] !== 0) break;
    if (k < 2) bits |= (card & 3) << (27 + 2 * k);
    else {
      let hi = -1;
      for (let su = 0; su < 4; su++)
        if (su !== ((bits >>> 27) & 3) && su !== ((bits >>> 29) & 3)) hi = su;
      if ((card & 3) === hi) bits |= 1 << 31;
    }
    k++;
  }
  return bits | (k << 25);
}

/** colOfTop[card] = the column whose last card is `card`, else -1. Set and cleared by generateMoves. */
const colOfTop = new Int8Array(52).fill(-1);
/** Rank foundations: the rank each one needs next (NO_CARD when full). Set by generateMoves. */
const needs = new Uint8Array(4);

/** Writes the moves home of `card` from `from` (each rank foundation that takes it) and returns n. */
function homeMoves(
  s: State,
  from: number,
  card: number,
  out: Int32Array,
  n: number,
  extra: number,
): number {
  const t = s.tables;
  if (!t.rankHome) {
    const su = card & 3;
    if (t.foundationCard[su * 14 + s.found[su]!] === card)
      out[n++] = makeMove(from, FOUNDATION, 1, card) | extra;
    return n;
  }
  const r = card >> 2;
  for (let f = 0; f < 4; f++)
    if (needs[f] === r) out[n++] = makeMove(from, FOUNDATION, 1, card) | (f << 23) | extra;
  return n;
}
/** Moves onto non-empty columns found for one source, kept sorted by destination column. */
const hitDst = new Int8Array(16);
const hitMove = new Int32Array(16);

/** The largest group onto a non-empty column (caps[0]) and into an empty one (caps[1]). */
const caps = new Int32Array(2);

/**
 * Fills `caps` for a position with `free` free flippers and `empties` empty columns: groupCap's
 * rule for every destination at once (64 stands for no limit).
 */
function groupCaps(groupMode: number, free: number, empties: number): void {
  let full = 64;
  let empty = 64;
  if (groupMode === 2) full = empty = 1;
  else if (groupMode === 3) full = empty = free + 1;
  else if (groupMode === 1) {
    full = (free + 1) << empties;
    empty = (free + 1) << (empties > 0 ? empties - 1 : 0);
  }
  caps[0] = full;
  caps[1] = empty;
}

/**
 * Writes every legal move into `out` and returns how many. Deterministic order: for each column,
 * foundation, then columns left to right (largest group first into an empty column), then a
 * flipper; then for each flipper, foundation, then columns.
 *
 * Speed: instead of testing every destination column, each candidate head card looks up the
 * (at most two) cards it builds on in `colOfTop`, so the work is per card of the movable run,
 * not per column pair; the few hits are insertion-sorted to keep the order above.
 * `from` (a column or flipper): only the moves from there, in the same order (isLegal).
 */
export function generateMoves(s: State, out: Int32Array, from = -1): number {
  const t = s.tables;
  if (t.rankHome) for (let f = 0; f < 4; f++) needs[f] = s.foundationNeeds(f);
  const buildOn = t.buildOn;
  const targets = t.targets;
  const rel = t.rel;
  const emptyMode = t.emptyMode;
  const cards = s.cards;
  const lens = s.len;
  const cells = s.cells;
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
  // Bit c: column c is empty (walked lowest first, as a scan of the columns would).
  let emptyBits = 0;
  for (let c = 0; c < nCols; c++) {
    const l = lens[c]!;
    if (l === 0) empties++, (emptyBits |= 1 << c);
    else colOfTop[cards[c * COLUMN_CAP + l - 1]!] = c;
  }
  // Empty destinations matter only when the rules let something fill them.
  const fillEmpty = empties > 0 && emptyMode !== 2;
  // Group caps onto a non-empty and into an empty column (see groupCap).
  groupCaps(t.groupMode, free, empties);
  const capFull = caps[0]!;
  const capEmpty = caps[1]!;
  let n = 0;
  const colEnd = from < 0 ? nCols : from < CELL0 ? from + 1 : 0;
  for (let src = Math.max(from, 0); src < colEnd; src++) {
    const len = lens[src]!;
    if (len === 0) continue;
    const b = src * COLUMN_CAP;
    const top = cards[b + len - 1]!;
    n = homeMoves(s, src, top, out, n, 0);
    // The run at the column's end, counted only as far as the largest group allowed (capEmpty is
    // never above capFull): beyond that its length changes nothing below.
    let run = 1;
    while (
      run < len &&
      run < capFull &&
      buildOn[cards[b + len - run]! * 52 + cards[b + len - run - 1]!] === 1
    )
      run++;
    // Onto non-empty columns: one head per destination at most (the ranks of a run differ).
    let hits = 0;
    const most = Math.min(run, capFull);
    // Each head but the deepest builds on the card under it, one of its targets. When the cards
    // of these rules have one target (suit building: the top's second one is unused), no head
    // above the deepest can land elsewhere, so only the whole run is tried.
    for (let k = targets[top * 2 + 1]! < 0 ? most : 1; k <= most; k++) {
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
    // Never the whole column: that would only swap two column labels. Any card fills an empty
    // column: groups of max cards down to 1; kings-only: ranks in a run rise by one per card
    // going down, so a head of rank base − 1 (rel 12) sits 13 − rel(top) cards under the top,
    // and again every 13 cards below that (a wrapping run of alternating colours can be longer
    // than 13 cards).
    const max = fillEmpty ? Math.min(run, capEmpty, len - 1) : 0;
    const low = emptyMode === 1 ? 1 : 13 - rel[top]!;
    if (low <= max) {
      const step = emptyMode === 1 ? 1 : 13;
      const high = emptyMode === 1 ? max : max - ((max - low) % 13);
      for (let e = emptyBits; e !== 0; e &= e - 1) {
        const dst = 31 - Math.clz32(e & -e);
        while (h < hits && hitDst[h]! < dst) out[n++] = hitMove[h++]!;
        for (let k = high; k >= low; k -= step)
          out[n++] = makeMove(src, dst, k, cards[b + len - k]!, true);
      }
    }
    while (h < hits) out[n++] = hitMove[h++]!;
    if (firstFree >= 0) out[n++] = makeMove(src, CELL0 + firstFree, 1, top);
  }
  const cellEnd = from < 0 ? nCells : from < CELL0 ? 0 : from - CELL0 + 1;
  for (let i = from < CELL0 ? 0 : from - CELL0; i < cellEnd; i++) {
    const card = cells[i]!;
    if (card === NO_CARD) continue;
    n = homeMoves(s, CELL0 + i, card, out, n, 0);
    const toEmpty = fillEmpty && (emptyMode === 1 || rel[card] === 12);
    const d0 = targets[card * 2]! >= 0 ? colOfTop[targets[card * 2]!]! : -1;
    const d1 = targets[card * 2 + 1]! >= 0 ? colOfTop[targets[card * 2 + 1]!]! : -1;
    if (!toEmpty) {
      const lo = Math.min(d0, d1);
      const hi = Math.max(d0, d1);
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
  // The base cards each move from a column exposes (penguin-beak-home), added in one pass
  // after the list so that the loops above stay as small as the other rules need.
  if (t.autoHome)
    for (let i = 0; i < n; i++) {
      const m = out[i]!;
      if ((m & 31) < CELL0) out[i] = m | homeChain(s, m & 31, lens[m & 31]! - ((m >> 10) & 63));
    }
  return n;
}

/**
 * How many moves generateMoves lists for s, without listing them: the scorer's mobility features
 * count the moves of every position a search scores. The same walk with nothing written and no
 * order kept; the property tests hold it to generateMoves on every position they reach.
 */
export function countMoves(s: State): number {
  const t = s.tables;
  if (t.rankHome) for (let f = 0; f < 4; f++) needs[f] = s.foundationNeeds(f);
  const buildOn = t.buildOn;
  const targets = t.targets;
  const emptyMode = t.emptyMode;
  const cards = s.cards;
  const lens = s.len;
  const cells = s.cells;
  const nCols = s.nColumns;
  const nCells = s.nCells;
  let free = 0;
  for (let i = 0; i < nCells; i++) if (cells[i] === NO_CARD) free++;
  let empties = 0;
  for (let c = 0; c < nCols; c++) {
    const l = lens[c]!;
    if (l === 0) empties++;
    else colOfTop[cards[c * COLUMN_CAP + l - 1]!] = c;
  }
  const fillEmpty = empties > 0 && emptyMode !== 2;
  groupCaps(t.groupMode, free, empties);
  const capFull = caps[0]!;
  const capEmpty = caps[1]!;
  let n = 0;
  for (let src = 0; src < nCols; src++) {
    const len = lens[src]!;
    if (len === 0) continue;
    const b = src * COLUMN_CAP;
    const top = cards[b + len - 1]!;
    n += homeCount(s, top);
    let run = 1;
    while (
      run < len &&
      run < capFull &&
      buildOn[cards[b + len - run]! * 52 + cards[b + len - run - 1]!] === 1
    )
      run++;
    const most = Math.min(run, capFull);
    for (let k = targets[top * 2 + 1]! < 0 ? most : 1; k <= most; k++) {
      const head = cards[b + len - k]!;
      for (let j = head * 2, e = j + 2; j < e; j++) {
        const tg = targets[j]!;
        if (tg < 0) break;
        const d = colOfTop[tg]!;
        if (d >= 0 && d !== src) n++;
      }
    }
    // Into each empty column: the group sizes from high down to low, every `step`.
    const max = fillEmpty ? Math.min(run, capEmpty, len - 1) : 0;
    const low = emptyMode === 1 ? 1 : 13 - t.rel[top]!;
    if (low <= max)
      n += empties * (emptyMode === 1 ? max - low + 1 : Math.floor((max - low) / 13) + 1);
    if (free > 0) n++;
  }
  for (let i = 0; i < nCells; i++) {
    const card = cells[i]!;
    if (card === NO_CARD) continue;
    n += homeCount(s, card);
    const d0 = targets[card * 2]! >= 0 ? colOfTop[targets[card * 2]!]! : -1;
    const d1 = targets[card * 2 + 1]! >= 0 ? colOfTop[targets[card * 2 + 1]!]! : -1;
    // d0 and d1 are tops of two columns, never the same one.
    n += (d0 >= 0 ? 1 : 0) + (d1 >= 0 ? 1 : 0);
    if (fillEmpty && (emptyMode === 1 || t.rel[card] === 12)) n += empties;
  }
  for (let c = 0; c < nCols; c++) {
    const l = lens[c]!;
    if (l !== 0) colOfTop[cards[c * COLUMN_CAP + l - 1]!] = -1;
  }
  return n;
}

/** How many moves home homeMoves writes for `card`. */
function homeCount(s: State, card: number): number {
  const t = s.tables;
  if (!t.rankHome) {
    const su = card & 3;
    return t.foundationCard[su * 14 + s.found[su]!] === card ? 1 : 0;
  }
  const r = card >> 2;
  let k = 0;
  for (let f = 0; f < 4; f++) if (needs[f] === r) k++;
  return k;
}

/**
 * Plays a move produced by `generateMoves` for this position, with no legality check: the
 * search loops' version, exported to users as `applyMoveUnchecked`. A move that is not legal
 * here corrupts the position (a card twice); `applyLegalMove` (the public `applyMove`) checks.
 */
export function applyMove(s: State, m: Move): void {
  // A solver's copy (no hash, suit foundations, no base cards carried home) takes a short way
  // on its arrays alone: small enough for V8 to inline it into a search's loops.
  if (s.hashed || m >>> 23 !== 0 || s.tables.rankHome) {
    applyTracked(s, m);
    return;
  }
  const from = m & 31;
  const to = (m >> 5) & 31;
  const cards = s.cards;
  const lens = s.len;
  let card: number;
  if (from < CELL0) {
    const k = to < CELL0 ? (m >> 10) & 63 : 1;
    const b = from * COLUMN_CAP + (lens[from]! -= k);
    if (to < CELL0) {
      const o = to * COLUMN_CAP + lens[to]!;
      for (let i = 0; i < k; i++) (cards[o + i] = cards[b + i]!), (cards[b + i] = NO_CARD);
      lens[to]! += k;
      return;
    }
    card = cards[b]!;
    cards[b] = NO_CARD;
  } else {
    card = s.cells[from - CELL0]!;
    s.cells[from - CELL0] = NO_CARD;
  }
  if (to === FOUNDATION) s.found[card & 3]!++;
  else if (to >= CELL0) s.cells[to - CELL0] = card;
  else cards[to * COLUMN_CAP + lens[to]!++] = card;
}

/** Takes back a move that was the last one applied to this position. */
export function undoMove(s: State, m: Move): void {
  const from = m & 31;
  const to = (m >> 5) & 31;
  // Base cards it sent home come back first (penguin-beak-home).
  for (let k = (m >>> 25) & 3; k > 0; k--) {
    const su = autoHomeSuit(m, k - 1);
    s.takeHome(su, s.base * 4 + su);
    s.push(from, s.base * 4 + su);
  }
  // Any move but one home is taken back by its cards moving back: source and destination swapped.
  if (to !== FOUNDATION) {
    applyMove(s, (m & 0x3ffc00) | (from << 5) | to);
    return;
  }
  const card = (m >> 16) & 63;
  if (s.hashed || s.tables.rankHome) {
    s.takeHome(s.tables.rankHome ? (m >> 23) & 3 : card & 3, card);
    if (from < CELL0) s.push(from, card);
    else s.setCell(from - CELL0, card);
    return;
  }
  s.found[card & 3]!--;
  if (from >= CELL0) s.cells[from - CELL0] = card;
  else s.cards[from * COLUMN_CAP + s.len[from]!++] = card;
}

/** applyMove through the State's methods, which keep its hash and rank foundations. */
function applyTracked(s: State, m: Move): void {
  const from = m & 31;
  const to = (m >> 5) & 31;
  if (from < CELL0 && to < CELL0) moveRun(s, from, to, (m >> 10) & 63);
  else {
    const card = from < CELL0 ? s.pop(from) : s.cells[from - CELL0]!;
    if (from >= CELL0) s.setCell(from - CELL0, NO_CARD);
    if (to === FOUNDATION) s.putHome(s.tables.rankHome ? (m >> 23) & 3 : card & 3, card);
    else if (to >= CELL0) s.setCell(to - CELL0, card);
    else s.push(to, card);
  }
  // Base cards the move exposed go home with it (penguin-beak-home).
  for (let k = (m >>> 25) & 3; k > 0; k--) {
    const card = s.pop(from);
    s.putHome(card & 3, card);
  }
}

function moveRun(s: State, from: number, to: number, count: number): void {
  const start = from * COLUMN_CAP + s.len[from]! - count;
  for (let i = 0; i < count; i++) s.push(to, s.cards[start + i]!);
  for (let i = 0; i < count; i++) s.pop(from);
}

const scratch = new Int32Array(MAX_MOVES);
/** True when `m` is among the legal moves now (user input, replays of every solver line, tests). */
export function isLegal(s: State, m: Move): boolean {
  const from = m & 31;
  if (from >= CELL0 + s.nCells) return false;
  // A move home is the one homeMove lists for its source (about half of a solver line's moves);
  // rank foundations, where a card may have more than one, take the long way.
  if (((m >> 5) & 31) === FOUNDATION && !s.tables.rankHome) return homeMove(s, from) === m;
  // Moves that carry base cards home or name a rank foundation: checked against the list.
  if (s.tables.autoHome || s.tables.rankHome) {
    const n = generateMoves(s, scratch, from);
    for (let i = 0; i < n; i++) if (scratch[i] === m) return true;
    return false;
  }
  return listed(s, m);
}

/**
 * Whether generateMoves would list move m (not a move home; rules without base cards carried
 * home or rank foundations), read off the position without listing: the tests hold it to the
 * list on every rule set. A third of the cost of listing the source's moves, and every solver
 * line is checked this way.
 */
function listed(s: State, m: Move): boolean {
  const from = m & 31;
  const to = (m >> 5) & 31;
  const k = (m >> 10) & 63;
  const card = (m >> 16) & 63;
  const toEmpty = (m >> 22) & 1;
  // Nothing but those fields: no foundation, no base cards (bits 23-31).
  if (m >>> 23 !== 0 || k === 0 || to === from) return false;
  const t = s.tables;
  const nCols = s.nColumns;
  if (from >= nCols && from < CELL0) return false;
  if (to >= CELL0) {
    // Into the lowest free flipper, a column's last card.
    if (
      to >= CELL0 + s.nCells ||
      from >= CELL0 ||
      k !== 1 ||
      toEmpty !== 0 ||
      s.cells[to - CELL0] !== NO_CARD
    )
      return false;
    for (let i = 0; i < to - CELL0; i++) if (s.cells[i] === NO_CARD) return false;
    return s.len[from]! > 0 && s.top(from) === card;
  }
  if (to >= nCols) return false;
  const dstLen = s.len[to]!;
  if (toEmpty !== (dstLen === 0 ? 1 : 0)) return false;
  const dstTop = dstLen === 0 ? NO_CARD : s.cards[to * COLUMN_CAP + dstLen - 1]!;
  const onTop =
    dstLen > 0 && (t.targets[card * 2] === dstTop || t.targets[card * 2 + 1] === dstTop);
  const fills = dstLen === 0 && t.emptyMode !== 2;
  if (from >= CELL0) {
    if (k !== 1 || s.cells[from - CELL0] !== card || card === NO_CARD) return false;
    return onTop || (fills && (t.emptyMode === 1 || t.rel[card] === 12));
  }
  const len = s.len[from]!;
  if (k > len || s.cards[from * COLUMN_CAP + len - k] !== card) return false;
  // The k cards must be in build order, and no more than the rules let move there.
  const b = from * COLUMN_CAP;
  for (let i = len - k + 1; i < len; i++)
    if (t.buildOn[s.cards[b + i]! * 52 + s.cards[b + i - 1]!] !== 1) return false;
  if (k > groupCap(s, to)) return false;
  if (dstLen > 0) return onTop;
  // Into an empty column: never the whole column; kings-only, a run headed by a card of the last
  // rank (13 − rel(top) cards, or 13 more for each wrap of a run longer than 13 cards).
  if (!fills || k === len) return false;
  return t.emptyMode === 1 || (k + t.rel[s.cards[b + len - 1]!]!) % 13 === 0;
}

/** All legal moves as a fresh array (convenience; hot paths use generateMoves). */
export function legalMoves(s: State): Move[] {
  const n = generateMoves(s, scratch);
  return Array.from(scratch.subarray(0, n));
}

/**
 * applyMove for callers outside the engine's loops (the public `applyMove`): refuses anything
 * but a legal move of this position with IllegalMoveError, leaving the position unchanged.
 */
export function applyLegalMove(s: State, m: Move): void {
  if (!(s instanceof State))
    throw new InvalidArgumentError(`applyMove needs a State, got ${describeValue(s)}`);
  if (typeof m !== "number" || !Number.isInteger(m) || m < -(2 ** 31) || m >= 2 ** 32)
    throw new InvalidArgumentError(
      `a move is a 32-bit integer from generateMoves or parseMove, got ${describeValue(m)}`,
    );
  if (!isLegal(s, m | 0))
    throw new IllegalMoveError(
      `illegal move ${m}: not one of this position's legal moves (see legalMoves, parseMove)`,
      "not one of this position's legal moves",
    );
  applyMove(s, m | 0);
}
