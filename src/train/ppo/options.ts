/**
 * The options of `penguin train ppo` (PPO with the after-state policy by default, or the
 * observation MLP with `--policy observation`): the typed options
 * object, its defaults (the recipe of docs/train.md's PPO figure) and its one spec, from which the
 * command builds its flags, help and checks. No TensorFlow.js here, so `penguin --help` stays fast.
 */
import type { Rules } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import { FEATURE_KINDS, type FeatureKind } from "../../players/policy/features.js";
import { spec } from "../../options/registry.js";
import type { OptionSpecs, StringSpec } from "../../options/spec.js";
import { checkSplit, TRAIN_DEAL_START_POLICY, type DealSplit } from "../splits.js";
import { COMMON_OPTIONS, lrSchedule } from "../shared-options.js";

export interface PpoOptions {
  /** The rule set played (any of the family). */
  rules: Rules;
  /** Seeds the network's initial weights and every sampling/shuffling choice. */
  seed: number;
  /** Run folder. */
  out: string;
  /**
   * afterstate: one MLP shared by all moves scores each legal move from its feature row (the
   * action-scorer's row: the move and the position after it), softmax over the legal moves;
   * observation: an MLP from the observation to one logit per action id, masked to the legal ones.
   */
  policy: PolicyKind;
  /**
   * Safety policy only: the move-safety network it starts from (a folder of penguin train safety,
   * or a model folder such as models/safety; undefined: the shipped network).
   */
  init?: string;
  /** Safety policy only: the sampling temperature τ, π(a) ∝ e^(score(a)/τ); argmax play does not depend on it. */
  policyTemperature: number;
  /** Safety policy only: the value head's step is this many times the policy's learning rate. */
  vfLrScale: number;
  /** Safety policy only: the first this many updates train the value head alone (the policy holds still). */
  valueWarmup: number;
  /** Hidden layer sizes of the MLP (tanh for afterstate, ReLU for observation; the safety policy's value head). */
  hidden: number[];
  /** Observation policy only: the env observation, or it plus flipper/column slot contents and the legal mask. */
  features: FeatureKind;
  /** Training deals: seeds trainDealStart, trainDealStart + 1, … (each sub-environment's next deal is the next seed). */
  trainDealStart: number;
  /** First held-out evaluation deal (disjoint from training; measured only, never chosen by). */
  evalDealStart: number;
  /** Evaluation deals of the final figure: seeds evalDealStart .. evalDealStart + evalDeals − 1. */
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

  /** Environment steps of the whole run. */
  totalSteps: number;
  /** Parallel sub-environments of the VecEnv. */
  envs: number;
  /** Steps per sub-environment per update (an update learns from envs × rolloutSteps steps). */
  rolloutSteps: number;
  /** Passes over each update's steps. */
  ppoEpochs: number;
  /** Minibatches per pass. */
  minibatches: number;
  /** Adam's learning rate. */
  ppoLr: number;
  /** Discount. */
  gamma: number;
  /** GAE's lambda. */
  gaeLambda: number;
  /** Clip range of the probability ratio. */
  clip: number;
  /** Entropy bonus weight. */
  entCoef: number;
  /** Value-loss weight. */
  vfCoef: number;
  /** Global gradient-norm clipping (0 = off). */
  maxGradNorm: number;
  /** linear: the learning rate falls to 0 over the run; constant: it stays. */
  lrSchedule: "linear" | "constant";
  /** Observation policy only: cards: 1/52 per card home; win: 1 for a won game. */
  reward: "cards" | "win";
  /**
   * After-state policy only: the reward is 1 for a won game plus γΦ(s′) − Φ(s) with
   * Φ = shaping × cards home / 52 (potential-based, so it cannot change the best policy); 0 = none.
   */
  shaping: number;

  /**
   * Wall-clock budget in minutes (0 = none): training stops at the first
   * update past it, checkpoints, and goes on to the final evaluation. A run cut short this way
   * depends on the machine's speed, so it is not bit-reproducible.
   */
  maxMinutes: number;
  /** Test hook: stop (as if killed) after this many updates, right after a checkpoint. */
  stopAfterUpdates?: number;
}

export type PolicyKind = "afterstate" | "observation" | "safety";
export const POLICY_KINDS: readonly PolicyKind[] = ["afterstate", "observation", "safety"];

