/**
 * The algorithms of `penguin train <algo>`, each with its one typed options spec: the command
 * builds its flags, its help and its checks from these, and maps the parsed flags onto the
 * algorithm's options object. No TensorFlow.js is loaded here, so `penguin --help` stays fast.
 */
import { TRAIN_DEFAULTS as D } from "./config.js";
import { FEATURE_KINDS } from "../players/policy/features.js";
import { ES_DEFAULTS as E } from "./es/options.js";
import type { NumberSpec, OptionSpecs, StringSpec } from "./options.js";
import { spec } from "../options/registry.js";

export type AlgoName = "ppo" | "bc" | "es" | "safety";

export interface AlgoSpec {
  readonly name: AlgoName;
  readonly describe: string;
  /** Its own flags (the command adds --out, --resume and, with `rules`, the rule options). */
  readonly options: OptionSpecs;
  /** Plays deals, so it takes the rule options. */
  readonly rules: boolean;
  /** Flags a resumed run may change (any other is refused). */
  readonly resumable: readonly string[];
  /** Where it is documented. */
  readonly docs: string;
}

/** Flags every algorithm takes (shared ideas come from the options registry, src/options). */
const COMMON: OptionSpecs = {
  "weights-seed": spec("weights-seed", { default: D.seed, key: "seed" }),
  "max-minutes": {
    describe: "wall-clock budget (0 = none); the run then stops and evaluates",
    default: 0,
    min: 0,
    max: 1e6,
  },
};

/** The policy network and its evaluation: PPO and behaviour cloning share them. */
const POLICY: OptionSpecs = {
  hidden: { type: "sizes", describe: "hidden layer sizes", default: D.hidden },
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
};

/** The learning-rate schedule of PPO and of evolution strategies. */
const lrSchedule = (d: string, key?: string): StringSpec => ({
  type: "string",
  describe: "learning-rate schedule (linear falls to 0 over the run)",
  default: d,
  choices: ["linear", "constant"],
  ...(key ? { key } : {}),
});

/** PPO's learning rate: --lr in PPO; in behaviour cloning --lr is its own and this is --ppo-lr. */
const PPO_LR = spec("lr", { default: D.ppoLr, key: "ppoLr" }) as NumberSpec;

/** PPO's update; behaviour cloning uses it too for --then-ppo-steps. */
const PPO_UPDATE: OptionSpecs = {
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
  "lr-schedule": lrSchedule(D.lrSchedule),
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
    describe: "PPO reward: cards (1/52 per card home) or win",
    default: D.reward,
    choices: ["cards", "win"],
  },
};

const PPO: AlgoSpec = {
  name: "ppo",
  describe: "masked PPO on the vector environment",
  docs: "docs/train.md",
  rules: true,
  resumable: [],
  options: {
    ...COMMON,
    ...POLICY,
    "total-steps": {
      describe: "PPO: environment steps",
      default: D.totalSteps,
      min: 1,
      max: 1e9,
      int: true,
    },
    lr: PPO_LR,
    ...PPO_UPDATE,
  },
};

