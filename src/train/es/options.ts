/**
 * The options of `penguin train es` (evolution strategies on the linear action-scorer) with
 * their defaults; no TensorFlow.js here, so the command's help loads fast.
 */
import { resolveRules, type Rules } from "../../engine/rules.js";
import { TRAIN_DEAL_START_ES, VALIDATION_DEAL_START_ES } from "../splits.js";

export interface EsOptions {
  out: string;
  /** The rule set played (any of the family; the starting weights are greedy(tuned)'s either way). */
  rules: Rules;
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
  sigma: number;
  lr: number;
  /** constant, or linear: the step size falls linearly to 0 over `generations` (needs generations > 0). */
  lrSchedule: "constant" | "linear";
  /** Move cap of a training game (default: defaultMaxSteps(rules)). */
  maxSteps: number;
  valDeals: number;
  valEvery: number;
  workers: number;
  trainStart: number;
  valStart: number;
  quiet: boolean;
}

/** The defaults but for the move cap, which the rules' env id declares (defaultMaxSteps). */
export const ES_DEFAULTS: Omit<EsOptions, "maxSteps"> = {
  out: "runs/es",
  rules: resolveRules("penguin"),
  seed: 1,
  minutes: 25,
  generations: 0,
  pop: 10,
  deals: 60,
  fixedDeals: false,
  sigma: 0.3,
  lr: 0.1,
  lrSchedule: "constant",
  valDeals: 200,
  valEvery: 4,
  workers: 1,
  trainStart: TRAIN_DEAL_START_ES,
  valStart: VALIDATION_DEAL_START_ES,
  quiet: false,
};
