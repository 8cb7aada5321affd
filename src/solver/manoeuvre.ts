/**
 * Manoeuvres: several engine moves played as one step of a search, each with a purpose (in the
 * spirit of Freecell Solver's meta-moves). The cards in the way go one by one to free flippers
 * (then to empty columns, where any card may fill one), and then
 * - a card that is next on its foundation goes home, or
 * - a run (a column's cards in build order, as long as it goes) goes onto the card it builds
 *   on, wherever that card lies in another column.
 * A manoeuvre is one int with bit 30 set (see isManoeuvre):
 * bits 0-3 source column, 4-9 depth of the card or run head, 10-15 cards moved, 16-20
 * destination (a column or FOUNDATION), 21-26 depth of the card it goes onto. The purpose
 * order (listPurposeful) adds one more kind, a parked card into an empty column (VIA_EMPTY).
 * Only for rules where the engine's single moves say everything (no base cards carried home,
 * suit foundations).
 */
import { NO_CARD } from "../engine/card.js";
import { CELL0, FOUNDATION, groupCap, homeMove, makeMove, runLength } from "../engine/moves.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import { firstEmptyColumn, type Walker } from "./walker.js";

export const MANOEUVRE = 1 << 30;
/**
 * Bit 28: a parked card goes into the first empty column, then a run onto it at once (bits 0-15
 * the run as above, 16-20 the parked card's flipper; Freecell Solver's move "j"). With bit 27
 * too, what goes onto it is another parked card (bits 0-3 its flipper).
 */
export const VIA_EMPTY = 1 << 28;
const FROM_FLIPPER = 1 << 27;

/** Whether these rules can have manoeuvres at all. */
export function hasManoeuvres(s: State): boolean {
  return !s.tables.autoHome && !s.tables.rankHome && s.nCells > 0;
}

/**
 * Whether a search step is a manoeuvre rather than an engine move: bit 30 marks one only where
 * the rules have manoeuvres. Their engine moves never set it; under penguin-beak-home, which has
 * none, it is part of the move (the suit of a base card the move sends home).
 */
export const isManoeuvre = (s: State, m: number): boolean =>
  (m & MANOEUVRE) !== 0 && hasManoeuvres(s);

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
  let n = 0;
  const free = s.freeCells();
  const empties = s.tables.emptyMode === 1 ? s.emptyColumns() : 0;
  const room = free + empties;
  if (room === 0) return 0;
  const cards = s.cards;
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
    n = listRuns(walk, c, c + 1, out, n, null, free, empties);
  }
  return n;
}

/** Classes of listPurposeful's steps, higher first (Freecell Solver's order in its fastest soft thread). */
const HOME = 100;
const INTO_EMPTY = 93;
const UNPARK = 90;
const RUN_TO_EMPTY = 85;
const HOME_DEEP = 80;
const RUN = 71;
const RUN_DEEP = 70;
/** Listed after the runs, and tried after them at equal noise. */
const KING_ALONE = 71;

/**
 * The steps of a search that makes only moves with a purpose (the order `purpose`), each with its
 * class in `rank`: a card home (from the top of a column or a flipper, or from deeper with the
 * cards above it parked); a parked card onto the card it builds on at the top of a column; a
 * parked card into an empty column with a run (or another parked card) onto it at once; a run,
 * from its head that does not sit on the card it builds on, onto that card in another column (the
 * cards above either parked first); where only the last rank fills an empty column, a parked card
 * of that rank into one alone. Nothing is parked for its own sake, no run goes to an empty
 * column alone and no built sequence is broken, so the search is not complete. Single moves are
 * written as engine moves, so their keys can be read off them; the rest as manoeuvres.
 * In two parts: `runs` false lists all but the runs onto their cards (classes RUN and RUN_DEEP,
 * most of the work of listing, and KING_ALONE), `runs` true only those. The search lists them only once the
 * node's other children are done: they rank below all of those (given noise under 11), so the
 * order is the same, and on the line to a win most nodes never need them. `toEmpty` false leaves
 * out the top runs into an empty column (PlanStep.emptyFrom).
 */
