/**
 * The two tiny seeded generators the project uses where seedrandom would be overkill (hot loops,
 * fixed hash keys). Both give the same stream on every machine, unlike the unseeded global one.
 */

/** splitmix32: uint32 stream; used for fixed Zobrist-style key tables. */
export function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** mulberry32: floats uniform in [0, 1); fast enough for random playouts and sampling. */
export class Mulberry32 {
  private s = 0;
  constructor(seed = 0) {
    this.seed(seed);
  }
  seed(seed: number): void {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** mulberry32 as a plain function, for call sites that want `() => number`. */
export function mulberry32(seed: number): () => number {
  const g = new Mulberry32(seed);
  return () => g.next();
}
