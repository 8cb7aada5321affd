/**
 * The options of `penguin train es` (evolution strategies on the linear action-scorer): the typed
 * options object, its defaults (the recipe of docs/train.md's ES figure) and its one spec; no
 * TensorFlow.js here, so the command's help loads fast.
 */
import { resolveRules, type Rules } from "../../engine/rules.js";
import { spec } from "../../options/registry.js";
import type { OptionSpecs } from "../../options/spec.js";
import { COMMON_OPTIONS, lrSchedule } from "../shared-options.js";
import { TRAIN_DEAL_START_ES, VALIDATION_DEAL_START_ES } from "../splits.js";

export interface EsOptions {
  /** The run folder. */
  out: string;
  /** The rule set played (any of the family; the starting weights are greedy(tuned)'s either way). */
  rules: Rules;
  /** Seeds the generator of the perturbations. */
  seed: number;
  /** Wall-clock budget in minutes (0 = none); the run stops after the generation that crosses it. */
  minutes: number;
  /** Generations to run (0 = until the budget). */
  generations: number;
  /** Antithetic pairs per generation. */
  pop: number;
  /** Fresh training deals per generation, played by every member. */
  deals: number;
  /** Replay the same `deals` training deals every generation (to check the optimiser can fit a fixed set). */
  fixedDeals: boolean;
  /** Perturbation size, in units of each weight's scale. */
  sigma: number;
  /** Adam's step size, in units of each weight's scale. */
  lr: number;
  /** constant, or linear: the step size falls linearly to 0 over `generations` (needs generations > 0). */
  lrSchedule: "constant" | "linear";
  /** Move cap of a training game (shorter than the game's own limit, for speed; validation plays the game's). */
  maxSteps: number;
  /** Validation deals the mean weights play; the best validation is the checkpoint. */
  valDeals: number;
  /** Generations between validations (the last generation is always validated). */
  valEvery: number;
  /** Worker threads playing a generation's games (the weights do not depend on it). */
  workers: number;
  /** First training deal. */
  trainStart: number;
  /** First validation deal. */
  valStart: number;
  /** Log to train.log only. */
  quiet: boolean;
}

/** The recipe of the measured run (results/train-es), which ran its 330 generations in 25 minutes. */
export const ES_DEFAULTS: EsOptions = {
  out: "runs/es",
  rules: resolveRules("penguin"),
  seed: 1,
  minutes: 0,
  generations: 330,
  pop: 16,
  deals: 80,
  fixedDeals: false,
  sigma: 0.3,
  lr: 0.1,
  lrSchedule: "linear",
  maxSteps: 400,
  valDeals: 500,
  valEvery: 10,
  workers: 1,
  trainStart: TRAIN_DEAL_START_ES,
  valStart: VALIDATION_DEAL_START_ES,
  quiet: false,
};

const E = ES_DEFAULTS;

/** The flags of `penguin train es`, each mapped onto a field of EsOptions (its key). */
export const ES_SPEC: OptionSpecs = {
  ...COMMON_OPTIONS,
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
    default: E.maxSteps,
    detail: "ES: of a training game (validation plays the game's own limit)",
  }),
  "validation-deals": spec("validation-deals", {
    default: E.valDeals,
    key: "valDeals",
    detail: "ES: seeds 200,000 up",
  }),
  "es-val-every": {
    describe: "ES: generations between validations",
    default: E.valEvery,
    min: 1,
    max: 1e6,
    int: true,
    key: "valEvery",
  },
};
