/**
 * A table of what the scorer worked out for positions already scored, for the lookahead search:
 * its tree meets the same positions again and again (two moves played in either order, and the
 * next decision's tree is mostly the one just searched), and what the scorer gives a position is
 * a pure function of the position.
 *
 * A fixed table of slots, each holding one position and what the user stores with it (its
 * payload: words and float64s); a new position takes its slot from whatever was there. A slot is
 * found by the Zobrist hash, but a hit also needs the very same position byte for byte (columns,
 * flippers in order, foundations, rank foundations' piles), so a hash collision can never hand
 * back another position's payload: the search plays exactly as without the table. Allocates
 * nothing after construction.
 */
import { COLUMN_CAP, MAX_CELLS, MAX_COLUMNS, type State, type Tables } from "../engine/state.js";

/**
 * What a slot keeps of its position, compared four bytes at a time: each column's length, then
 * its cards rounded up to whole words (a column's cards past its length are NO_CARD, and if
 * they ever were not, the compare would only miss), the flippers (MAX_CELLS bytes), the
 * foundations, and the rank foundations' piles. Byte for byte the position, and a little more.
 */
const KEY_WORDS = Math.ceil((52 + 3 * MAX_COLUMNS) / 4) + MAX_CELLS / 4 + 1 + 13;
/**
 * A slot, in words: stamp, hash low and high halves, a spare word, the column lengths (bytes),
 * the key, then the payload (at an even word, for float64s). Its first cache line answers most
 * misses: a look-up waits for memory once, not once per array.
 */
const STAMP = 0;
const LO = 1;
const HI = 2;
const LEN = 4;
const KEY = LEN + Math.ceil(MAX_COLUMNS / 4);
const PAYLOAD = KEY + KEY_WORDS + ((KEY + KEY_WORDS) & 1);

/** A Uint32Array over the same bytes (the State's arrays have buffers of their own, word sized). */
const words = (a: Uint8Array): Uint32Array<ArrayBufferLike> =>
  new Uint32Array(a.buffer, a.byteOffset, a.byteLength >> 2);

export class PositionCache {
  readonly #mask: number;
  readonly #slotWords: number;
  /** The slots, as words and as float64s (index = word / 2); payloads are read through these. */
  readonly words: Uint32Array;
  readonly floats: Float64Array;
  readonly #bytes: Uint8Array;
  /** A slot holds a position when its stamp is the epoch; clear() moves the epoch on. */
  #epoch = 1;
  /** Payloads hold for one rule set and base rank (the tables) and one owner's way of scoring. */
  #tables: Tables | undefined;
  #owner: object | undefined;
  /** Word views of the last position looked up (a search looks up one scratch State). */
  #of: State | undefined;
  #cards = words(new Uint8Array(0));
  #cells = this.#cards;
  #found = this.#cards;
  #pile = this.#cards;

  /** 2^bits slots, each with a payload of `payloadWords` words (float64s take two). */
  constructor(bits: number, payloadWords: number) {
    const slots = 1 << bits;
    this.#mask = slots - 1;
    this.#slotWords = PAYLOAD + payloadWords + (payloadWords & 1);
    const buffer = new ArrayBuffer(slots * this.#slotWords * 4);
    this.words = new Uint32Array(buffer);
    this.floats = new Float64Array(buffer);
    this.#bytes = new Uint8Array(buffer);
  }

  clear(): void {
    if (++this.#epoch === 0xffffffff) {
      for (let i = STAMP; i < this.words.length; i += this.#slotWords) this.words[i] = 0;
      this.#epoch = 1;
    }
  }

  /**
   * The slot of s: the word where its payload starts when the table holds s, else −1 − that
   * word (where `put` will store it). `owner` names what the payloads mean (the scorer's weights):
   * a look-up under another owner, or another rule set or base rank, empties the table first.
   */
  find(s: State, owner: object): number {
    if (s.tables !== this.#tables || owner !== this.#owner) {
      this.clear();
      this.#tables = s.tables;
      this.#owner = owner;
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
    const w =
      ((Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 0) & this.#mask) *
      this.#slotWords;
    const hit =
      this.words[w + STAMP] === this.#epoch &&
      this.words[w + LO] === lo &&
      this.words[w + HI] === hi &&
      this.#same(s, w);
    return hit ? w + PAYLOAD : -1 - (w + PAYLOAD);
  }

  /**
   * Stores s (the position find was given last) in the slot a missed find gave, and returns the
   * word where its payload starts: the caller writes the payload there.
   */
  put(miss: number, s: State): number {
    const w = -1 - miss - PAYLOAD;
    const key = this.words;
    key[w + STAMP] = this.#epoch;
    key[w + LO] = s.hashLo >>> 0;
    key[w + HI] = s.hashHi >>> 0;
    const cards = this.#cards;
    let k = w + KEY;
    for (let c = 0, l = (w + LEN) * 4; c < s.nColumns; c++) {
      const n = s.len[c]!;
      this.#bytes[l + c] = n;
      for (let d = c * (COLUMN_CAP / 4), e = d + ((n + 3) >> 2); d < e; d++) key[k++] = cards[d]!;
    }
    key[k++] = this.#cells[0]!;
    key[k++] = this.#cells[1]!;
    key[k++] = this.#found[0]!;
    if (s.tables.rankHome) for (let j = 0; j < 13; j++) key[k++] = this.#pile[j]!;
    return w + PAYLOAD;
  }

  /** Does the slot at word w hold exactly s? Same walk as put. */
  #same(s: State, w: number): boolean {
    const key = this.words;
    const cards = this.#cards;
    let k = w + KEY;
    for (let c = 0, l = (w + LEN) * 4; c < s.nColumns; c++) {
      const n = s.len[c]!;
      if (this.#bytes[l + c] !== n) return false;
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
