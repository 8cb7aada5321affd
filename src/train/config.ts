/**
 * Every training option, typed, with the default that `penguin train` uses. Defaults are the
 * ones measured to work on a 2-core machine (see docs/train.md).
 */
import type { Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import { FEATURE_KINDS, type FeatureKind } from "../players/policy/features.js";
import { checkSplit, TRAIN_DEAL_START_POLICY, type DealSplit } from "./splits.js";

export type Algo = "ppo" | "bc";

export interface TrainOptions {
  algo: Algo;
  rules: Rules;
  /** Seeds the network's initial weights and every sampling/shuffling choice. */
  seed: number;
  /** Run folder. */
  out: string;
  /** Hidden layer sizes of the MLP. */
  hidden: number[];
  /** Network input: the env observation, or it plus flipper/column slot contents and the legal mask. */
  features: FeatureKind;
  /** Training deals: seeds trainDealStart, trainDealStart + 1, … (PPO plays them in order; BC solves trainDeals of them). */
  trainDealStart: number;
  trainDeals: number;
  /** Held-out evaluation deals: seeds evalDealStart .. evalDealStart + evalDeals − 1 (disjoint from training). */
  evalDealStart: number;
  evalDeals: number;
  /** Deals (the first of the evaluation set) played for the learning curve during training. */
  evalDuring: number;
  /** Evaluate every this many updates (0 = only at the end). */
  evalEvery: number;
  /** Write a checkpoint every this many updates (and always at the end). */
  checkpointEvery: number;
  /** Move limit per game (play and PPO episodes); the CLI's default is defaultMaxSteps(rules). */
  maxSteps: number;
  /** Mask out actions that return to a position seen earlier in the game (play, PPO rollouts). */
  repeatGuard: boolean;

  // Behaviour cloning.
  bcEpochs: number;
  bcBatch: number;
  bcLr: number;
  /** Minibatches per metrics row ("update"). */
  bcBatchesPerUpdate: number;
  /** Share of training deals held out to measure BC loss/accuracy on unseen positions. */
  bcValidationDeals: number;
  solverMaxStates: number;
  solverTimeoutMs: number;
  /** Where solver solutions are cached (shared between runs). */
  cacheDir: string;
  /** DAgger rounds after the behaviour-cloning epochs (0 = plain behaviour cloning). */
  daggerRounds: number;
  /** Fresh training deals the policy plays per round. */
  daggerDeals: number;
  /** Positions per game handed to the solver. */
  daggerStates: number;
  /** Solver budget per DAgger position. */
  daggerMaxStates: number;
  /** Epochs over all data after each round; below 1, that share of one epoch. */
  daggerEpochs: number;
  /** PPO environment steps after behaviour cloning (0 = none). */
  thenPpoSteps: number;

  // PPO.
  totalSteps: number;
  envs: number;
  rolloutSteps: number;
  ppoEpochs: number;
  minibatches: number;
  ppoLr: number;
  gamma: number;
  gaeLambda: number;
  clip: number;
  entCoef: number;
  vfCoef: number;
  maxGradNorm: number;
  lrSchedule: "linear" | "constant";
  reward: "cards" | "win";

  /**
   * Wall-clock budget in minutes (0 = none), solver time included: training stops at the first
   * update past it, checkpoints, and goes on to the final evaluation. A run cut short this way
   * depends on the machine's speed, so it is not bit-reproducible.
   */
  maxMinutes: number;
  /** Test hook: stop (as if killed) after this many updates, right after a checkpoint. */
  stopAfterUpdates?: number;
}

/** The defaults but for the rules, the folder and the move limit, which the rules' env id declares. */
export const TRAIN_DEFAULTS: Omit<TrainOptions, "algo" | "rules" | "out" | "maxSteps"> = {
  seed: 1,
  hidden: [256, 256],
  features: "env",
  trainDealStart: TRAIN_DEAL_START_POLICY,
  trainDeals: 3000,
  evalDealStart: 1,
  evalDeals: 1000,
  evalDuring: 100,
  evalEvery: 6,
  checkpointEvery: 10,
  repeatGuard: true,
  bcEpochs: 1,
  bcBatch: 256,
  bcLr: 1e-3,
  bcBatchesPerUpdate: 50,
  bcValidationDeals: 100,
  solverMaxStates: 200_000,
  solverTimeoutMs: 10_000,
  cacheDir: "cache/bc",
  thenPpoSteps: 0,
  daggerRounds: 2,
  daggerDeals: 200,
  daggerStates: 4,
  daggerMaxStates: 50_000,
  daggerEpochs: 0.25,
  totalSteps: 200_000,
  envs: 32,
  rolloutSteps: 128,
  ppoEpochs: 4,
  minibatches: 4,
  ppoLr: 2.5e-4,
  gamma: 0.99,
  gaeLambda: 0.95,
  clip: 0.2,
  entCoef: 0.01,
  vfCoef: 0.5,
  maxGradNorm: 0.5,
  lrSchedule: "linear",
  reward: "cards",
  maxMinutes: 0,
};

/** Checks ranges and that training and evaluation deals cannot overlap. */
export function validateOptions(o: TrainOptions): void {
  const posInt = (name: string, v: number, min = 1): void => {
    if (!Number.isInteger(v) || v < min)
      throw new UsageError(`${name} must be an integer ≥ ${min}, got ${v}`);
  };
  posInt("--seed", o.seed, 0);
  posInt("--seed", o.trainDealStart, 0);
  posInt("--train-deals", o.trainDeals);
  posInt("--eval-deal-start", o.evalDealStart, 0);
  posInt("--eval-deals", o.evalDeals);
  posInt("--eval-during", o.evalDuring, 0);
  posInt("--envs", o.envs);
  posInt("--rollout-steps", o.rolloutSteps);
  posInt("--minibatches", o.minibatches);
  posInt("--max-steps", o.maxSteps);
  if (o.hidden.length === 0 || o.hidden.some((h) => !Number.isInteger(h) || h < 1))
    throw new UsageError(
      `--hidden must list positive layer sizes, e.g. 256,256; got ${o.hidden.join(",")}`,
    );
  if (!FEATURE_KINDS.includes(o.features))
    throw new UsageError(
      `--features must be one of ${FEATURE_KINDS.join(", ")}, got ${o.features}`,
    );
  if ((o.envs * o.rolloutSteps) % o.minibatches !== 0)
    throw new UsageError(
      `--envs × --rollout-steps (${o.envs * o.rolloutSteps}) must be divisible by --minibatches (${o.minibatches})`,
    );
  checkSplit(dealSplit(o), { training: "--train-deal-start" });
  if (o.bcValidationDeals >= o.trainDeals && o.algo === "bc")
    throw new UsageError(
      `--validation-deals (${o.bcValidationDeals}) must be below --train-deals (${o.trainDeals})`,
    );
}

/**
 * The run's deals: BC solves trainDeals training seeds and DAgger plays the next ones (the last
 * bcValidationDeals of the solved ones are its validation set); PPO plays training seeds upward
 * without end. The learning curve and the final figure play the evaluation seeds.
 */
function dealSplit(o: TrainOptions): DealSplit {
  const bcOnly = o.algo === "bc" && o.thenPpoSteps === 0;
  return {
    training: {
      from: o.trainDealStart,
      ...(bcOnly ? { count: o.trainDeals + o.daggerRounds * o.daggerDeals } : {}),
    },
    evaluation: { from: o.evalDealStart, count: o.evalDeals },
  };
}

/** The run's deals.json: the checked split, and which deals validation and the learning curve use. */
export function describeDeals(o: TrainOptions): object {
  return {
    ...checkSplit(dealSplit(o), { training: "--train-deal-start" }),
    ...(o.algo === "bc"
      ? {
          bcValidation: `the last ${o.bcValidationDeals} of the ${o.trainDeals} solved training deals`,
        }
      : {}),
    learningCurve: `the first ${Math.min(o.evalDuring, o.evalDeals)} evaluation deals`,
  };
}
