/**
 * Which deals an evaluation plays: seeded deals (`deal(rules, seed)`) or Microsoft deal numbers
 * (`dealMs(rules, n)`). A deal's label is what the CSV's `deal` column holds: `17` for seed 17,
 * `ms:17` for Microsoft deal #17.
 */
import { deal, dealMs, MS_MAX } from "../engine/deal.js";
import { type Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import type { State } from "../engine/state.js";

export type DealRef = { readonly kind: "seed"; readonly seed: number } | { readonly kind: "ms"; readonly n: number };

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

/** Seeds from, from+1, …, from+count−1. */
export function seedRange(from: number, count: number): DealRef[] {
  if (!Number.isSafeInteger(from)) throw new UsageError(`--seed must be an integer for a range of deals, got ${from}`);
  if (!Number.isInteger(count) || count <= 0) throw new UsageError(`--deals must be a positive integer, got ${count}`);
  if (!Number.isSafeInteger(from + count)) throw new UsageError(`seed range ${from} + ${count} is too large`);
  return Array.from({ length: count }, (_, i) => ({ kind: "seed", seed: from + i }) as const);
}

/** Microsoft deals from..to, both included. */
export function msRange(from: number, to: number): DealRef[] {
  for (const [name, v] of [["--ms-from", from], ["--ms-to", to]] as const)
    if (!Number.isInteger(v) || v < 1 || v > MS_MAX) throw new UsageError(`${name} must be an integer from 1 to ${MS_MAX}, got ${v}`);
  if (to < from) throw new UsageError(`--ms-to (${to}) must not be below --ms-from (${from})`);
  if (to - from >= 1e8) throw new UsageError(`at most 100,000,000 deals per run, got ${to - from + 1}`);
  return Array.from({ length: to - from + 1 }, (_, i) => ({ kind: "ms", n: from + i }) as const);
}
