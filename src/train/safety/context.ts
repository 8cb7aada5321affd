/**
 * What the parts of a safety run share: the fixed setup (options, rules, run folder, samples,
 * network, optimizer, minibatch) and the loop's state, the part a resume restores (resume.ts).
 * The epoch loop (epochs.ts) and the validation points (validation.ts) take both.
 */
import type { Rules } from "../../engine/rules.js";
import type { Rng } from "../../util/rng.js";
import type { Adam } from "../adam.js";
import type { RunFolder } from "../run.js";
import type { Minibatch } from "./batch.js";
import type { TfSafety } from "./network.js";
import type { SafetyTrainOptions } from "./options.js";
import type { SafetySamples } from "./samples.js";

/** metrics.csv of a safety run: loss rows every 200 steps, validation rows twice an epoch. */
export const SAFETY_COLUMNS = [
  "epoch",
  "step",
  "samples",
  "loss",
  "val_loss",
  "val_recall_lost",
  "val_false_alarm",
  "threshold",
  "val_win_rate",
  "samples_per_cpu_s",
  "wall_s",
] as const;
export type SafetyColumn = (typeof SAFETY_COLUMNS)[number];

/** The parts of a run fixed once it starts. */
export interface SafetyRun {
  readonly o: SafetyTrainOptions;
  readonly rules: Rules;
  readonly run: RunFolder<SafetyColumn>;
  readonly samples: SafetySamples;
  readonly net: TfSafety;
  readonly adam: Adam;
  readonly batch: Minibatch;
  /** Minibatches per pass over the training units (at least 1), and in the whole run. */
  readonly stepsPerEpoch: number;
  readonly totalSteps: number;
  /** performance.now() when the run began, moved back by the wall time a resumed run had already spent. */
  readonly t0: number;
}

/** Where the loop stands; everything in it but `cpu0` is saved at each validation point. */
export interface LoopState {
  step: number;
  /** Epochs begun. */
  epoch: number;
  /** The next minibatch in the epoch's permutation (-1: start a new epoch). */
  next: number;
  /** The epoch's order of the training units. */
  readonly perm: Int32Array;
  /** The run's generator: the positions kept, then each epoch's shuffle. */
  readonly rng: Rng;
  /** The most validation deals any validation point won (-1: none yet). */
  best: number;
  /** The step of the last validation point, so a step is never validated twice. */
  lastEval: number;
  /** The training loss summed since the last loss row, and its count. */
  lossAcc: number;
  lossN: number;
  /** Samples trained at the last loss row, and the CPU time then (for samples per CPU-second). */
  samples0: number;
  cpu0: number;
}

/** CPU seconds this process has used (user and system): a speed that does not depend on the machine's load. */
export function cpuSeconds(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
}

/** Wall seconds since the run began, counting the time before a resume. */
export function wallSeconds(ctx: SafetyRun): number {
  return (performance.now() - ctx.t0) / 1000;
}

/** The epoch a step ends, to two decimals: the label of its validation point. */
export function epochAt(ctx: SafetyRun, step: number): number {
  return Math.round((step / ctx.stepsPerEpoch) * 100) / 100;
}