/** The defaults but for the rules, the folder and the move limit, which the rules' env id declares. */
export const PPO_DEFAULTS: Omit<PpoOptions, "rules" | "out" | "maxSteps"> = {
  // The recipe of docs/train.md's PPO figure.
  seed: 1,
  policy: "afterstate",
  hidden: [64, 64],
  policyTemperature: 1,
  vfLrScale: 1,
  valueWarmup: 0,
  features: "env",
  trainDealStart: TRAIN_DEAL_START_POLICY,
  evalDealStart: 1,
  evalDeals: 1000,
  evalDuring: 100,
  evalEvery: 10,
  checkpointEvery: 10,
  repeatGuard: true,
  totalSteps: 2_048_000,
  envs: 16,
  rolloutSteps: 256,
  ppoEpochs: 4,
  minibatches: 8,
  ppoLr: 3e-4,
  gamma: 0.995,
  gaeLambda: 0.95,
  clip: 0.2,
  entCoef: 0.01,
  vfCoef: 0.5,
  maxGradNorm: 0,
  lrSchedule: "linear",
  reward: "cards",
  shaping: 1,
  maxMinutes: 0,
};

/** Checks ranges and that training and evaluation deals cannot overlap. */
export function validateOptions(o: PpoOptions): void {
  const posInt = (name: string, v: number, min = 1): void => {
    if (!Number.isInteger(v) || v < min)
      throw new UsageError(`${name} must be an integer ≥ ${min}, got ${v}`);
  };
  posInt("--seed", o.seed, 0);
  posInt("--seed", o.trainDealStart, 0);
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
  if (!POLICY_KINDS.includes(o.policy))
    throw new UsageError(`--policy must be one of ${POLICY_KINDS.join(", ")}, got ${o.policy}`);
  if (o.policy !== "observation") {
    // Options of the other policy are refused rather than ignored.
    if (!o.repeatGuard)
      throw new UsageError(
        `--no-repeat-guard needs --policy observation: the ${o.policy} policy always plays under the guard`,
      );
    if (o.features !== "env")
      throw new UsageError(
        `--features needs --policy observation: the ${o.policy} policy reads each move's after-state`,
      );
    if (o.reward !== "cards")
      throw new UsageError(
        `--reward needs --policy observation: the ${o.policy} policy's reward is 1 per win plus --shaping`,
      );
  } else if (o.shaping !== PPO_DEFAULTS.shaping)
    throw new UsageError("--shaping needs --policy afterstate (the default) or safety");
  if (o.policy !== "safety") {
    if (o.init !== undefined)
      throw new UsageError(
        "--model needs --policy safety: the other policies start from random weights",
      );
    if (o.policyTemperature !== PPO_DEFAULTS.policyTemperature)
      throw new UsageError("--policy-temperature needs --policy safety");
    if (o.vfLrScale !== PPO_DEFAULTS.vfLrScale)
      throw new UsageError("--vf-lr-scale needs --policy safety");
    if (o.valueWarmup !== PPO_DEFAULTS.valueWarmup)
      throw new UsageError("--value-warmup needs --policy safety");
  }
  if (!(o.policyTemperature > 0))
    throw new UsageError(`--policy-temperature must be above 0, got ${o.policyTemperature}`);
  if (!FEATURE_KINDS.includes(o.features))
    throw new UsageError(
      `--features must be one of ${FEATURE_KINDS.join(", ")}, got ${o.features}`,
    );
  if ((o.envs * o.rolloutSteps) % o.minibatches !== 0)
    throw new UsageError(
      `--envs × --rollout-steps (${o.envs * o.rolloutSteps}) must be divisible by --minibatches (${o.minibatches})`,
    );
  checkSplit(dealSplit(o), { training: "--seed" });
}

/** The run's deals: PPO plays training seeds upward without end; the learning curve and the final figure play the evaluation seeds. */
function dealSplit(o: PpoOptions): DealSplit {
  return {
    training: { from: o.trainDealStart },
    evaluation: { from: o.evalDealStart, count: o.evalDeals },
  };
}

/** The run's deals.json: the checked split, and which deals the learning curve uses. */
export function describeDeals(o: PpoOptions): object {
  return {
    ...checkSplit(dealSplit(o), { training: "--seed" }),
    learningCurve: `the first ${Math.min(o.evalDuring, o.evalDeals)} evaluation deals`,
  };
}

const D = PPO_DEFAULTS;

