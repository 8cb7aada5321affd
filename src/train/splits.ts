/**
 * Which deal seeds each use may touch: the one deal-split helper of every training run and of
 * `penguin dataset`. Held-out evaluation owns seeds 1–10000 (`penguin eval --deals 1000 --seed 1`
 * and the 9,000 deals after them); training, labelling and validation deals lie elsewhere and
 * apart from each other, and every run checks this before it starts and records the split in its
 * deals.json.
 */
import { UsageError } from "../errors.js";

const HELD_OUT = { from: 1, to: 10_000 } as const;
/** Default first seed of labelling deals (`penguin dataset`) and of the safety network's data. */
export const TRAIN_DEAL_START = 1_000_000;
/** Default first seed of the safety network's validation deals (below the training deals, above the held-out ones). */
export const VALIDATION_DEAL_START = 500_000;
/** PPO and behaviour cloning: training deals from here up. */
export const TRAIN_DEAL_START_POLICY = 1_000_001;
/** Evolution strategies: training deals from here up, validation deals from VALIDATION_DEAL_START_ES. */
export const TRAIN_DEAL_START_ES = 2_000_000;
export const VALIDATION_DEAL_START_ES = 1_500_000;

/** Refuses a range of `count` seeds from `from` that meets the held-out seeds. */
export function checkOutsideHeldOut(what: string, from: number, count: number): void {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(count) || count < 0)
    throw new UsageError(`${what}: bad seed range ${from} + ${count}`);
  const to = from + count - 1;
  if (count > 0 && from <= HELD_OUT.to && to >= HELD_OUT.from)
    throw new UsageError(
      `${what} seeds ${from}–${to} overlap the held-out evaluation seeds ${HELD_OUT.from}–${HELD_OUT.to}; start at ${HELD_OUT.to + 1} or above`,
    );
}

/** Refuses two ranges that share a seed. */
function checkDisjoint(
  a: string,
  aFrom: number,
  aCount: number,
  b: string,
  bFrom: number,
  bCount: number,
): void {
  if (aCount > 0 && bCount > 0 && aFrom <= bFrom + bCount - 1 && bFrom <= aFrom + aCount - 1)
    throw new UsageError(
      `${a} seeds ${aFrom}–${aFrom + aCount - 1} overlap ${b} seeds ${bFrom}–${bFrom + bCount - 1}`,
    );
}

/** Seeds `from` … `from + count − 1`; without a count, every seed from `from` up (PPO, ES). */
export interface SeedRange {
  readonly from: number;
  readonly count?: number;
}

/** A run's deals: the seeds it trains on, validates on (model selection) and evaluates on. */
export interface DealSplit {
  readonly training: SeedRange;
  readonly validation?: SeedRange;
  /** The held-out deals the run's figures are measured on (default: seeds 1–10000). */
  readonly evaluation?: SeedRange;
}

const OPEN = Number.MAX_SAFE_INTEGER;
const span = (r: SeedRange): number => r.count ?? OPEN - r.from;
const text = (r: SeedRange): string =>
  r.count === undefined
    ? `${r.from} up`
    : r.count === 0
      ? "none"
      : `${r.from}–${r.from + r.count - 1}`;

/**
 * Checks a split before a run touches any file: training and validation seeds lie outside the
 * held-out seeds 1–10000 and the evaluation seeds, and apart from each other. Returns the record
 * the run writes to deals.json.
 */
export function checkSplit(split: DealSplit): {
  training: string;
  validation?: string;
  evaluation: string;
  note: string;
} {
  const evaluation = split.evaluation ?? {
    from: HELD_OUT.from,
    count: HELD_OUT.to - HELD_OUT.from + 1,
  };
  const uses: [string, SeedRange][] = [["training", split.training]];
  if (split.validation) uses.push(["validation", split.validation]);
  for (const [what, r] of uses) {
    if (r.count !== undefined) checkOutsideHeldOut(what, r.from, r.count);
    else if (r.from <= HELD_OUT.to)
      throw new UsageError(
        `${what} seeds from ${r.from} up overlap the held-out evaluation seeds ${HELD_OUT.from}–${HELD_OUT.to}; start at ${HELD_OUT.to + 1} or above`,
      );
    checkDisjoint(what, r.from, span(r), "evaluation", evaluation.from, span(evaluation));
  }
  if (split.validation)
    checkDisjoint(
      "training",
      split.training.from,
      span(split.training),
      "validation",
      split.validation.from,
      span(split.validation),
    );
  return {
    note: "seeds of deal(rules, seed) (seedrandom); the ranges are disjoint, checked before the run started",
    training: text(split.training),
    ...(split.validation ? { validation: text(split.validation) } : {}),
    evaluation: text(evaluation),
  };
}
