/**
 * Manoeuvres: several engine moves played as one step of a search, each with a purpose (in the
 * spirit of Freecell Solver's meta-moves). The cards in the way go one by one to free flippers
 * (then to empty columns, where any card may fill one), and then
 * - a card that is next on its foundation goes home, or
 * - a run (a column's cards in build order, as long as it goes) goes onto the card it builds
 *   on, wherever that card lies in another column.
 * A manoeuvre is one int with bit 30 set (see isManoeuvre):
 * bits 0-3 source column, 4-9 depth of the card or run head, 10-15 cards moved, 16-20
 * destination (a column or FOUNDATION), 21-26 depth of the card it goes onto.
 * Only for rules where the engine's single moves say everything (no base cards carried home,
 * suit foundations).
 */
import { NO_CARD } from "../engine/card.js";
import { CELL0, FOUNDATION, groupCap, homeMove, makeMove } from "../engine/moves.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import type { Walker } from "./walker.js";

export const MANOEUVRE = 1 << 30;

/** Whether these rules can have manoeuvres at all. */
export function hasManoeuvres(s: State): boolean {
  return !s.tables.autoHome && !s.tables.rankHome && s.nCells > 0;
}

/**
 * Whether a search step is a manoeuvre rather than an engine move: bit 30 marks one only where
 * the rules have manoeuvres. Their engine moves never set it; under penguin-beak-home, which has
 * none, it is part of the move (the suit of a base card the move sends home).
 */
export const isManoeuvre = (s: State, m: number): boolean => (m & MANOEUVRE) !== 0 && hasManoeuvres(s);

/**
 * A single move into a flipper from a column of two cards or more: what a `lean` search leaves
 * out, since a manoeuvre makes such a move only on the way to a purpose (as Freecell Solver's
 * fast presets do). Not complete then: a win that needs a card parked for later is missed.
 */
export function leftOut(s: State, m: number): boolean {
  const to = (m >> 5) & 31;
  return to >= CELL0 && to < FOUNDATION && s.len[m & 31]! > 1;
}

/**
 * Writes the manoeuvres of the walker's position that need at least one card moved out of the
 * way into `out` (the ones that need none are engine moves) and returns how many. Left out: a
 * run whose last card would go home as soon as the cards above it are gone (playManoeuvre could
 * not finish it: 4-6 % of the manoeuvres played on Penguin, Eight Off and Baker's Game, 11 % on
 * Seahaven Towers, 14 % on FreeCell).
 */
export function listManoeuvres(walk: Walker, out: Int32Array): number {
  const s = walk.s;
  const at = walk.where;
  let n = 0;
  const free = s.freeCells();
  const empties = s.tables.emptyMode === 1 ? s.emptyColumns() : 0;
  const room = free + empties;
  if (room === 0) return 0;
  const cards = s.cards;
  const buildOn = s.tables.buildOn;
  const fc = s.tables.foundationCard;
  for (let c = 0; c < s.nColumns; c++) {
    const len = s.len[c]!;
    const b = c * COLUMN_CAP;
    // A buried card next on its foundation (the nearest to the top only).
    for (let d = len - 2; d >= 0 && len - 1 - d <= room; d--) {
      const card = cards[b + d]!;
      if (fc[(card & 3) * 14 + s.found[card & 3]!] !== card) continue;
      out[n++] = MANOEUVRE | c | (d << 4) | (1 << 10) | (FOUNDATION << 16);
      break;
    }
    // Runs, bottom up; each onto the card it builds on in another column. A run with more than
    // `room` cards above it cannot be cleared: start at the run holding the deepest card that can.
    let i0 = Math.max(0, len - 1 - room);
    while (i0 > 0 && buildOn[cards[b + i0]! * 52 + cards[b + i0 - 1]!] === 1) i0--;
    for (let i = i0; i < len; ) {
      let e = i;
      while (e + 1 < len && buildOn[cards[b + e + 1]! * 52 + cards[b + e]!] === 1) e++;
      const head = cards[b + i]!;
      const k = e - i + 1;
      for (let j = 0; j < 2; j++) {
        const t = s.tables.targets[head * 2 + j]!;
        if (t < 0) break;
        const loc = at[t]!;
        const ds = loc >> 6;
        if (loc < 0 || ds === c) continue;
        const depth = loc & 63;
        const away = s.len[ds]! - 1 - depth + (len - 1 - e);
        // (The card it goes onto is not safe to send home while the run's head is in play.)
        if (away === 0 || away > room || k > capAfter(s, free, empties, away) || (e < len - 1 && walk.homeSafe(c, e + 1))) continue;
        out[n++] = MANOEUVRE | c | (i << 4) | (k << 10) | (ds << 16) | (depth << 21);
      }
      i = e + 1;
    }
  }
  return n;
}

/**
 * Whether a search may park runs whole (parkWhole): cards build in suit, so a card has one
 * card to go onto; groups of two may move wherever one may once a flipper is free; suit
 * foundations and no base cards carried home.
 */
