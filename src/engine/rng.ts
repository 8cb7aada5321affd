/**
 * The engine's seeded randomness, besides seedrandom, which defines the deals (deal.ts):
 *
 * - Mulberry32, the fast seeded generator of the random agent, env checks and sampled deal sets
 *   (training keeps its own sfc32, src/train/rng.ts, whose stream the shipped models were
 *   played with);
 * - keyTable, fixed key tables (Zobrist keys of positions, the solver's canonical keys, the
 *   trainer's seed spreading): each word a hash (fmix32) of its index, not a draw from a
 *   generator.
 *
 * All give the same numbers on every machine, unlike the unseeded global one.
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

/** Mulberry32 (Tommy Ettinger): a 32-bit counter hashed per draw; fast, seeded, period 2^32. */
export class Mulberry32 {
  private s = 0;
  constructor(seed = 0) {
    this.seed(seed);
  }

  seed(seed: number): void {
    this.s = seed >>> 0;
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }
}

/** mulberry32 as a plain function, for call sites that want `() => number` in [0, 1). */
export function mulberry32(seed: number): () => number {
  const g = new Mulberry32(seed);
  return () => g.next();
}