export function listPurposeful(
  walk: Walker,
  out: Int32Array,
  rank: Int32Array,
  runs: boolean,
  toEmpty = true,
): number {
  const s = walk.s;
  const at = walk.where;
  const t = s.tables;
  const free = s.freeCells();
  const open = s.emptyColumns();
  const empties = t.emptyMode === 1 ? open : 0;
  const room = free + empties;
  let n = 0;
  if (runs) {
    n = listRuns(walk, 0, s.nColumns, out, 0, rank, free, empties);
    // Where only a card of the last rank may fill an empty column, such a card in a flipper has
    // nowhere else to go: into the first empty column alone (Freecell Solver's test 7).
    if (t.emptyMode === 0 && open > 0) {
      const d = firstEmptyColumn(s);
      for (let f = 0; f < s.nCells; f++) {
        const x = s.cells[f]!;
        if (x !== NO_CARD && t.rel[x] === 12)
          (rank[n] = KING_ALONE), (out[n++] = makeMove(CELL0 + f, d, 1, x, true));
      }
    }
    return n;
  }
  for (let f = 0; f < 4; f++) {
    const card = t.foundationCard[f * 14 + s.found[f]!]!;
    const loc = card === NO_CARD ? -1 : at[card]!;
    if (loc === -1) continue;
    if (loc <= -2) {
      const m = homeMove(s, CELL0 - 2 - loc);
      if (m >= 0) (rank[n] = HOME), (out[n++] = m);
      continue;
    }
    const c = loc >> 6;
    const d = loc & 63;
    const away = s.len[c]! - 1 - d;
    if (away === 0) {
      const m = homeMove(s, c);
      if (m >= 0) (rank[n] = HOME), (out[n++] = m);
    } else if (away <= room)
      (rank[n] = HOME_DEEP), (out[n++] = MANOEUVRE | c | (d << 4) | (1 << 10) | (FOUNDATION << 16));
  }
  for (let f = 0; f < s.nCells; f++) {
    const x = s.cells[f]!;
    if (x === NO_CARD) continue;
    for (let j = 0; j < 2; j++) {
      const p = t.targets[x * 2 + j]!;
      if (p < 0) break;
      const loc = at[p]!;
      if (loc < 0 || (loc & 63) !== s.len[loc >> 6]! - 1) continue;
      (rank[n] = UNPARK), (out[n++] = makeMove(CELL0 + f, loc >> 6, 1, x));
    }
    if (open > 0) n = listIntoEmpty(walk, f, x, out, rank, n, free, open);
  }
  if (open === 0 || !toEmpty) return n;
  // The top run of a column into the first empty column (as much of it as may move there), unless it is the whole column.
  const d = firstEmptyColumn(s);
  const cap = groupCap(s, d);
  for (let c = 0; c < s.nColumns; c++) {
    const len = s.len[c]!;
    const run = runLength(s, c);
    if (run === len) continue;
    const moved = Math.min(run, cap);
    const first = s.cards[c * COLUMN_CAP + len - moved]!;
    if (moved >= 1 && fillsEmpty(s, first))
      (rank[n] = RUN_TO_EMPTY), (out[n++] = makeMove(c, d, moved, first, true));
  }
  return n;
}

/** Heads of one column's runs, top run first (listRuns). */
const heads = new Int32Array(COLUMN_CAP);

/**
 * After the n steps already in `out`: the runs of columns c0 to c1 - 1, each column bottom up,
 * each run onto the card it builds on in another column, the cards above either parked first (a
 * run with more than `room` cards above it cannot be cleared: start at the run holding the
 * deepest card that can). With `rank` (the purpose order), also those that need nothing parked,
 * as engine moves.
 */
