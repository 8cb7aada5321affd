/**
 * An independent, slow, obviously-correct model of the rules, used only by tests.
 *
 * It shares nothing with src/engine except the card numbering (rank*4+suit) and the location
 * numbers (columns 0..9, flippers 10..17, foundation 18) so its answers can be compared with the
 * engine's. Positions are plain arrays; legality is decided by enumerating EVERY (from, to, count)
 * triple and testing it against docs/rules.md's text, sentence by sentence:
 *
 * - Foundations: built up in suit from the base rank, wrapping K→A; 13 cards at most; cards
 *   never leave a foundation (no move has the foundation as its source). Rank foundations
 *   (Stalactites): four piles built up by rank in any suit, wrapping, 13 cards each, each from
 *   the rank of its own first card (an empty one takes the base rank); a move names its pile.
 * - Tableau: a card goes on a card one rank higher — of its suit (build "suit") or of the other
 *   colour (build "alternate-color"); under a beak base ranks wrap, so a K goes on an A; under an
 *   ace base they do not.
 * - A group is a sequence of cards at the end of a column in which every card builds on the one
 *   under it. Group size: unlimited; single (1); free-cells (free flippers + 1); supermove
 *   (free flippers + 1) × 2^E, where E counts the empty columns whatever the empty-column rule,
 *   and the target column does not count itself (the "halving once when the target is empty").
 *   Build "none": no card goes on another (so every group is one card).
 * - penguin-beak-home: after a move from a column, while that column's last card is of the base
 *   rank and its suit's foundation is empty, it goes home too, as part of the same move.
 * - Empty column: "below-base" takes only a card of rank base−1 (or a group headed by one);
 *   "any" takes anything; "none" takes nothing.
 * - Flippers hold one card; any available card may go to an empty flipper; a flipper card may go
 *   to its foundation or to a column where it fits.
 * Engine conventions (src/engine/moves.ts header) that remove moves changing only labels:
 * - a card goes to the lowest-numbered free flipper; no flipper-to-flipper moves;
 * - a whole column is never moved into an empty column.
 */

export const REF_CELL0 = 10;
export const REF_FOUNDATION = 18;

export interface RefRules {
  cells: number;
  columns: number;
  emptyColumn: "below-base" | "any" | "none";
  groupMove: "unlimited" | "supermove" | "free-cells" | "single";
  build: "suit" | "alternate-color" | "none";
  base: "beak" | "ace";
  foundations: "suit" | "rank";
  /** Base cards exposed in a column go home at once (deal penguin-beak-home). */
  autoHome: boolean;
}

export interface RefPosition {
  base: number;
  columns: number[][]; // deepest card first
  cells: (number | null)[];
  found: number[]; // cards on each foundation: suit C D H S, or rank foundations 1-4
  piles: number[][]; // rank foundations: each pile's cards, first one first (empty lists otherwise)
}

export interface RefMove {
  from: number;
  to: number;
  count: number;
  card: number; // head of the moved group
  toEmpty: boolean; // destination column was empty
  pile: number; // rank foundations: which one (else 0)
  autoHome: number[]; // base cards that went home after the move, in order
}

const rank = (c: number): number => Math.floor(c / 4);
const suit = (c: number): number => c % 4;
const red = (c: number): boolean => suit(c) === 1 || suit(c) === 2;

/** May `card` be placed on `target` in the tableau? */
export function refBuildsOn(r: RefRules, card: number, target: number): boolean {
  if (r.build === "none") return false;
  const rankOk =
    r.base === "beak" ? (rank(card) + 1) % 13 === rank(target) : rank(card) + 1 === rank(target);
  const suitOk = r.build === "suit" ? suit(card) === suit(target) : red(card) !== red(target);
  return rankOk && suitOk;
}

/** The last `count` cards of a column form a sequence in build order. */
function isSequence(r: RefRules, col: number[], count: number): boolean {
  if (count < 1 || count > col.length) return false;
  for (let i = col.length - count + 1; i < col.length; i++)
    if (!refBuildsOn(r, col[i]!, col[i - 1]!)) return false;
  return true;
}

