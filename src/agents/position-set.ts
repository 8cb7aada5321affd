/**
 * A set of 64-bit position hashes (the engine's incremental hashLo/hashHi), open addressing on a
 * Uint32Array: agents record every position of an episode without allocating per step.
 */
export class PositionSet {
  private keys = new Uint32Array(2 * 1024);
  /** 1 when slot i is used (a hash of 0,0 is a valid key, so occupancy is kept apart). */
  private used = new Uint8Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  clear(): void {
    if (this.count === 0) return;
    this.used.fill(0);
    this.count = 0;
  }

  private slot(lo: number, hi: number): number {
    const mask = this.used.length - 1;
    let i = (Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 0) & mask;
    while (this.used[i] === 1 && (this.keys[2 * i] !== lo || this.keys[2 * i + 1] !== hi)) i = (i + 1) & mask;
    return i;
  }

  has(lo: number, hi: number): boolean {
    return this.used[this.slot(lo >>> 0, hi >>> 0)] === 1;
  }

  /** Adds the hash; returns false when it was already there. */
  add(lo: number, hi: number): boolean {
    lo >>>= 0;
    hi >>>= 0;
    const i = this.slot(lo, hi);
    if (this.used[i] === 1) return false;
    this.used[i] = 1;
    this.keys[2 * i] = lo;
    this.keys[2 * i + 1] = hi;
    if (++this.count * 2 > this.used.length) this.grow();
    return true;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldUsed = this.used;
    this.keys = new Uint32Array(oldKeys.length * 2);
    this.used = new Uint8Array(oldUsed.length * 2);
    this.count = 0;
    for (let i = 0; i < oldUsed.length; i++) if (oldUsed[i] === 1) this.add(oldKeys[2 * i]!, oldKeys[2 * i + 1]!);
  }
}
