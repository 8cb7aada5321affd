/**
 * The trainer's own generator (sfc32): every sampling and shuffling choice of a run comes from
 * one of these, so its four-word state can be saved in a checkpoint and a resumed run draws
 * exactly the numbers an uninterrupted run would have drawn. It stays apart from the engine's
 * Mulberry32 because the shipped checkpoints' recorded games (and so their published win rates)
 * were played with its stream.
 */
import { keyTable } from "../engine/rng.js";

export type RngState = [number, number, number, number];

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number | string = 0) {
    // Hash the seed (string or number), then spread it over four words (the engine's keyTable).
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

  getState(): RngState {
    return [this.#a, this.#b, this.#c, this.#d];
  }

  setState(s: readonly number[]): void {
    if (s.length !== 4 || s.some((v) => !Number.isInteger(v) || v < 0 || v > 0xffffffff))
      throw new Error("bad RNG state");
    [this.#a, this.#b, this.#c, this.#d] = s as RngState;
  }
}
