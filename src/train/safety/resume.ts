/**
 * The state a stopped or killed safety run continues from (`penguin train --resume DIR`), in the
 * one checkpoint format (src/train/checkpoint.ts) under resume/: the network's current weights and
 * Adam's moments (which checkpoint/, the best network so far, does not hold), the generator and
 * the minibatch order of the epoch under way, the step counters, the running loss and the
 * metrics rows. It is saved at every validation point and when a signal stops the run, so a
 * resumed run repeats exactly the steps an uninterrupted one takes.
 */
import type { Adam } from "../adam.js";
import type { tf } from "../backend.js";
import { CheckpointError, loadResume, rngOf, saveResume, stepOf } from "../checkpoint.js";
import type { RunFolder } from "../run.js";
import { restoreTrainables, trainables } from "../weights.js";
import type { Rng, RngState } from "../../util/rng.js";
import { cpuSeconds, wallSeconds, type LoopState, type SafetyRun } from "./context.js";

/** Where the loop stood: everything a resumed run needs besides the weights and moments. */
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

/** Saves where the run stands; `next`: the next minibatch of the epoch (-1: the epoch is over). */
export function saveProgress(ctx: SafetyRun, st: LoopState, next: number): void {
  const t = trainables(ctx.net.vars(), ctx.adam);
  const state: Json = {
    best: st.best,
    lastEval: st.lastEval,
    lossAcc: st.lossAcc,
    lossN: st.lossN,
    samples0: st.samples0,
    wallSeconds: wallSeconds(ctx),
    rows: ctx.run.rows as Record<string, number>[],
  };
  saveResume<Json>(ctx.run.dir, {
    algo: "safety",
    steps: { ...t.steps, step: st.step, epoch: st.epoch, next },
    rngs: { safety: st.rng.getState() },
    tensors: { ...t.tensors, perm: st.perm },
    state,
  });
}

/**
 * The saved progress, after putting the weights into `vars` and the moments into `adam`;
 * undefined when the run has no state. `units`: the training units the run has now.
 */
export function loadProgress(
  run: RunFolder<string>,
  vars: readonly tf.Variable[],
  adam: Adam,
  units: number,
): SafetyProgress | undefined {
  const cp = loadResume<Json>(run.dir, "safety");
  if (!cp) return undefined;
  restoreTrainables(cp, vars, adam);
  const perm = cp.tensors.perm;
  if (!(perm instanceof Int32Array))
    throw new CheckpointError(`damaged checkpoint ${cp.dir}: perm is not a list of indices`);
  if (perm.length !== units)
    throw new CheckpointError(
      `the training data changed since ${run.dir} stopped (${units} training units, was ${perm.length}); start a new run`,
    );
  return {
    ...cp.state,
    step: stepOf(cp, "step"),
    epoch: stepOf(cp, "epoch"),
    next: stepOf(cp, "next"),
    perm,
    rng: rngOf(cp, "safety"),
  };
}

/**
 * The loop's state at the start: the first epoch not begun, or, resumed, exactly where the run
 * stopped (the epoch's permutation and the generator after its shuffle included; the metrics rows
 * it had written go back into `run`).
 */
export function startingState(
  run: RunFolder<string>,
  train: Int32Array,
  rng: Rng,
  saved: SafetyProgress | undefined,
): LoopState {
  const perm = Int32Array.from(train);
  if (saved) {
    perm.set(saved.perm);
    rng.setState(saved.rng);
    run.rows = saved.rows;
  }
  return {
    step: saved?.step ?? 0,
    epoch: saved?.epoch ?? 0,
    next: saved?.next ?? -1,
    perm,
    rng,
    best: saved?.best ?? -1,
    lastEval: saved?.lastEval ?? -1,
    lossAcc: saved?.lossAcc ?? 0,
    lossN: saved?.lossN ?? 0,
    samples0: saved?.samples0 ?? 0,
    cpu0: cpuSeconds(),
  };
}