const BC: AlgoSpec = {
  name: "bc",
  describe:
    "behaviour cloning from the exact solver's solutions, then DAgger rounds (and optionally PPO)",
  docs: "docs/train.md",
  rules: true,
  resumable: [],
  options: {
    ...COMMON,
    ...POLICY,
    "train-deals": {
      describe: "BC: training deals to solve",
      default: D.trainDeals,
      min: 1,
      max: 10_000_000,
      int: true,
    },
    "bc-epochs": {
      describe: "BC: passes over the solver lines",
      default: D.bcEpochs,
      min: 0,
      max: 1000,
    },
    "bc-batch": {
      describe: "BC: minibatch size",
      default: D.bcBatch,
      min: 1,
      max: 65536,
      int: true,
    },
    lr: spec("lr", { default: D.bcLr, key: "bcLr", detail: "behaviour cloning's" }),
    "validation-deals": spec("validation-deals", {
      default: D.bcValidationDeals,
      key: "bcValidationDeals",
      detail: "BC: training deals held out for the validation loss",
    }),
    "bc-batches-per-update": {
      describe: "BC: minibatches per metrics row",
      default: D.bcBatchesPerUpdate,
      min: 1,
      max: 1e6,
      int: true,
    },
    "dagger-rounds": {
      describe: "BC: DAgger rounds (policy plays, solver labels its positions)",
      default: D.daggerRounds,
      min: 0,
      max: 1000,
      int: true,
    },
    "dagger-deals": {
      describe: "BC: fresh training deals per DAgger round",
      default: D.daggerDeals,
      min: 1,
      max: 1e6,
      int: true,
    },
    "dagger-states": {
      describe: "BC: positions per game sent to the solver",
      default: D.daggerStates,
      min: 1,
      max: 10_000,
      int: true,
    },
    "dagger-max-states": {
      describe: "BC: solver budget per DAgger position",
      default: D.daggerMaxStates,
      min: 1,
      max: 2 ** 28,
      int: true,
    },
    "dagger-epochs": {
      describe: "BC: epochs over all data after each round",
      default: D.daggerEpochs,
      min: 0,
      max: 1000,
    },
    "max-states": spec("max-states", {
      default: D.solverMaxStates,
      key: "solverMaxStates",
      detail: "BC: per training deal (--dagger-max-states: per DAgger position)",
    }),
    "timeout-ms": spec("timeout-ms", {
      default: D.solverTimeoutMs,
      key: "solverTimeoutMs",
      detail: "BC: per training deal",
    }),
    "cache-dir": {
      type: "string",
      describe: "where solver solutions are cached",
      default: D.cacheDir,
    },
    "then-ppo-steps": {
      describe: "BC: PPO fine-tuning steps afterwards",
      default: D.thenPpoSteps,
      min: 0,
      max: 1e9,
      int: true,
    },
    "ppo-lr": { ...PPO_LR, describe: "PPO fine-tuning (--then-ppo-steps): learning rate" },
    ...PPO_UPDATE,
  },
};

const ES: AlgoSpec = {
  name: "es",
  describe: "evolution strategies on the linear action-scorer, from greedy(tuned)'s weights",
  docs: "docs/train.md",
  rules: true,
  resumable: ["max-minutes", "es-generations", "workers"],
  options: {
    ...COMMON,
    workers: spec("workers", {
      default: E.workers,
      detail: "ES: they play the generation's games",
    }),
    "es-pop": {
      describe: "ES: antithetic pairs per generation",
      default: E.pop,
      min: 1,
      max: 10_000,
      int: true,
      key: "pop",
    },
    "es-deals": {
      describe: "ES: fresh training deals per generation",
      default: E.deals,
      min: 1,
      max: 1e6,
      int: true,
      key: "deals",
    },
    "es-fixed-deals": {
      type: "boolean",
      describe: "ES: replay the same --es-deals training deals every generation",
      default: E.fixedDeals,
      key: "fixedDeals",
    },
    "es-sigma": {
      describe: "ES: perturbation size (in units of each weight's scale)",
      default: E.sigma,
      min: 0,
      max: 100,
      minExclusive: true,
      key: "sigma",
    },
    lr: spec("lr", { default: E.lr, detail: "ES: in units of each weight's scale" }),
    "lr-schedule": lrSchedule(E.lrSchedule, "lrSchedule"),
    "es-generations": {
      describe: "ES: generations (0 = until --max-minutes)",
      default: E.generations,
      min: 0,
      max: 1e7,
      int: true,
      key: "generations",
    },
    "max-steps": spec("max-steps", {
      detail: "ES: of a training game (default: the game's registered move limit)",
    }),
    "validation-deals": spec("validation-deals", {
      default: E.valDeals,
      key: "valDeals",
      detail: "ES: seeds 1,500,000 up",
    }),
    "es-val-every": {
      describe: "ES: generations between validations",
      default: E.valEvery,
      min: 1,
      max: 1e6,
      int: true,
      key: "valEvery",
    },
  },
};