function listRuns(
  walk: Walker,
  c0: number,
  c1: number,
  out: Int32Array,
  n: number,
  rank: Int32Array | null,
  free: number,
  empties: number,
): number {
  const s = walk.s;
  const at = walk.where;
  const cards = s.cards;
  const lens = s.len;
  const t = s.tables;
  const buildOn = t.buildOn;
  const targets = t.targets;
  const room = free + empties;
  for (let c = c0; c < c1; c++) {
    const len = lens[c]!;
    if (len === 0) continue;
    const b = c * COLUMN_CAP;
    // The column split into runs from the top down, each card pair looked at once, as far as
    // the run that holds the deepest card that can be uncovered.
    const lowest = Math.max(0, len - 1 - room);
    let r = 0;
    for (let d = len - 1; ; d--) {
      while (d > 0 && buildOn[cards[b + d]! * 52 + cards[b + d - 1]!] === 1) d--;
      heads[r++] = d;
      if (d <= lowest) break;
    }
    while (r > 0) {
      const i = heads[--r]!;
      const end = r === 0 ? len - 1 : heads[r - 1]! - 1;
      const head = cards[b + i]!;
      const k = end - i + 1;
      const above = len - 1 - end;
      for (let j = head * 2, last = j + 2; j < last; j++) {
        const p = targets[j]!;
        if (p < 0) break;
        const loc = at[p]!;
        const ds = loc >> 6;
        if (loc < 0 || ds === c) continue;
        const depth = loc & 63;
        const away = lens[ds]! - 1 - depth + above;
        // (The card it goes onto is not safe to send home while the run's head is in play.)
        if (
          (away === 0 && !rank) ||
          away > room ||
          k > capAfter(s, free, empties, away) ||
          (above > 0 && walk.homeSafe(c, end + 1))
        )
          continue;
        if (away === 0) (rank![n] = RUN), (out[n++] = makeMove(c, ds, k, head));
        else {
          if (rank) rank[n] = RUN_DEEP;
          out[n++] = MANOEUVRE | c | (i << 4) | (k << 10) | (ds << 16) | (depth << 21);
        }
      }
    }
  }
  return n;
}

/**
 * After the n steps already in `out`: parked card x (flipper f) into the first empty column, with
 * a run whose head builds on it (the cards above the run parked first) or another parked card
 * onto it at once.
 */