/** The flags of `penguin train ppo`, each mapped onto a field of PpoOptions (its key). */
export const PPO_SPEC: OptionSpecs = {
  ...COMMON_OPTIONS,
  policy: {
    type: "string",
    describe:
      "afterstate scores each legal move from its after-state row with one shared MLP; safety starts from the move-safety network (--model) and scores each move from the position after it; observation maps the observation to one logit per action id",
    default: D.policy,
    choices: POLICY_KINDS,
  },
  hidden: {
    type: "sizes",
    describe: "hidden layer sizes (the safety policy: of its value head)",
    default: D.hidden,
  },
  model: spec("model", {
    key: "init",
    detail:
      "safety policy: the move-safety network it starts from (default: the shipped one, models/safety)",
  }),
  "policy-temperature": {
    describe:
      "safety policy: sampling temperature, π(a) ∝ e^(score/τ) over the guarded moves (argmax play does not depend on it)",
    default: D.policyTemperature,
    min: 0.01,
    max: 100,
    key: "policyTemperature",
  },
  "vf-lr-scale": {
    describe: "safety policy: the value head's learning rate as a multiple of --lr",
    default: D.vfLrScale,
    min: 0,
    max: 1e6,
    key: "vfLrScale",
  },
  "value-warmup": {
    describe: "safety policy: first updates that train the value head alone",
    default: D.valueWarmup,
    min: 0,
    max: 1e6,
    int: true,
    key: "valueWarmup",
  },
  features: {
    type: "string",
    describe:
      "network input: env is the environment's own observation (as VecEnv gives it); env+slots adds the column-end cards and the legal mask",
    default: D.features,
    choices: FEATURE_KINDS,
  },
  seed: spec("seed", {
    default: D.trainDealStart,
    key: "trainDealStart",
    min: 100_000,
    max: 2 ** 31 - 1,
    detail: "training deals (seeds below 100000 are reserved for evaluation and refused)",
    hint: "the seed of the weights is --weights-seed",
  }),
  "eval-deal-start": {
    describe: "first evaluation deal seed (measured only, never chosen by)",
    default: D.evalDealStart,
    min: 1,
    max: 2 ** 31 - 1,
    int: true,
  },
  "eval-deals": {
    describe: "evaluation deals of the final figure",
    default: D.evalDeals,
    min: 0,
    max: 10_000_000,
    int: true,
  },
  "eval-during": {
    describe: "evaluation deals played for the learning curve",
    default: D.evalDuring,
    min: 0,
    max: 10_000_000,
    int: true,
  },
  "eval-every": {
    describe: "updates between curve evaluations",
    default: D.evalEvery,
    min: 1,
    max: 1e6,
    int: true,
  },
  "checkpoint-every": {
    describe: "updates between checkpoints",
    default: D.checkpointEvery,
    min: 1,
    max: 1e6,
    int: true,
  },
  "max-steps": spec("max-steps", { detail: "default: the game's registered move limit" }),
  "repeat-guard": {
    type: "boolean",
    describe: "the never-repeat guard in play and PPO rollouts (--no-repeat-guard to turn off)",
    default: D.repeatGuard,
  },
  "total-steps": {
    describe: "PPO: environment steps",
    default: D.totalSteps,
    min: 1,
    max: 1e9,
    int: true,
  },
  lr: spec("lr", { default: D.ppoLr, key: "ppoLr" }),
  envs: { describe: "PPO: parallel environments", default: D.envs, min: 1, max: 4096, int: true },
  "rollout-steps": {
    describe: "PPO: steps per env per update",
    default: D.rolloutSteps,
    min: 1,
    max: 100_000,
    int: true,
  },
  "ppo-epochs": {
    describe: "PPO: passes per update",
    default: D.ppoEpochs,
    min: 1,
    max: 1000,
    int: true,
  },
  minibatches: {
    describe: "PPO: minibatches per pass",
    default: D.minibatches,
    min: 1,
    max: 1e6,
    int: true,
  },
  "lr-schedule": lrSchedule(D.lrSchedule) as StringSpec,
  gamma: { describe: "PPO discount", default: D.gamma, min: 0, max: 1 },
  "gae-lambda": { describe: "PPO GAE lambda", default: D.gaeLambda, min: 0, max: 1 },
  clip: { describe: "PPO clip range", default: D.clip, min: 0, max: 10, minExclusive: true },
  "ent-coef": { describe: "PPO entropy bonus", default: D.entCoef, min: 0, max: 100 },
  "vf-coef": { describe: "PPO value-loss weight", default: D.vfCoef, min: 0, max: 100 },
  "max-grad-norm": {
    describe: "PPO gradient clipping (0 = off)",
    default: D.maxGradNorm,
    min: 0,
    max: 1e6,
  },
  reward: {
    type: "string",
    describe: "observation policy's reward: cards (1/52 per card home) or win",
    default: D.reward,
    choices: ["cards", "win"],
  },
  shaping: {
    describe:
      "after-state policy: weight of the potential-based shaping on cards home (reward 1 per win + shaping × Δcards/52)",
    default: D.shaping,
    min: 0,
    max: 100,
  },
};
