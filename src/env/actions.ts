/**
 * The fixed, discrete action space of a rule shape (columns C, flippers F, empty-column rule).
 *
 * Base block, id = src * D + dst, D = C + 1 + H destinations, H = 1 foundation slot (suit
 * foundations: a card has one) or 4 (rank foundations, Stalactites: any of them may take it):
 *   src 0..C-1 = column, C..C+F-1 = flipper;  dst 0..C-1 = column, C = "a flipper",
 *   C+1 .. C+H = foundation (foundation 1..H under rank foundations).
 *   A move onto a non-empty column carries the one group that fits (its head must build on the
 *   destination's last card). Into an empty column it carries the LARGEST group the rules allow.
 *   "A flipper" means the lowest-numbered free one. Ids such as column→same column or
 *   flipper→flipper are never legal; they keep the layout a plain product.
 * Split block (only where two group sizes can enter the same empty column: `emptyColumn` "any";
 *   or "below-base" with a wrapping base and alternate-colour builds, where one run can hold two
 *   cards of rank base − 1): id = baseCount + (src * C + dst) * S + (k - 1), "exactly k cards
 *   from column src into empty column dst", legal only when k is smaller than the largest group.
 *   S = `splitSizes` = 12, since a run holds at most 13 cards, except with a wrapping base and
 *   alternate-colour builds, where a run can hold every card (S = 51).
 * So every legal engine move has exactly one id, and the mask is exactly the legal ids.
 * Text form is the play notation (`34`, `3a`, `3h`, `a4`, `36/2`; `3h2` for rank foundation 2).
 */
import {
  CELL0,
  FOUNDATION,
  generateMoves,
  MAX_MOVES,
  moveCount,
  moveFoundation,
  moveFrom,
  moveTo,
  moveToEmpty,
  type Move,
} from "../engine/moves.js";
import { columnChar } from "../engine/notation.js";
import { IllegalMoveError } from "../errors.js";
import type { Rules } from "../engine/rules.js";
import type { State } from "../engine/state.js";

/** Split ids per (column, empty column) pair for the usual rule shapes (runs of at most 13 cards). */
const SPLIT_SIZES = 12;
const FLIPPERS = "abcdefgh";

export class ActionCodec {
  readonly columns: number;
  readonly flippers: number;
  /** Foundation destinations: 1, or 4 under rank foundations. */
  readonly homes: number;
  /** Destinations per source: every column, a flipper, the foundation(s). */
  readonly dests: number;
  readonly baseCount: number;
  readonly hasSplit: boolean;
  /** Group sizes 1..splitSizes that the split block can name per (column, empty column) pair. */
  readonly splitSizes: number;
  /** Size of the action space. */
  readonly n: number;
  readonly #moves = new Int32Array(MAX_MOVES);
  readonly #seen: Uint8Array;

  constructor(
    rules: Pick<Rules, "columns" | "cells" | "emptyColumn" | "groupMove"> &
      Partial<Pick<Rules, "build" | "base" | "foundations">>,
  ) {
    this.columns = rules.columns;
    this.flippers = rules.cells;
    this.homes = rules.foundations === "rank" ? 4 : 1;
    this.dests = this.columns + 1 + this.homes;
    this.baseCount = (this.columns + this.flippers) * this.dests;
    // Only a wrapping base with alternate-colour builds lets a run outgrow one suit's 13 cards.
    const longRuns = rules.base === "beak" && rules.build === "alternate-color";
    this.splitSizes = longRuns ? 51 : SPLIT_SIZES;
    this.hasSplit =
      rules.groupMove !== "single" &&
      rules.build !== "none" &&
      (rules.emptyColumn === "any" || (rules.emptyColumn === "below-base" && longRuns));
    this.n = this.baseCount + (this.hasSplit ? this.columns * this.columns * this.splitSizes : 0);
    this.#seen = new Uint8Array(this.columns * this.columns);
  }

