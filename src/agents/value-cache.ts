/**
 * The scorer's values of positions already scored, for the lookahead search: its tree meets the
 * same positions again and again (two moves played in either order, and the next decision's tree
 * is mostly the one just searched), and a position's value is a pure function of the position.
 *
 * A fixed table of slots, each holding one position and its value; a new position takes its slot
 * from whatever was there. A slot is found by the Zobrist hash, but a hit also needs the very
 * same position byte for byte (columns, flippers in order, foundations, rank foundations' piles),
 * so a hash collision can never hand back another position's value: the search plays exactly
 * as without the table. Allocates nothing after construction.
 */
import { COLUMN_CAP, MAX_CELLS, MAX_COLUMNS, type State, type Tables } from "../engine/state.js";

/**
 * What a slot keeps of its position, compared four bytes at a time: each column's length, then
 * its cards rounded up to whole words (a column's cards past its length are NO_CARD, and if
 * they ever were not, the compare would only miss), the flippers (MAX_CELLS bytes), the
 * foundations, and the rank foundations' piles. Byte for byte the position, and a little more.
 */
const KEY_WORDS = Math.ceil((52 + 3 * MAX_COLUMNS) / 4) + MAX_CELLS / 4 + 1 + 13;

/** A Uint32Array over the same bytes (the State's arrays have buffers of their own, word sized). */
const words = (a: Uint8Array): Uint32Array =>
  new Uint32Array(a.buffer, a.byteOffset, a.byteLength >> 2);

export class ValueCache {
  readonly #mask: number;
  readonly #lo: Uint32Array;
  readonly #hi: Uint32Array;
  /** A slot holds a position when its stamp is the epoch; clear() moves the epoch on. */
  readonly #stamp: Uint32Array;
  #epoch = 1;
  readonly #value: Float64Array;
  readonly #len: Uint8Array;
  readonly #key: Uint32Array;
  /** Values hold for one rule set and base rank (the tables) only. */
  #tables: Tables | undefined;
  /** Word views of the last position looked up (a search looks up one scratch State). */
  #of: State | undefined;
  #cards: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  #cells: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  #found: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  #pile: Uint32Array<ArrayBufferLike> = new Uint32Array(0);

  /** `bits`: 2^bits slots (about 200 bytes each). */
  constructor(bits: number) {
    const slots = 1 << bits;
    this.#mask = slots - 1;
    this.#lo = new Uint32Array(slots);
    this.#hi = new Uint32Array(slots);
    this.#stamp = new Uint32Array(slots);
    this.#value = new Float64Array(slots);
    this.#len = new Uint8Array(slots * MAX_COLUMNS);
    this.#key = new Uint32Array(slots * KEY_WORDS);
  }

  clear(): void {
    if (++this.#epoch === 0xffffffff) {
      this.#stamp.fill(0);
      this.#epoch = 1;
    }
  }

  /** The slot of s: its index when it holds s, else −1 − index (where `put` will store it). */
  find(s: State): number {
    if (s.tables !== this.#tables) {
      this.clear();
      this.#tables = s.tables;
    }
    if (s !== this.#of) {
      this.#of = s;
      this.#cards = words(s.cards);
      this.#cells = words(s.cells);
      this.#found = words(s.found);
      this.#pile = words(s.pile);
    }
    const lo = s.hashLo >>> 0;
    const hi = s.hashHi >>> 0;
    const i = (Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 0) & this.#mask;
    const hit =
      this.#stamp[i] === this.#epoch &&
      this.#lo[i] === lo &&
      this.#hi[i] === hi &&
      this.#same(s, i);
    return hit ? i : -1 - i;
  }

  /** The value in slot i (a hit of find). */
  value(i: number): number {
    return this.#value[i]!;
  }

  /** Stores s (the position find was given last) and its value v in the slot a missed find gave. */
  put(miss: number, s: State, v: number): void {
    const i = -1 - miss;
    this.#stamp[i] = this.#epoch;
    this.#lo[i] = s.hashLo >>> 0;
    this.#hi[i] = s.hashHi >>> 0;
    this.#value[i] = v;
    const key = this.#key;
    const cards = this.#cards;
    let k = i * KEY_WORDS;
    for (let c = 0, l = i * MAX_COLUMNS; c < s.nColumns; c++) {
      const n = s.len[c]!;
      this.#len[l + c] = n;
      for (let d = c * (COLUMN_CAP / 4), e = d + ((n + 3) >> 2); d < e; d++) key[k++] = cards[d]!;
    }
    key[k++] = this.#cells[0]!;
    key[k++] = this.#cells[1]!;
    key[k++] = this.#found[0]!;
    if (s.tables.rankHome) for (let j = 0; j < 13; j++) key[k++] = this.#pile[j]!;
  }

  /** Does slot i hold exactly s? Same walk as put. */
  #same(s: State, i: number): boolean {
    const key = this.#key;
    const cards = this.#cards;
    let k = i * KEY_WORDS;
    for (let c = 0, l = i * MAX_COLUMNS; c < s.nColumns; c++) {
      const n = s.len[c]!;
      if (this.#len[l + c] !== n) return false;
      for (let d = c * (COLUMN_CAP / 4), e = d + ((n + 3) >> 2); d < e; d++)
        if (key[k++] !== cards[d]) return false;
    }
    if (key[k++] !== this.#cells[0] || key[k++] !== this.#cells[1] || key[k++] !== this.#found[0])
      return false;
    if (s.tables.rankHome)
      for (let j = 0; j < 13; j++) if (key[k++] !== this.#pile[j]) return false;
    return true;
  }
}
