/**
 * The positions seen in one episode, for `truncateOnRepeat`: an open-addressing set of 64-bit
 * Zobrist hashes (State.hashLo/hashHi) with an epoch stamp per slot, so clearing it at each
 * reset costs nothing and stepping allocates nothing.
 */
export class PositionSet {
  private readonly lo: Uint32Array;
  private readonly hi: Uint32Array;
  private readonly stamp: Uint32Array;
  private readonly mask: number;
  private epoch = 1;
  size = 0;

  /** Room for `capacity` positions at a load factor of at most 1/2. */
  constructor(readonly capacity: number) {
    let slots = 64;
    while (slots < 2 * capacity) slots *= 2;
    this.lo = new Uint32Array(slots);
    this.hi = new Uint32Array(slots);
    this.stamp = new Uint32Array(slots);
    this.mask = slots - 1;
  }

  clear(): void {
    this.epoch++;
    this.size = 0;
  }

  /** Adds a position; returns true when it was already there (a repeat). */
  add(lo: number, hi: number): boolean {
    // Zobrist keys are uniform random bits, so the low word alone spreads the slots well.
    let i = lo & this.mask;
    while (this.stamp[i] === this.epoch) {
      if (this.lo[i] === lo && this.hi[i] === hi) return true;
      i = (i + 1) & this.mask;
    }
    if (this.size >= this.capacity) return false; // full: only past maxSteps, never in an episode
    this.stamp[i] = this.epoch;
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.size++;
    return false;
  }

  /** Every stored hash as [lo, hi] pairs (for serialization). */
  entries(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i <= this.mask; i++) if (this.stamp[i] === this.epoch) out.push([this.lo[i]!, this.hi[i]!]);
    return out;
  }

  copyFrom(o: PositionSet): void {
    this.clear();
    for (const [lo, hi] of o.entries()) this.add(lo, hi);
  }
}