/** The foundations (indices) that take `card` now. */
function foundationsFor(r: RefRules, p: RefPosition, card: number): number[] {
  if (r.foundations === "suit") {
    const n = p.found[suit(card)]!;
    return n < 13 && rank(card) === (p.base + n) % 13 ? [suit(card)] : [];
  }
  const out: number[] = [];
  for (let f = 0; f < 4; f++) {
    const pile = p.piles[f]!;
    const first = pile.length ? rank(pile[0]!) : p.base;
    if (pile.length < 13 && rank(card) === (first + pile.length) % 13) out.push(f);
  }
  return out;
}

function emptyColumnTakes(r: RefRules, p: RefPosition, head: number): boolean {
  if (r.emptyColumn === "none") return false;
  if (r.emptyColumn === "any") return true;
  return rank(head) === (p.base + 12) % 13;
}

function groupLimit(r: RefRules, p: RefPosition, target: number): number {
  if (r.groupMove === "unlimited") return Infinity;
  if (r.groupMove === "single") return 1;
  const freeCells = p.cells.filter((c) => c === null).length;
  if (r.groupMove === "free-cells") return freeCells + 1;
  let empties = 0;
  for (let c = 0; c < p.columns.length; c++)
    if (c !== target && p.columns[c]!.length === 0) empties++;
  return (freeCells + 1) * 2 ** empties;
}

/** Base cards the move would send home after it (beak-home), by looking at what it leaves. */
function exposedHome(r: RefRules, p: RefPosition, from: number, count: number): number[] {
  if (!r.autoHome || from >= REF_CELL0) return [];
  const col = p.columns[from]!.slice(0, p.columns[from]!.length - count);
  const found = p.found.slice();
  const out: number[] = [];
  while (
    col.length &&
    rank(col[col.length - 1]!) === p.base &&
    found[suit(col[col.length - 1]!)] === 0
  ) {
    const c = col.pop()!;
    found[suit(c)] = 1;
    out.push(c);
  }
  return out;
}

/** Decides one (from, to, count) triple (and pile) from the rules' text. Returns the move or null. */
export function refCheck(
  r: RefRules,
  p: RefPosition,
  from: number,
  to: number,
  count: number,
  pile = 0,
): RefMove | null {
  const m = refCheckMove(r, p, from, to, count, pile);
  return m && { ...m, pile, autoHome: exposedHome(r, p, from, count) };
}

function refCheckMove(
  r: RefRules,
  p: RefPosition,
  from: number,
  to: number,
  count: number,
  pile: number,
): Omit<RefMove, "pile" | "autoHome"> | null {
  if (pile !== 0 && (to !== REF_FOUNDATION || r.foundations !== "rank")) return null;
  if (from === to) return null;
  if (from === REF_FOUNDATION) return null; // cards never leave a foundation
  let card: number;
  if (from < REF_CELL0) {
    const col = p.columns[from];
    if (!col || col.length === 0 || !isSequence(r, col, count)) return null;
    card = col[col.length - count]!;
  } else {
    const held = p.cells[from - REF_CELL0];
    if (held === undefined || held === null || count !== 1) return null;
    card = held;
  }
  if (to === REF_FOUNDATION) {
    const fits = foundationsFor(r, p, card);
    return count === 1 && fits.includes(r.foundations === "rank" ? pile : suit(card))
      ? { from, to, count, card, toEmpty: false }
      : null;
  }
  if (to >= REF_CELL0) {
    if (from >= REF_CELL0 || count !== 1) return null;
    const i = to - REF_CELL0;
    if (i >= p.cells.length || p.cells[i] !== null) return null;
    if (p.cells.indexOf(null) !== i) return null; // lowest free flipper only
    return { from, to, count, card, toEmpty: false };
  }
  const dst = p.columns[to];
  if (!dst) return null;
  if (count > groupLimit(r, p, to)) return null;
  if (dst.length === 0) {
    if (!emptyColumnTakes(r, p, card)) return null;
    if (from < REF_CELL0 && count === p.columns[from]!.length) return null; // whole column: labels only
    return { from, to, count, card, toEmpty: true };
  }
  return refBuildsOn(r, card, dst[dst.length - 1]!)
    ? { from, to, count, card, toEmpty: false }
    : null;
}

