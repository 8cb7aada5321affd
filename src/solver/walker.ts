/**
 * What every search strategy shares: one working position with its canonical key, the line of
 * moves applied to it (safe foundation moves included), the safe autoplay after each move, and
 * the move-order score. Strategies (depth-first.ts, best-first.ts) drive it; nothing here
 * allocates per node.
 */
import { NO_CARD } from "../engine/card.js";
import { applyMove, CELL0, FOUNDATION, homeMove, moveTo, moveToEmpty, undoMove, type Move } from "../engine/moves.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import { buildersOf, CanonicalKey, safeHome } from "./canonical.js";
import { FULL, type StateTable } from "./table.js";

/**
 * Weights of the score of a position: cards home, free flippers, empty columns, cards out of
 * sequence, cards above the next foundation cards.
 */
export type Weights = readonly [number, number, number, number, number];

export class Walker {
  readonly s: State;
  readonly key: CanonicalKey;
  private readonly builders: Uint8Array;
  /** Scratch for score(): 1 for the four cards next on their foundations (NO_CARD: none). */
  private readonly isNext = new Uint8Array(256);
  /** Moves applied since the walk's origin, safe foundation moves included. */
  path: Int32Array = new Int32Array(1024);
  pathLen = 0;

  constructor(start: State, private readonly w: Weights) {
    this.s = start.clone();
    this.key = new CanonicalKey(this.s);
    this.builders = buildersOf(this.s);
  }

  /** Higher is more promising: cards home, room to move, few cards out of sequence. */
  score(): number {
    const s = this.s;
    const buildOn = s.tables.buildOn;
    const rel = s.tables.rel;
    const fc = s.tables.foundationCard;
    const kingsOnly = s.tables.emptyMode === 0;
    const cards = s.cards;
    const isNext = this.isNext;
    for (let su = 0; su < 4; su++) isNext[fc[su * 14 + s.found[su]!]!] = 1;
    let out = 0;
    let empty = 0;
    let bury = 0;
    for (let c = 0; c < s.nColumns; c++) {
      const n = s.len[c]!;
      if (n === 0) {
        empty++;
        continue;
      }
      const b = c * COLUMN_CAP;
      // Cards above the sequence that grows from the column's deepest card are out of order.
      let run = 1;
      while (run < n && buildOn[cards[b + run]! * 52 + cards[b + run - 1]!] === 1) run++;
      out += n - run;
      // Under kings-only rules a run is settled only on a card of the last rank.
      if (kingsOnly && rel[cards[b]!] !== 12) out += run >> 1;
      for (let d = 0; d < n; d++) if (isNext[cards[b + d]!] === 1) bury += n - 1 - d;
    }
    for (let su = 0; su < 4; su++) isNext[fc[su * 14 + s.found[su]!]!] = 0;
    const w = this.w;
    return s.cardsHome() * w[0] + s.freeCells() * w[1] + empty * w[2] - out * w[3] - bury * w[4];
  }

  apply(m: Move): void {
    applyMove(this.s, m);
    this.key.toggleMove(m);
    this.key.recompute();
    if (this.pathLen === this.path.length) this.path = grow(this.path, this.pathLen * 2);
    this.path[this.pathLen++] = m;
  }

  undoTo(len: number): void {
    if (this.pathLen === len) return;
    while (this.pathLen > len) {
      const m = this.path[--this.pathLen]!;
      this.key.toggleMove(m);
      undoMove(this.s, m);
    }
    this.key.recompute();
  }

  /**
   * Safe foundation moves after move m from a position that had none left. Foundations are
   * unchanged unless m went home (or carried base cards home with it), so otherwise the only new
   * candidate is the card m uncovered.
   */
  autoplayAfter(m: Move): void {
    const from = m & 31;
    if (((m >> 5) & 31) !== FOUNDATION && ((m >>> 25) & 3) === 0) {
      if (from >= CELL0) return;
      const s = this.s;
      const n = s.len[from]!;
      if (n === 0) return;
      const card = s.cards[from * COLUMN_CAP + n - 1]!;
      if (s.tables.foundationCard[(card & 3) * 14 + s.found[card & 3]!] !== card || !safeHome(s, this.builders, card)) return;
    }
    this.autoplay();
  }

  /**
   * The start every search shares: the root's safe foundation moves, then the root's key in
   * `table`. Returns the verdict when that already decides, else null.
   */
  enterRoot(table: StateTable): "solved" | "max-states" | null {
    this.autoplay();
    if (this.s.isWon()) return "solved";
    return table.add(this.key.keyLo, this.key.keyHi) === FULL ? "max-states" : null;
  }

  /** Plays every safe foundation move, repeatedly, onto the path. */
  autoplay(): void {
    const s = this.s;
    const fc = s.tables.foundationCard;
    for (let again = true; again; ) {
      again = false;
      for (let c = 0; c < s.nColumns; c++) {
        const n = s.len[c]!;
        if (n === 0) continue;
        const card = s.cards[c * COLUMN_CAP + n - 1]!;
        if (fc[(card & 3) * 14 + s.found[card & 3]!] === card && safeHome(s, this.builders, card)) {
          this.apply(homeMove(s, c)); // with any base card it uncovers (penguin-beak-home)
          again = true;
        }
      }
      for (let i = 0; i < s.nCells; i++) {
        const card = s.cells[i]!;
        if (card !== NO_CARD && fc[(card & 3) * 14 + s.found[card & 3]!] === card && safeHome(s, this.builders, card)) {
          this.apply(homeMove(s, CELL0 + i));
          again = true;
        }
      }
    }
  }
}

/** The leftmost empty column, or -1: every search tries a move into an empty column only there. */
export function firstEmptyColumn(s: State): number {
  for (let c = 0; c < s.nColumns; c++) if (s.len[c] === 0) return c;
  return -1;
}

/** A move into an empty column other than the leftmost: the same position as that one, mirrored. */
export function mirroredEmptyMove(m: Move, firstEmpty: number): boolean {
  return moveToEmpty(m) && moveTo(m) !== firstEmpty;
}

export function grow(a: Int32Array, cap: number): Int32Array {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}