const SAFETY: AlgoSpec = {
  name: "safety",
  describe:
    "the move-safety network on penguin dataset labels; the defaults are the recipe of the shipped network",
  docs: "docs/train.md",
  rules: false,
  resumable: [],
  options: {
    ...COMMON,
    data: {
      type: "string",
      describe: "safety: dataset folders of penguin dataset, comma-separated",
    },
    "safety-epochs": {
      describe: "safety: passes over the training moves",
      default: 4,
      min: 0.001,
      max: 1000,
      key: "epochs",
    },
    "safety-batch": {
      describe: "safety: minibatch size",
      default: 32,
      min: 1,
      max: 65536,
      int: true,
      key: "batch",
    },
    lr: spec("lr", { default: 1e-3, detail: "safety: annealed to a tenth" }),
    "lost-weight": {
      describe: "safety: loss weight of a losing move (a safe one weighs 1)",
      default: 20,
      min: 0,
      max: 1e6,
      minExclusive: true,
    },
    "keep-safe": {
      describe: "safety: share of positions with no losing move kept",
      default: 1,
      min: 0,
      max: 1,
    },
    "validation-deals": spec("validation-deals", {
      default: 200,
      key: "valDeals",
      detail: "safety: per half epoch, seeds 500,000 up",
    }),
    thresholds: {
      type: "string",
      default: "0.5",
      describe: "safety: risk cut-offs tried on validation deals (best kept)",
    },
    "safety-shuffle": {
      describe: "safety: share of moves played at random among the safe ones",
      default: 0,
      min: 0,
      max: 1,
      key: "shuffle",
    },
    "column-hidden": {
      type: "sizes",
      default: [64, 64],
      describe: "safety: per-column layer sizes",
    },
    "head-hidden": { type: "sizes", default: [128, 64], describe: "safety: head layer sizes" },
    "attention-heads": {
      describe: "safety: attention heads over columns and flippers (0: none)",
      default: 0,
      min: 0,
      max: 64,
      int: true,
    },
    "safety-features": {
      type: "string",
      default: "links",
      choices: ["structure", "basic", "flippers", "cards", "links"],
      describe:
        "safety: input features (structure: digging costs, blockers; flippers: also what each parked card costs to release; cards: also one row per card; links: card rows that also say what the cards they depend on cost)",
      key: "features",
    },
    "card-hidden": {
      type: "sizes",
      default: [32, 32],
      describe: "safety: card-row layer sizes (features cards, links)",
    },
    "safety-objective": {
      type: "string",
      default: "choice",
      choices: ["risk", "choice"],
      describe: "safety: risk (each move's chance of losing) or choice (one softmax per position)",
      key: "objective",
    },
    "choice-target": {
      type: "string",
      default: "lookahead",
      choices: ["winnable", "lookahead"],
      describe:
        "safety: choice objective: the winnable moves share the target alike, or by lookahead's values",
      key: "choiceTarget",
    },
    temperature: {
      describe: "safety: lookahead target: weights e^((V - V_best)/T)",
      default: 1,
      min: 0.01,
      max: 1000,
    },
    "safety-order": {
      type: "string",
      default: "net",
      choices: ["greedy", "net"],
      describe:
        "safety: validation games play greedy's best or the network's best among the moves judged safe",
      key: "playOrder",
    },
    "suit-shuffle": {
      type: "boolean",
      default: true,
      describe:
        "safety: train on a seeded renaming of the suits of every sample (the rules treat all suits alike)",
      key: "suitShuffle",
    },
    model: spec("model", { key: "init", detail: "safety: start from this network" }),
    "critical-weight": {
      describe:
        "safety: choice objective: weight of -log(softmax weight on the winnable moves) in positions that hold a losing move (0: off)",
      default: 0,
      min: 0,
      max: 1000,
      key: "criticalWeight",
    },
  },
};

export const ALGOS: readonly AlgoSpec[] = [PPO, BC, ES, SAFETY];
export const ALGO_NAMES = ALGOS.map((a) => a.name);

export function algoSpec(name: string): AlgoSpec | undefined {
  return ALGOS.find((a) => a.name === name);
}
