/**
 * The state a stopped or killed safety run continues from (`penguin train --resume DIR`), in the
 * one checkpoint format (src/train/checkpoint.ts) under resume/: the network's current weights and
 * Adam's moments (which checkpoint/, the best network so far, does not hold), the generator and
 * the minibatch order of the epoch under way, the step counters, the running loss and the
 * metrics rows.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Adam } from "../adam.js";
import type { tf } from "../backend.js";
import {
  CheckpointError,
  checkpointPath,
  loadCheckpoint,
  RESUME_DIR,
  rngOf,
  saveCheckpoint,
} from "../checkpoint.js";
import type { RunFolder } from "../run.js";
import { restoreTrainables, trainables } from "../weights.js";
import type { RngState } from "../../util/rng.js";

/** Where the loop stands: everything a resumed run needs besides the weights and moments. */
export interface SafetyProgress {
  readonly step: number;
  /** Epochs begun. */
  readonly epoch: number;
  /** Index in the epoch's permutation of the next minibatch (-1: the epoch is over). */
  readonly next: number;
  /** The epoch's permutation of the training units. */
  readonly perm: Int32Array;
  /** The run's generator after the epoch's shuffle. */
  readonly rng: RngState;
  readonly best: number;
  readonly lastEval: number;
  readonly lossAcc: number;
  readonly lossN: number;
  readonly samples0: number;
  readonly wallSeconds: number;
  readonly rows: Record<string, number | string>[];
}

type Json = Omit<SafetyProgress, "perm" | "rng" | "step" | "epoch" | "next">;

export function saveProgress(
  run: RunFolder<string>,
  p: SafetyProgress,
  vars: readonly tf.Variable[],
  adam: Adam,
): void {
  const { perm, rng, step, epoch, next, ...json } = p;
  const t = trainables(vars, adam);
  saveCheckpoint<Json>(join(run.dir, RESUME_DIR), {
    algo: "safety",
    steps: { ...t.steps, step, epoch, next },
    rngs: { safety: rng },
    tensors: { ...t.tensors, perm },
    state: json,
  });
}

/** The saved progress, after putting the weights into `vars` and the moments into `adam`; undefined when the run has no state. */
export function loadProgress(
  run: RunFolder<string>,
  vars: readonly tf.Variable[],
  adam: Adam,
  units: number,
): SafetyProgress | undefined {
  const dir = join(run.dir, RESUME_DIR);
  if (!checkpointPath(dir)) return undefined;
  const cp = loadCheckpoint<Json>(dir, "safety");
  restoreTrainables(cp, vars, adam);
  const perm = cp.tensors.perm;
  if (!(perm instanceof Int32Array))
    throw new CheckpointError(`damaged checkpoint ${cp.dir}: perm is not a list of indices`);
  if (perm.length !== units)
    throw new CheckpointError(
      `the training data changed since ${run.dir} stopped (${units} training units, was ${perm.length}); start a new run`,
    );
  const num = (k: string): number => {
    const v = cp.steps[k];
    if (typeof v !== "number") throw new CheckpointError(`damaged checkpoint ${cp.dir}: no ${k}`);
    return v;
  };
  return {
    ...cp.state,
    step: num("step"),
    epoch: num("epoch"),
    next: num("next"),
    perm,
    rng: rngOf(cp, "safety"),
  };
}

/** A finished run keeps no resume state. */
export function dropProgress(run: RunFolder<string>): void {
  rmSync(join(run.dir, RESUME_DIR), { recursive: true, force: true });
}