/** Every legal move, found by trying every triple. */
export function refLegalMoves(r: RefRules, p: RefPosition): RefMove[] {
  const out: RefMove[] = [];
  const locations: number[] = [];
  for (let c = 0; c < r.columns; c++) locations.push(c);
  for (let i = 0; i < r.cells; i++) locations.push(REF_CELL0 + i);
  // Counts past the source's size can never be legal (refCheck rejects them too); skipping them only saves time.
  for (const from of locations)
    for (const to of [...locations, REF_FOUNDATION])
      for (
        let count = 1, most = from < REF_CELL0 ? p.columns[from]!.length : 1;
        count <= most;
        count++
      )
        for (
          let pile = 0;
          pile < (to === REF_FOUNDATION && r.foundations === "rank" ? 4 : 1);
          pile++
        ) {
          const m = refCheck(r, p, from, to, count, pile);
          if (m) out.push(m);
        }
  return out;
}

export function refApply(r: RefRules, p: RefPosition, m: RefMove): RefPosition {
  const q: RefPosition = {
    base: p.base,
    columns: p.columns.map((c) => c.slice()),
    cells: p.cells.slice(),
    found: p.found.slice(),
    piles: p.piles.map((x) => x.slice()),
  };
  let moved: number[];
  if (m.from < REF_CELL0)
    moved = q.columns[m.from]!.splice(q.columns[m.from]!.length - m.count, m.count);
  else {
    moved = [q.cells[m.from - REF_CELL0]!];
    q.cells[m.from - REF_CELL0] = null;
  }
  if (m.to === REF_FOUNDATION && r.foundations === "rank") {
    q.found[m.pile]!++;
    q.piles[m.pile]!.push(moved[0]!);
  } else if (m.to === REF_FOUNDATION) q.found[suit(moved[0]!)]!++;
  else if (m.to >= REF_CELL0) q.cells[m.to - REF_CELL0] = moved[0]!;
  else q.columns[m.to]!.push(...moved);
  for (const c of m.autoHome) {
    q.columns[m.from]!.pop();
    q.found[suit(c)]!++;
  }
  return q;
}

export function refMoveKey(m: RefMove): string {
  return `${m.from}>${m.to}${m.pile ? `.${m.pile}` : ""}x${m.count}:${m.card}${m.toEmpty ? "e" : ""}${m.autoHome.length ? `+${m.autoHome.join("+")}` : ""}`;
}

/** Number of legal move sequences of length `depth` (perft), by the reference alone. */
export function refPerft(r: RefRules, p: RefPosition, depth: number): number {
  if (depth === 0) return 1;
  const moves = refLegalMoves(r, p);
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) n += refPerft(r, refApply(r, p, m), depth - 1);
  return n;
}

/** Every card exactly once: tableau, flippers and the cards a foundation count implies. */
export function refCardsConserved(p: RefPosition, r?: RefRules): boolean {
  const seen = new Set<number>();
  if (r?.foundations === "rank") {
    for (const col of p.columns) for (const c of col) seen.add(c);
    for (const c of p.cells) if (c !== null) seen.add(c);
    for (let f = 0; f < 4; f++) {
      if (p.piles[f]!.length !== p.found[f]) return false;
      for (const c of p.piles[f]!) seen.add(c);
    }
    const all =
      p.columns.reduce((a, c) => a + c.length, 0) +
      p.cells.filter((c) => c !== null).length +
      p.piles.reduce((a, x) => a + x.length, 0);
    return all === 52 && seen.size === 52;
  }
  for (const col of p.columns) for (const c of col) seen.add(c);
  for (const c of p.cells) if (c !== null) seen.add(c);
  let total = seen.size;
  for (let s = 0; s < 4; s++)
    for (let k = 0; k < p.found[s]!; k++) {
      const c = ((p.base + k) % 13) * 4 + s;
      if (seen.has(c)) return false;
      total++;
    }
  const held =
    p.columns.reduce((a, c) => a + c.length, 0) + p.cells.filter((c) => c !== null).length;
  return seen.size === held && total === 52;
}
