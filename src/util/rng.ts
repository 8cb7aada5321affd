/**
 * The project's seeded numbers, besides seedrandom, which defines the deals (src/engine/deal.ts):
 *
 * - `Rng` (sfc32), the one fast seeded generator: every random choice outside the deal shuffle
 *   (the random agent, environment checks, sampled deal sets, training's sampling and
 *   shuffling, tests' random walks) comes from one. Its four-word state can be saved in a
 *   checkpoint, so a resumed run draws exactly the numbers an uninterrupted run would have drawn;
 *   the shipped networks were trained and their games recorded with its stream.
 * - `keyTable` and `fmix32`: hashes, not generators of choices. They give fixed key tables
 *   (Zobrist keys of positions, the solver's canonical keys) and spread a seed over `Rng`'s
 *   four words; each word is a hash of its index, never a draw whose order matters.
 *
 * All give the same numbers on every machine, unlike the unseeded global one. This file sits in
 * src/util so that the engine, the agents and training may all import it.
 */

/** Murmur3's finaliser: mixes the bits of a 32-bit integer. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * `n` fixed pseudo-random words for hash keys: word i is fmix32(seed + (i + 1) · 0x9e3779b9),
 * the golden-ratio counter hashed (the words splitmix32 draws, so keys, hashes and the solver's
 * search order are those the project has always had).
 */
export function keyTable(seed: number, n: number): Uint32Array {
  const keys = new Uint32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s + 0x9e3779b9) >>> 0;
    keys[i] = fmix32(s);
  }
  return keys;
}

export type RngState = [number, number, number, number];

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number | string = 0) {
    this.#a = this.#b = this.#c = this.#d = 0;
    this.reseed(seed);
  }

  /** Starts the stream afresh from `seed`, as `new Rng(seed)` would (no allocation but the key words). */
  reseed(seed: number | string): void {
    // Hash the seed (string or number), then spread it over four words (keyTable).
    let h = 0x9e3779b9 ^ 0;
    const text = String(seed);
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x85ebca6b) >>> 0;
    const words = keyTable(h, 4);
    this.#a = words[0]!;
    this.#b = words[1]!;
    this.#c = words[2]!;
    this.#d = words[3]!;
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = (this.#b ^ (this.#b >>> 9)) >>> 0;
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** In-place Fisher–Yates shuffle. */
  shuffle<T extends { [i: number]: number; length: number }>(a: T): T {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
    }
    return a;
  }

  /** `next` as a plain function, for call sites that take `() => number` in [0, 1). */
  uniform(): () => number {
    return () => this.next();
  }

  getState(): RngState {
    return [this.#a, this.#b, this.#c, this.#d];
  }

  setState(s: readonly number[]): void {
    if (s.length !== 4 || s.some((v) => !Number.isInteger(v) || v < 0 || v > 0xffffffff))
      throw new Error("bad RNG state");
    [this.#a, this.#b, this.#c, this.#d] = s as RngState;
  }
}
