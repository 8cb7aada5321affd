/**
 * Which deal seeds each use may touch. Held-out evaluation owns seeds 1–10000 (`penguin eval
 * --deals 1000 --seed 1` and the 9,000 deals after them); training, labelling and validation
 * deals must lie elsewhere, and every run checks this before it starts.
 */
import { UsageError } from "../errors.js";

export const HELD_OUT = { from: 1, to: 10_000 } as const;
/** Default first seed of training (and labelling) deals. */
export const TRAIN_DEAL_START = 1_000_000;
/** Default first seed of validation deals (below the training deals, above the held-out ones). */
export const VALIDATION_DEAL_START = 500_000;

/** Refuses a range of `count` seeds from `from` that meets the held-out seeds. */
export function checkOutsideHeldOut(what: string, from: number, count: number): void {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(count) || count < 0) throw new UsageError(`${what}: bad seed range ${from} + ${count}`);
  const to = from + count - 1;
  if (count > 0 && from <= HELD_OUT.to && to >= HELD_OUT.from)
    throw new UsageError(`${what} seeds ${from}–${to} overlap the held-out evaluation seeds ${HELD_OUT.from}–${HELD_OUT.to}; start at ${HELD_OUT.to + 1} or above`);
}

/** Refuses two ranges that share a seed. */
export function checkDisjoint(a: string, aFrom: number, aCount: number, b: string, bFrom: number, bCount: number): void {
  if (aCount > 0 && bCount > 0 && aFrom <= bFrom + bCount - 1 && bFrom <= aFrom + aCount - 1)
    throw new UsageError(`${a} seeds ${aFrom}–${aFrom + aCount - 1} overlap ${b} seeds ${bFrom}–${bFrom + bCount - 1}`);
}
