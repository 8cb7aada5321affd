/**
 * The epoch loop of a safety run: each epoch shuffles the training units with the run's
 * generator and steps Adam through them a minibatch at a time, the step size annealed linearly to
 * a tenth. Validation points fall mid-way through each epoch and at its end; each one also saves
 * resume/, so a killed run resumes from the last of them. A signal stops the run after the current
 * step, saved; --max-minutes ends it at the next validation point.
 */
import { UsageError } from "../../errors.js";
import { stopRequested } from "../stop.js";
import { cpuSeconds, epochAt, wallSeconds, type LoopState, type SafetyRun } from "./context.js";
import { minibatchLoss } from "./objective.js";
import { saveProgress } from "./resume.js";
import { validationPoint } from "./validation.js";

/** Steps between two loss rows of metrics.csv. */
const LOSS_ROW_EVERY = 200;
/** Steps between two looks at a stop signal (each lets the event loop run). */
const SIGNAL_EVERY = 10;

/** Trains to the last step, a stop signal or the time budget; returns true when a signal stopped the run (its state saved). */
export async function runEpochs(ctx: SafetyRun, st: LoopState): Promise<boolean> {
  const { o } = ctx;
  const deadline = o.maxMinutes > 0 ? ctx.t0 + o.maxMinutes * 60_000 : Infinity;
  while (st.step < ctx.totalSteps) {
    // A resumed run goes on in the epoch it stopped in: its permutation was saved after the shuffle.
    if (st.next < 0) {
      st.rng.shuffle(st.perm);
      st.epoch++;
    }
    const paused = await runEpoch(ctx, st, deadline);
    st.next = -1;
    if (paused) return true;
    validationPoint(ctx, st, epochAt(ctx, st.step));
    if (st.step < ctx.totalSteps) saveProgress(ctx, st, -1);
    if (performance.now() > deadline) {
      ctx.run.log(`stopped by --max-minutes ${o.maxMinutes}`);
      break;
    }
  }
  return false;
}

/**
 * The minibatches of the epoch under way, from `st.next` on; returns true when a signal stopped
 * the run. Ends early at the run's last step or past the deadline.
 */
async function runEpoch(ctx: SafetyRun, st: LoopState, deadline: number): Promise<boolean> {
  const B = ctx.o.batch;
  const { perm } = st;
  for (let i = Math.max(0, st.next); i + B <= perm.length && st.step < ctx.totalSteps; i += B) {
    trainStep(ctx, st, i);
    if (st.step % LOSS_ROW_EVERY === 0) lossRow(ctx, st, i / perm.length);
    // Half-epoch validation points: the network overfits within a few epochs, so the checkpoint is
    // picked finely. (The epoch's end is validated by runEpochs, once.)
    if (isMidEpoch(ctx, st.step)) {
      validationPoint(ctx, st, epochAt(ctx, st.step));
      saveProgress(ctx, st, i + B);
    }
    if (performance.now() > deadline) break;
    if (st.step % SIGNAL_EVERY === 0 && st.step < ctx.totalSteps && (await stopAsked())) {
      pause(ctx, st, i + B);
      return true;
    }
  }
  return false;
}

/** The step that falls half-way through an epoch (never the run's last: that one is an epoch's end). */
function isMidEpoch(ctx: SafetyRun, step: number): boolean {
  const n = ctx.stepsPerEpoch;
  return step % n === Math.max(1, n >> 1) && step < ctx.totalSteps;
}

/** One Adam step on the minibatch at perm[i …]. */
function trainStep(ctx: SafetyRun, st: LoopState, i: number): void {
  const { o, batch } = ctx;
  const rows = batch.fill(st.perm, i, o.batch, st.step);
  const lr = o.lr * (1 - 0.9 * (st.step / ctx.totalSteps));
  const [loss] = ctx.adam.minimize(
    () => ({ loss: minibatchLoss(ctx.net, batch, rows), extras: [] }),
    lr,
  );
  st.step++;
  st.lossAcc += loss! - (ctx.samples.choice ? batch.floor : 0);
  st.lossN++;
  if (!Number.isFinite(loss!))
    throw new UsageError(
      `the loss became ${loss} at step ${st.step}: lower --lr or --safety-batch`,
    );
}

/** A loss row of metrics.csv (and its log line): the mean loss since the last one, and the speed. */
function lossRow(ctx: SafetyRun, st: LoopState, epochDone: number): void {
  const B = ctx.o.batch;
  const cpu = cpuSeconds() - st.cpu0;
  const sps = (st.step * B - st.samples0) / Math.max(cpu, 1e-6); // finite, so the resume state (JSON) keeps it
  ctx.run.log(
    `step ${st.step}/${ctx.totalSteps} (epoch ${st.epoch}): loss ${(st.lossAcc / st.lossN).toFixed(4)}, ${sps.toFixed(0)} samples per CPU-second`,
  );
  ctx.run.rows.push({
    epoch: st.epoch - 1 + epochDone,
    step: st.step,
    samples: st.step * B,
    loss: st.lossAcc / st.lossN,
    samples_per_cpu_s: sps,
    wall_s: wallSeconds(ctx),
  });
  st.lossAcc = st.lossN = 0;
  st.cpu0 = cpuSeconds();
  st.samples0 = st.step * B;
}

/** Lets a SIGINT/SIGTERM handler run; true when one asked the run to stop. */
async function stopAsked(): Promise<boolean> {
  await new Promise((r) => setImmediate(r));
  return stopRequested();
}

/** Stopped by a signal: saves where the run stands, so --resume goes on from the next minibatch. */
function pause(ctx: SafetyRun, st: LoopState, next: number): void {
  saveProgress(ctx, st, next);
  ctx.run.writeMetrics();
  ctx.run.log(
    `stopped by a signal at step ${st.step}; penguin train --resume ${ctx.o.out} continues`,
  );
}
