/**
 * The named deal splits, in one place: which deal seeds each use may touch.
 *
 *   reserved     1–99,999            evaluation only: never trained on, labelled or used for a choice
 *   test         10,001–20,000       (inside the reserved seeds) played once per shipped model
 *   validation   100,000–999,999     validation and every model or design choice
 *   training     1,000,000 and up    training and labelling for training
 *
 * Every training run, `penguin dataset` (labelling) and every validation set checks its seeds
 * here before it touches a file, and every run records the splits in its config.json.
 */
import { UsageError } from "../errors.js";

interface Split {
  readonly from: number;
  /** Inclusive; undefined: no end. */
  readonly to?: number;
}

export const SPLITS = {
  reserved: { from: 1, to: 99_999 },
  test: { from: 10_001, to: 20_000 },
  validation: { from: 100_000, to: 999_999 },
  training: { from: 1_000_000 },
} as const satisfies Record<string, Split>;

/** What a run uses seeds for: each use has the split its seeds must lie in. */
export type SeedUse = "training" | "validation" | "labelling";
const ALLOWED: Record<SeedUse, Split> = {
  training: SPLITS.training,
  validation: SPLITS.validation,
  // Labels feed training or validation: anything outside the reserved seeds.
  labelling: { from: SPLITS.validation.from },
};

/** Default first seed of labelling deals (`penguin dataset`) and of the safety network's data. */
export const TRAIN_DEAL_START = SPLITS.training.from;
/** First seed of the safety network's validation deals. */
export const VALIDATION_DEAL_START = 500_000;
/** PPO and behaviour cloning: training deals from here up. */
export const TRAIN_DEAL_START_POLICY = 1_000_001;
/** Evolution strategies: training deals from here up, validation deals from VALIDATION_DEAL_START_ES. */
export const TRAIN_DEAL_START_ES = 2_000_000;
export const VALIDATION_DEAL_START_ES = 200_000;

const show = (s: Split): string => (s.to === undefined ? `${s.from} up` : `${s.from}–${s.to}`);

/** The splits as config.json records them. */
export function splitsRecord(): Record<keyof typeof SPLITS, string> {
  return {
    reserved: `${show(SPLITS.reserved)} (evaluation only)`,
    test: `${show(SPLITS.test)} (played once per shipped model)`,
    validation: `${show(SPLITS.validation)} (validation and model choice)`,
    training: `${show(SPLITS.training)} (training and its labels)`,
  };
}

/**
 * Refuses seeds `from` … `from + count − 1` (without a count: every seed from `from` up) that
 * leave the split of their use; `what` names the option in the message.
 */
export function checkSeeds(use: SeedUse, what: string, from: number, count?: number): void {
  if (
    !Number.isSafeInteger(from) ||
    (count !== undefined && !(Number.isSafeInteger(count) && count >= 0))
  )
    throw new UsageError(`${what}: bad seed range ${from} + ${String(count)}`);
  if (count === 0) return;
  const to = count === undefined ? undefined : from + count - 1;
  const range = to === undefined ? `from ${from} up` : `${from}–${to}`;
  const ok = ALLOWED[use];
  if (from < SPLITS.validation.from)
    throw new UsageError(
      `${what}: ${use} seeds ${range} include seeds below ${SPLITS.validation.from}, which are reserved for evaluation; ${use} uses seeds ${show(ok)}`,
    );
  if (from < ok.from || (ok.to !== undefined && (to === undefined || to > ok.to)))
    throw new UsageError(`${what}: ${use} seeds ${range} must lie in ${show(ok)}`);
}

/** Seeds `from` … `from + count − 1`; without a count, every seed from `from` up (PPO, ES). */
export interface SeedRange {
  readonly from: number;
  readonly count?: number;
}

/** A run's deals: the seeds it trains on, validates on (model choice) and evaluates on. */
export interface DealSplit {
  readonly training: SeedRange;
  readonly validation?: SeedRange;
  /** Deals only measured on, never chosen by (default: the test deals). */
  readonly evaluation?: SeedRange;
}

const text = (r: SeedRange): string =>
  r.count === undefined
    ? `${r.from} up`
    : r.count === 0
      ? "none"
      : `${r.from}–${r.from + r.count - 1}`;

/**
 * Checks a split before a run touches any file: training seeds in the training split,
 * validation seeds in the validation split (so the two never meet, nor meet the reserved
 * seeds). Returns the record the run writes to deals.json.
 */
export function checkSplit(
  split: DealSplit,
  names: { training?: string; validation?: string } = {},
): {
  training: string;
  validation?: string;
  evaluation: string;
  splits: Record<string, string>;
} {
  const evaluation = split.evaluation ?? {
    from: SPLITS.test.from,
    count: SPLITS.test.to - SPLITS.test.from + 1,
  };
  checkSeeds(
    "training",
    names.training ?? "training deals",
    split.training.from,
    split.training.count,
  );
  if (split.validation)
    checkSeeds(
      "validation",
      names.validation ?? "validation deals",
      split.validation.from,
      split.validation.count,
    );
  return {
    training: text(split.training),
    ...(split.validation ? { validation: text(split.validation) } : {}),
    evaluation: text(evaluation),
    splits: splitsRecord(),
  };
}
