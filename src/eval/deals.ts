/**
 * Which deals an evaluation plays: seeded deals (`deal(rules, seed)`) or Microsoft deal numbers
 * (`dealMs(rules, n)`). A deal's label is what the CSV's `deal` column holds: `17` for seed 17,
 * `ms:17` for Microsoft deal #17.
 */
import { deal, dealMs, MS_MAX } from "../engine/deal.js";
import type { Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import type { State } from "../engine/state.js";

export type DealRef =
  | { readonly kind: "seed"; readonly seed: number }
  | { readonly kind: "ms"; readonly n: number };

export function dealLabel(d: DealRef): string {
  return d.kind === "seed" ? String(d.seed) : `ms:${d.n}`;
}

export function parseDealLabel(label: string): DealRef {
  const ms = /^ms:(\d+)$/.exec(label);
  if (ms) return { kind: "ms", n: Number(ms[1]) };
  if (/^-?\d+$/.test(label)) return { kind: "seed", seed: Number(label) };
  throw new UsageError(`bad deal "${label}": expected an integer seed or ms:N`);
}

/** Total order used to keep CSV rows in deal order: seeds by value, then MS deals by number. */
export function dealOrderKey(d: DealRef): number {
  return d.kind === "seed" ? d.seed : 2 ** 53 - 2 ** 32 + d.n;
}

/** The seed an agent's reset() receives for this deal (its own random choices). */
export function agentSeed(d: DealRef): number {
  return d.kind === "seed" ? d.seed | 0 : (d.n ^ 0x5f3759df) | 0;
}

export function dealState(rules: Rules, d: DealRef): State {
  return d.kind === "seed" ? deal(rules, d.seed) : dealMs(rules, d.n);
}

/** Most deals one run plays (a seed range or a Microsoft range). */
export const MAX_DEALS = 100_000_000;

/**
 * The deals of a run, by position: a plain array or a lazy range. Ranges compute each deal when
 * asked, so a run of any length holds no list of its deals.
 */
export interface DealList {
  readonly length: number;
  at(index: number): DealRef | undefined;
}

/** A contiguous range of seeds or Microsoft deal numbers, computed on demand. */
export class DealRange implements DealList, Iterable<DealRef> {
  constructor(
    readonly kind: DealRef["kind"],
    /** First seed or deal number. */
    readonly first: number,
    readonly length: number,
  ) {}

  at(index: number): DealRef | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    return this.kind === "seed"
      ? { kind: "seed", seed: this.first + index }
      : { kind: "ms", n: this.first + index };
  }

  *[Symbol.iterator](): Iterator<DealRef> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }
}

/** Seeds from, from+1, …, from+count−1 (lazy). */
export function seedRange(from: number, count: number): DealRange {
  if (!Number.isSafeInteger(from))
    throw new UsageError(`--seed must be an integer for a range of deals, got ${from}`);
  if (!Number.isInteger(count) || count <= 0 || count > MAX_DEALS)
    throw new UsageError(`--deals must be an integer from 1 to ${MAX_DEALS}, got ${count}`);
  if (!Number.isSafeInteger(from + count))
    throw new UsageError(`seed range ${from} + ${count} is too large`);
  return new DealRange("seed", from, count);
}

/** Microsoft deals from..to, both included (lazy). */
export function msRange(from: number, to: number): DealRange {
  for (const [name, v] of [
    ["--ms-from", from],
    ["--ms-to", to],
  ] as const)
    if (!Number.isInteger(v) || v < 1 || v > MS_MAX)
      throw new UsageError(`${name} must be an integer from 1 to ${MS_MAX}, got ${v}`);
  if (to < from) throw new UsageError(`--ms-to (${to}) must not be below --ms-from (${from})`);
  if (to - from >= MAX_DEALS)
    throw new UsageError(`at most ${MAX_DEALS} deals per run, got ${to - from + 1}`);
  return new DealRange("ms", from, to - from + 1);
}
