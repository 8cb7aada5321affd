/**
 * The solver's transposition table: a set of 64-bit position keys in an open-addressing hash
 * table on one Uint32Array, each key's two halves side by side (8 bytes a position, load at most
 * 1/2). It starts small and doubles up to the room `maxStates` needs, so easy deals cost little
 * and hard ones never grow past the budget: `add` reports "full" instead of allocating more, and
 * the solver answers "unknown".
 *
 * Only the 64-bit key is stored, not the position (see docs/solver.md, "Hash collisions").
 * The key (0, 0) marks an empty slot, so a position whose key is (0, 0) is stored as (0, 1).
 */
// Small at first: a plan starts several tables per solve, and most deals need few positions.
const START_BITS = 10;
/** A table restarted for a new search keeps its arrays up to this size (clearing them is cheaper than growing again). */
const KEEP_BITS = 12;

/** `TranspositionTable.add` results. */
export const ADDED = 0;
export const PRESENT = 1;
export const FULL = 2;
export type AddResult = typeof ADDED | typeof PRESENT | typeof FULL;

export class TranspositionTable {
  /** Slot i at words 2i (low half) and 2i + 1 (high half): one cache line per probe. */
  private slots!: Uint32Array;
  private mask = 0;
  /** Positions stored. */
  size = 0;
  private maxBits = 0;
  /**
   * Where the keys go: this table's own arrays, or a table shared by the racers of one race
   * (`share`; set after each restart), so that a position any of them stored counts as stored
   * here. Its size and budgets stay this table's own.
   */
  keys: TranspositionTable = this;

  /**
   * `shared`: a budget several tables draw on (the entries of a race), so that together they
   * never store more than it allows; each table is also capped at its own maxStates.
   */
  constructor(
    private maxStates: number,
    private shared?: { left: number },
  ) {
    this.restart(maxStates, shared);
  }

  /** Empties the table for a new search with these budgets; its arrays are kept while they are small. */
  restart(maxStates: number, shared?: { left: number }): void {
    this.maxStates = maxStates;
    this.shared = shared;
    // Room for maxStates at load 1/2: the fewest bits with 2^bits >= 2 maxStates, at least
    // START_BITS (counted with clz32, not in a loop: a plan restarts several tables per deal).
    const bits = Math.min(31, Math.max(START_BITS, 32 - Math.clz32(maxStates * 2 - 1)));
    this.maxBits = bits;
    const had = (this.slots?.length ?? 0) >> 1;
    if (had >= 1 << START_BITS && had <= 1 << Math.min(bits, KEEP_BITS)) {
      // (A table that kept its keys in a shared one left its own array empty.)
      if (this.size > 0 && this.keys === this) this.slots.fill(0);
    } else {
      this.slots = new Uint32Array(2 << START_BITS);
      this.mask = (1 << START_BITS) - 1;
    }
    this.keys = this;
    this.size = 0;
  }

  has(lo: number, hi: number): boolean {
    if ((lo | hi) === 0) hi = 1;
    const k = this.keys;
    const mask = k.mask;
    const slots = k.slots;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
    for (;;) {
      const l = slots[2 * i]!;
      const h = slots[2 * i + 1]!;
      if ((l | h) === 0) return false;
      if (l === lo >>> 0 && h === hi >>> 0) return true;
      i = (i + 1) & mask;
    }
  }

  /** Inserts a key; says whether it was new, already there, or the budget is spent. */
  add(lo: number, hi: number): AddResult {
    if ((lo | hi) === 0) hi = 1;
    lo >>>= 0;
    hi >>>= 0;
    const k = this.keys;
    const mask = k.mask;
    const slots = k.slots;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
    for (;;) {
      const l = slots[2 * i]!;
      const h = slots[2 * i + 1]!;
      if ((l | h) === 0) break;
      if (l === lo && h === hi) return PRESENT;
      i = (i + 1) & mask;
    }
    if (this.size >= this.maxStates) return FULL;
    if (this.shared) {
      if (this.shared.left <= 0) return FULL;
      this.shared.left--;
    }
    slots[2 * i] = lo;
    slots[2 * i + 1] = hi;
    this.size++;
    if (k !== this) k.size++;
    if (k.size * 2 > k.mask + 1 && k.mask + 1 < 2 ** k.maxBits) k.grow();
    return ADDED;
  }

  private grow(): void {
    const old = this.slots;
    const cap = old.length;
    const slots = (this.slots = new Uint32Array(cap * 2));
    this.mask = cap - 1;
    for (let j = 0; j < old.length; j += 2) {
      const lo = old[j]!;
      const hi = old[j + 1]!;
      if ((lo | hi) === 0) continue;
      let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
      while ((slots[2 * i]! | slots[2 * i + 1]!) !== 0) i = (i + 1) & this.mask;
      slots[2 * i] = lo;
      slots[2 * i + 1] = hi;
    }
  }
}