  #src(loc: number): number {
    return loc < CELL0 ? loc : this.columns + loc - CELL0;
  }
  #dst(m: Move): number {
    const loc = moveTo(m);
    return loc === FOUNDATION
      ? this.columns + 1 + (this.homes > 1 ? moveFoundation(m) : 0)
      : loc >= CELL0
        ? this.columns
        : loc;
  }

  /**
   * Fills mask (length n) with 1 for each legal action and returns how many; optionally writes
   * the engine move of each legal action into `actionMoves` (indexed by action id), and the legal
   * action ids in the engine's move order into `order` (the order every player breaks ties in).
   */
  fillMask(s: State, mask: Uint8Array, actionMoves?: Int32Array, order?: Int32Array): number {
    mask.fill(0);
    this.#seen.fill(0);
    const n = generateMoves(s, this.#moves);
    for (let i = 0; i < n; i++) {
      const m = this.#moves[i]!;
      const a = this.#encodeInOrder(m);
      mask[a] = 1;
      if (actionMoves) actionMoves[a] = m;
      if (order) order[i] = a;
    }
    return n;
  }

  /** Encodes a move from generateMoves' list, which gives the largest group into an empty column first. */
  #encodeInOrder(m: Move): number {
    const from = moveFrom(m);
    const to = moveTo(m);
    if (from < CELL0 && to < CELL0 && moveToEmpty(m)) {
      const pair = from * this.columns + to;
      if (this.#seen[pair]) return this.baseCount + pair * this.splitSizes + moveCount(m) - 1;
      this.#seen[pair] = 1;
    }
    return this.#src(from) * this.dests + this.#dst(m);
  }

  /** The id of a legal move in position s. */
  encode(s: State, m: Move): number {
    this.#seen.fill(0);
    const n = generateMoves(s, this.#moves);
    for (let i = 0; i < n; i++) {
      const a = this.#encodeInOrder(this.#moves[i]!);
      if (this.#moves[i] === m) return a;
    }
    throw new IllegalMoveError(`move ${m} is not legal in this position`);
  }

  /** The legal move an action denotes now, or -1 when the action is illegal here. */
  decode(s: State, a: number): Move {
    if (!Number.isInteger(a) || a < 0 || a >= this.n) return -1;
    this.#seen.fill(0);
    const n = generateMoves(s, this.#moves);
    for (let i = 0; i < n; i++)
      if (this.#encodeInOrder(this.#moves[i]!) === a) return this.#moves[i]!;
    return -1;
  }

  actionToString(a: number): string {
    if (!Number.isInteger(a) || a < 0 || a >= this.n)
      throw new RangeError(`action ${a} out of range: allowed 0..${this.n - 1}`);
    if (a >= this.baseCount) {
      const r = a - this.baseCount;
      const k = (r % this.splitSizes) + 1;
      const pair = Math.floor(r / this.splitSizes);
      return `${columnChar(Math.floor(pair / this.columns))}${columnChar(pair % this.columns)}/${k}`;
    }
    const src = Math.floor(a / this.dests);
    const dst = a % this.dests;
    const s = src < this.columns ? columnChar(src) : FLIPPERS[src - this.columns]!;
    const d =
      dst < this.columns
        ? columnChar(dst)
        : dst === this.columns
          ? "a"
          : this.homes > 1
            ? `h${dst - this.columns}`
            : "h";
    return s + d;
  }

  /** Inverse of actionToString; any flipper letter a-g is accepted as the "a flipper" destination. */
  parseAction(text: string): number {
    const t = text.trim().toLowerCase();
    const m = /^([0-9a-h])([0-9a-h])(?:\/(\d+)|([1-4]))?(?:\+[0-9a-z]{1,3})*$/.exec(t);
    const bad = (why: string): never => {
      throw new IllegalMoveError(`cannot read action "${text}": ${why}`);
    };
    if (!m) return bad("expected <from><to>[/k], e.g. 34, 3a, 3h, a4");
    const col = (ch: string): number =>
      (Number(ch) + 9) % 10 < this.columns && /[0-9]/.test(ch) ? (Number(ch) + 9) % 10 : -1;
    let src = col(m[1]!);
    if (src < 0) {
      const i = FLIPPERS.indexOf(m[1]!);
      if (i < 0 || i >= this.flippers) bad(`no column or flipper "${m[1]}"`);
      src = this.columns + i;
    }
    if (m[4] !== undefined && m[2] !== "h") bad("a foundation number follows h only");
    let dst = col(m[2]!);
    if (dst < 0) {
      if (m[2] === "h") {
        const f = m[4] === undefined ? 1 : Number(m[4]);
        if (f > this.homes)
          bad(
            `foundation ${f}: these rules have ${this.homes === 1 ? "one foundation per suit (h)" : `foundations h1-h${this.homes}`}`,
          );
        dst = this.columns + f;
      } else if (/[0-9]/.test(m[2]!)) bad(`no column "${m[2]}"`);
      else dst = this.columns; // "a flipper": an id of the layout even when the rules give none (never legal then)
    }
    if (m[3] !== undefined) {
      const k = Number(m[3]);
      if (!this.hasSplit)
        bad(
          "group sizes (/k) exist only where two group sizes can enter an empty column (emptyColumn any)",
        );
      if (src >= this.columns || dst >= this.columns) bad("/k applies to column-to-column moves");
      if (!(k >= 1 && k <= this.splitSizes)) bad(`k must be 1..${this.splitSizes}`);
      return this.baseCount + (src * this.columns + dst) * this.splitSizes + k - 1;
    }
    return src * this.dests + dst;
  }
}
