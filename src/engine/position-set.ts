/**
 * A set of positions, told apart by the engine's 64-bit Zobrist hash (State.hashLo/hashHi): the
 * one set behind every never-repeat guard (agents, the trained players) and the environment's
 * `truncateOnRepeat`. Open addressing on typed arrays with an epoch stamp per slot, so clear()
 * costs nothing at each new game and adding allocates nothing until the set has to grow.
 */
import type { State } from "./state.js";

export class PositionSet {
  private lo: Uint32Array;
  private hi: Uint32Array;
  /** A slot is in use when its stamp equals the epoch (a hash of 0,0 is a valid key). */
  private stamp: Uint32Array;
  private epoch = 1;
  private count = 0;

  /** Starts with room for `capacity` positions and doubles when it fills past half. */
  constructor(capacity = 512) {
    let slots = 64;
    while (slots < 2 * capacity) slots *= 2;
    this.lo = new Uint32Array(slots);
    this.hi = new Uint32Array(slots);
    this.stamp = new Uint32Array(slots);
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.count = 0;
    if (++this.epoch === 0xffffffff) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
  }

  private slot(lo: number, hi: number): number {
    const mask = this.stamp.length - 1;
    let i = (Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 0) & mask;
    while (this.stamp[i] === this.epoch && (this.lo[i] !== lo || this.hi[i] !== hi))
      i = (i + 1) & mask;
    return i;
  }

  has(lo: number, hi: number): boolean {
    return this.stamp[this.slot(lo >>> 0, hi >>> 0)] === this.epoch;
  }

  /** Adds the hash; returns false when it was already there (a repeat). */
  add(lo: number, hi: number): boolean {
    lo >>>= 0;
    hi >>>= 0;
    const i = this.slot(lo, hi);
    if (this.stamp[i] === this.epoch) return false;
    this.stamp[i] = this.epoch;
    this.lo[i] = lo;
    this.hi[i] = hi;
    if (++this.count * 2 > this.stamp.length) this.grow();
    return true;
  }

  hasState(s: State): boolean {
    return this.has(s.hashLo, s.hashHi);
  }

  addState(s: State): boolean {
    return this.add(s.hashLo, s.hashHi);
  }

  /** Every stored hash as [lo, hi] pairs (for serialization). */
  entries(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.stamp.length; i++)
      if (this.stamp[i] === this.epoch) out.push([this.lo[i]!, this.hi[i]!]);
    return out;
  }

  copyFrom(o: PositionSet): void {
    this.clear();
    for (const [lo, hi] of o.entries()) this.add(lo, hi);
  }

  private grow(): void {
    const [lo, hi, stamp, epoch] = [this.lo, this.hi, this.stamp, this.epoch];
    const slots = stamp.length * 2;
    this.lo = new Uint32Array(slots);
    this.hi = new Uint32Array(slots);
    this.stamp = new Uint32Array(slots);
    this.epoch = 1;
    this.count = 0;
    for (let i = 0; i < stamp.length; i++) if (stamp[i] === epoch) this.add(lo[i]!, hi[i]!);
  }
}