export function parkRuns(s: State): boolean {
  const t = s.tables;
  return t.rules.build === "suit" && t.groupMode !== 2 && !t.autoHome && !t.rankHome && s.nCells > 0;
}

/**
 * Move m, or what replaces it when it parks a card that sits on the card it builds on (not a
 * base card): the manoeuvre that parks the whole run it ends (from the head that does not sit on
 * the card it builds on), or -1 when there are fewer free flippers than cards in that run.
 */
export function parkWhole(s: State, m: number, free: number): number {
  const to = (m >> 5) & 31;
  const c = m & 31;
  if (to < CELL0 || to >= FOUNDATION || c >= CELL0) return m;
  const len = s.len[c]!;
  const b = c * COLUMN_CAP;
  const buildOn = s.tables.buildOn;
  const rel = s.tables.rel;
  let r = 1;
  while (r < len && buildOn[s.cards[b + len - r]! * 52 + s.cards[b + len - r - 1]!] === 1 && rel[s.cards[b + len - r - 1]!] !== 0) r++;
  if (r === 1) return m;
  return r > free ? -1 : MANOEUVRE | c | ((len - r) << 4) | (CELL0 << 16);
}

/** Largest group the rules let move onto a column once `away` cards took flippers, then empty columns. */
function capAfter(s: State, free: number, empties: number, away: number): number {
  const f = free - Math.min(free, away);
  const e = empties - (away - (free - f));
  const mode = s.tables.groupMode;
  return mode === 0 ? 64 : mode === 2 ? 1 : mode === 3 ? f + 1 : (f + 1) << e;
}

/**
 * Whether the engine lists the move of column c's last card alone into an empty column: the
 * column must keep a card (a whole column never moves to an empty one), and the rules must let
 * that card fill one (any card, or under kings-only rules a card of the last rank).
 */
function fitsEmpty(s: State, c: number, card: number): boolean {
  const mode = s.tables.emptyMode;
  return s.len[c]! >= 2 && (mode === 1 || (mode === 0 && s.tables.rel[card] === 12));
}

/** Moves the last card of column c to the first free flipper, else the first empty column; false if neither is legal. */
function stash(walk: Walker, c: number): boolean {
  const s = walk.s;
  const card = s.cards[c * COLUMN_CAP + s.len[c]! - 1]!;
  let m = -1;
  // Into the first free flipper is always legal (the column keeps a card: see playManoeuvre).
  for (let i = 0; i < s.nCells && m < 0; i++) if (s.cells[i] === NO_CARD) m = makeMove(c, CELL0 + i, 1, card);
  for (let d = 0; d < s.nColumns && m < 0; d++) if (s.len[d] === 0) m = makeMove(c, d, 1, card, true);
  if (m < 0 || (m & (1 << 22) && !fitsEmpty(s, c, card))) return false;
  walk.apply(m);
  walk.autoplayAfter(m);
  return true;
}

/**
 * Plays manoeuvre `code` on the walker, move by move, each one legal. Returns false when it
 * could not be finished (the caller takes the walker back); a safe foundation move on the way
 * that already did the manoeuvre's work ends it early with true.
 */
export function playManoeuvre(walk: Walker, code: number): boolean {
  // A parked card leaves its flipper once the manoeuvre is done, not half-way (the card just
  // moved aside would go straight back).
  const horne = walk.horne;
  walk.horne = false;
  const done = playSteps(walk, code);
  walk.horne = horne;
  if (done && horne) walk.autoplay();
  return done;
}

function playSteps(walk: Walker, code: number): boolean {
  const s = walk.s;
  const c = code & 15;
  const i = (code >> 4) & 63;
  const k = (code >> 10) & 63;
  const dst = (code >> 16) & 31;
  if (dst === CELL0) {
    while (s.len[c]! > i) if (!stash(walk, c)) return false;
    return true;
  }
  const j = (code >> 21) & 63;
  const card = s.cards[c * COLUMN_CAP + i]!;
  if (dst !== FOUNDATION) while (s.len[dst]! > j + 1) if (!stash(walk, dst)) return false;
  while (s.len[c]! > i + k) if (!stash(walk, c)) return false;
  // A safe foundation move on the way may have sent the card home already.
  if (s.len[c]! <= i || s.cards[c * COLUMN_CAP + i] !== card) return dst === FOUNDATION;
  if (s.len[c] !== i + k) return false;
  // The run is whole and in build order (it was one when listed, and only cards above it
  // moved), so the move is legal when its card still lies there and the rules let k cards go.
  const onto = dst === FOUNDATION ? 0 : s.len[dst]! === j + 1 ? s.cards[dst * COLUMN_CAP + j]! : -1;
  if (onto < 0 || (dst !== FOUNDATION && (s.tables.buildOn[card * 52 + onto] !== 1 || k > groupCap(s, dst)))) return false;
  const m = dst === FOUNDATION ? homeMove(s, c) : makeMove(c, dst, k, card);
  if (m < 0) return false;
  walk.apply(m);
  walk.autoplayAfter(m);
  return true;
}