function listIntoEmpty(
  walk: Walker,
  f: number,
  x: number,
  out: Int32Array,
  rank: Int32Array,
  n: number,
  free: number,
  open: number,
): number {
  const s = walk.s;
  const t = s.tables;
  if (!fillsEmpty(s, x)) return n;
  const at = walk.where;
  const cards = s.cards;
  const buildOn = t.buildOn;
  const builders = walk.kids;
  for (let j = 0; j < 2; j++) {
    const y = builders[x * 2 + j]!;
    if (y === NO_CARD) continue;
    const loc = at[y]!;
    if (loc <= -2) {
      (rank[n] = INTO_EMPTY),
        (out[n++] = MANOEUVRE | FROM_FLIPPER | VIA_EMPTY | (-2 - loc) | (1 << 10) | (f << 16));
      continue;
    }
    if (loc < 0) continue;
    const c = loc >> 6;
    const i = loc & 63;
    const len = s.len[c]!;
    const b = c * COLUMN_CAP;
    if (i > 0 && buildOn[y * 52 + cards[b + i - 1]!] === 1) continue;
    const e = runEnd(s, c, i);
    const k = e - i + 1;
    const above = len - 1 - e;
    // The parked card leaves its flipper first, and its column is then no longer empty.
    const left = t.emptyMode === 1 ? open - 1 : 0;
    if (above > free + 1 + left || k > capAfter(s, free + 1, left, above)) continue;
    (rank[n] = INTO_EMPTY),
      (out[n++] = MANOEUVRE | VIA_EMPTY | c | (i << 4) | (k << 10) | (f << 16));
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
  return (
    t.rules.build === "suit" && t.groupMode !== 2 && !t.autoHome && !t.rankHome && s.nCells > 0
  );
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
  while (
    r < len &&
    buildOn[s.cards[b + len - r]! * 52 + s.cards[b + len - r - 1]!] === 1 &&
    rel[s.cards[b + len - r - 1]!] !== 0
  )
    r++;
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
  return s.len[c]! >= 2 && fillsEmpty(s, card);
}

/** Whether the rules let `card` fill an empty column: any card, or under kings-only rules a card of the last rank. */
function fillsEmpty(s: State, card: number): boolean {
  const mode = s.tables.emptyMode;
  return mode === 1 || (mode === 0 && s.tables.rel[card] === 12);
}

/** The depth of the last card of the run that starts at depth i of column c (cards in build order). */
function runEnd(s: State, c: number, i: number): number {
  const cards = s.cards;
  const buildOn = s.tables.buildOn;
  const b = c * COLUMN_CAP;
  const len = s.len[c]!;
  let e = i;
  while (e + 1 < len && buildOn[cards[b + e + 1]! * 52 + cards[b + e]!] === 1) e++;
  return e;
}

/** Moves the last card of column c to the first free flipper, else the first empty column; false if neither is legal. */
function stash(walk: Walker, c: number): boolean {
  const s = walk.s;
  const card = s.cards[c * COLUMN_CAP + s.len[c]! - 1]!;
  let m = -1;
  // Into the first free flipper is always legal (the column keeps a card: see playManoeuvre).
  for (let i = 0; i < s.nCells && m < 0; i++)
    if (s.cells[i] === NO_CARD) m = makeMove(c, CELL0 + i, 1, card);
  for (let d = 0; d < s.nColumns && m < 0; d++)
    if (s.len[d] === 0) m = makeMove(c, d, 1, card, true);
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
  if (code & VIA_EMPTY) return playUnpark(walk, code);
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
  if (
    onto < 0 ||
    (dst !== FOUNDATION && (s.tables.buildOn[card * 52 + onto] !== 1 || k > groupCap(s, dst)))
  )
    return false;
  const m = dst === FOUNDATION ? homeMove(s, c) : makeMove(c, dst, k, card);
  if (m < 0) return false;
  walk.apply(m);
  walk.autoplayAfter(m);
  return true;
}

/** Plays a VIA_EMPTY manoeuvre (see playSteps). */
function playUnpark(walk: Walker, code: number): boolean {
  const s = walk.s;
  const f = (code >> 16) & 31;
  const x = s.cells[f]!;
  let d = 0;
  while (d < s.nColumns && s.len[d] !== 0) d++;
  if (x === NO_CARD || d === s.nColumns) return false;
  const c = code & 15;
  const i = (code >> 4) & 63;
  const k = (code >> 10) & 63;
  const parked = (code & FROM_FLIPPER) !== 0;
  const y = parked ? s.cells[c]! : s.cards[c * COLUMN_CAP + i]!;
  const m0 = makeMove(CELL0 + f, d, 1, x, true);
  walk.apply(m0);
  walk.autoplayAfter(m0);
  if (!parked) while (s.len[c]! > i + k) if (!stash(walk, c)) return false;
  const m = parked ? makeMove(CELL0 + c, d, 1, y) : makeMove(c, d, k, y);
  // Still there, and still in reach (a safe foundation move on the way could have taken a card).
  if (
    parked
      ? s.cells[c] !== y
      : s.len[c] !== i + k || s.cards[c * COLUMN_CAP + i] !== y || k > groupCap(s, d)
  )
    return false;
  if (s.len[d] !== 1 || s.cards[d * COLUMN_CAP] !== x || s.tables.buildOn[y * 52 + x] !== 1)
    return false;
  walk.apply(m);
  walk.autoplayAfter(m);
  return true;
}
