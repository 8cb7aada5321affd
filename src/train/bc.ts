/**
 * Behaviour cloning: the network learns to pick the solver's move in each position of the
 * solver's solutions (cross-entropy on the masked log-softmax). Minibatches are shuffled by the
 * run's own generator; the permutation of an epoch is drawn from the generator state saved at
 * the epoch's start, so a resumed run replays exactly the minibatches the killed one would have.
 */
import { tf } from "./backend.js";
import { scheduledLr } from "./gae.js";
import {
  buildSamples,
  fillBatch,
  loadSolver,
  solveDeals,
  Unpacker,
  type DealSolution,
  type Samples,
  type SolveFn,
} from "./dataset.js";
import { collectDagger } from "./dagger.js";
import type { TrainContext } from "./context.js";
import { maskedLogSoftmax } from "./masked.js";
import { forward } from "./model.js";
import { Rng } from "../util/rng.js";

/** Cross-entropy and accuracy of the net on given samples, in minibatches. */
function lossOn(
  ctx: TrainContext,
  s: Samples,
  idx: Int32Array,
  unpacker: Unpacker,
): { loss: number; accuracy: number } {
  const B = ctx.o.bcBatch;
  const O = ctx.encoder.size;
  const A = s.actions;
  const obs = new Float32Array(B * O);
  const masks = new Float32Array(B * A);
  const labels = new Int32Array(B);
  let loss = 0;
  let hits = 0;
  for (let from = 0; from < idx.length; from += B) {
    const n = Math.min(B, idx.length - from);
    fillBatch(s, idx, from, n, ctx.encoder, unpacker, obs, masks, labels);
    const r = tf.tidy(() => {
      const [logits] = forward(ctx.net, tf.tensor2d(obs.subarray(0, n * O), [n, O]));
      const mask = tf.tensor2d(masks.subarray(0, n * A), [n, A]);
      const logp = maskedLogSoftmax(logits, mask);
      const y = tf.tensor1d(labels.subarray(0, n), "int32");
      const nll = tf.neg(tf.sum(tf.mul(logp, tf.oneHot(y, A)), 1));
      const hit = tf.equal(tf.argMax(logp, 1), y);
      return tf.stack([tf.sum(nll), tf.sum(tf.cast(hit, "float32"))]);
    });
    const [l, h] = r.dataSync();
    r.dispose();
    loss += l!;
    hits += h!;
  }
  return { loss: loss / Math.max(1, idx.length), accuracy: hits / Math.max(1, idx.length) };
}

export async function loadBcData(ctx: TrainContext, solver?: SolveFn): Promise<DealSolution[]> {
  const o = ctx.o;
  const seeds = Array.from({ length: o.trainDeals }, (_, i) => o.trainDealStart + i);
  const solve = solver ?? (await loadSolver());
  return solveDeals(
    ctx.rules,
    seeds,
    solve,
    { maxStates: o.solverMaxStates, timeoutMs: o.solverTimeoutMs },
    o.cacheDir,
    (l) => ctx.run.log(l),
  );
}

/** Epoch/stage schedule: stage 0 is plain cloning (bcEpochs), stage r ≥ 1 follows DAgger round r. */
function stageEpochs(ctx: TrainContext, stage: number): number {
  return stage === 0 ? ctx.o.bcEpochs : Math.ceil(ctx.o.daggerEpochs);
}

/** The DAgger records of round r: from the run folder if an earlier (killed) run made them. */
async function daggerRecords(
  ctx: TrainContext,
  round: number,
  solver: SolveFn | undefined,
): Promise<DealSolution[]> {
  const name = `dagger-${round}.json`;
  const cached = ctx.run.readJson<DealSolution[]>(name);
  if (cached) return cached;
  const r = await collectDagger(ctx, round, solver ?? (await loadSolver()));
  ctx.run.writeJson(name, r.records);
  ctx.run.log(
    `dagger round ${round}: policy won ${r.policyWins}/${r.games} fresh training deals; solver asked from ${r.queries} of its positions, ${r.solved} solved → ${r.records.reduce((n, d) => n + d.actions.length, 0)} new positions (${r.seconds.toFixed(0)} s)`,
  );
  return r.records;
}

export async function trainBc(
  ctx: TrainContext,
  solutions: DealSolution[],
  solver?: SolveFn,
): Promise<boolean> {
  const o = ctx.o;
  const solved = solutions.filter((d) => d.result === "solved").length;
  // The last bcValidationDeals deals are held out: their loss shows generalisation to new deals.
  const cut = solutions.length - o.bcValidationDeals;
  const rng = new Rng(o.seed);
  const p = (ctx.st.bc ??= { stage: 0, epoch: 0, batch: 0, epochRng: rng.getState(), samples: 0 });
  const B = o.bcBatch;
  const O = ctx.encoder.size;
  const A = ctx.codec.n;
  const obs = new Float32Array(B * O);
  const masks = new Float32Array(B * A);
  const labels = new Int32Array(B);
  const unpacker = new Unpacker(ctx.rules);
  const stages = 1 + o.daggerRounds;
  let data = solutions;
  for (let r = 1; r <= Math.min(p.stage, o.daggerRounds); r++)
    data = data.concat(await daggerRecords(ctx, r, solver));

  while (p.stage < stages) {
    const samples = buildSamples(ctx.rules, data);
    const isVal = (d: number): boolean => d >= cut && d < solutions.length;
    const trainIdx: number[] = [];
    const valIdx: number[] = [];
    for (let i = 0; i < samples.count; i++) (isVal(samples.deal[i]!) ? valIdx : trainIdx).push(i);
    const train = Int32Array.from(trainIdx);
    const val = Int32Array.from(valIdx.slice(0, 4096));
    if (p.stage === 0 && p.epoch === 0 && p.batch === 0)
      ctx.run.log(
        `bc: ${solved}/${solutions.length} deals solved, ${train.length} training positions, ${val.length} validation positions`,
      );
    if (train.length < B)
      throw new Error(
        `only ${train.length} training positions: solve more deals (--train-deals) or raise the solver limits`,
      );
    const epochs = stageEpochs(ctx, p.stage);
    const phase = p.stage === 0 ? "bc" : `dagger${p.stage}`;
    // A fractional daggerEpochs (< 1) trains on that share of the shuffled data after a round.
    const share = p.stage > 0 ? Math.min(1, o.daggerEpochs) : 1;
    const batches = Math.max(1, Math.floor((train.length / B) * share));
    const totalBatches = batches * epochs;
    // Stage 0 anneals from bcLr to a tenth; each DAgger stage from a third of it to a tenth.
    const stageLr = p.stage === 0 ? o.bcLr : o.bcLr / 3;
    let acc = { loss: 0, accuracy: 0, entropy: 0, n: 0 };
    let tUpdate = performance.now();
    let samplesInUpdate = 0;
    while (p.epoch < epochs) {
      rng.setState(p.epochRng);
      const perm = rng.shuffle(train.slice());
      while (p.batch < batches) {
        fillBatch(samples, perm, p.batch * B, B, ctx.encoder, unpacker, obs, masks, labels);
        const lr = scheduledLr(
          stageLr,
          (p.epoch * batches + p.batch) / totalBatches,
          o.lrSchedule,
          (0.1 * o.bcLr) / stageLr,
        );
        const [loss, accuracy, entropy] = tf.tidy(() => {
          const x = tf.tensor2d(obs, [B, O]);
          const mask = tf.tensor2d(masks, [B, A]);
          const y = tf.tensor1d(labels, "int32");
          const yOne = tf.oneHot(y, A);
          return ctx.opt.minimize(() => {
            const [logits] = forward(ctx.net, x);
            const logp = maskedLogSoftmax(logits, mask);
            const nll = tf.neg(tf.mean(tf.sum(tf.mul(logp, yOne), 1))) as tf.Scalar;
            const hit = tf.mean(tf.cast(tf.equal(tf.argMax(logp, 1), y), "float32")) as tf.Scalar;
            const ent = tf.neg(
              tf.mean(tf.sum(tf.mul(tf.mul(tf.exp(logp), logp), mask), 1)),
            ) as tf.Scalar;
            return { loss: nll, extras: [hit, ent] };
          }, lr);
        });
        acc.loss += loss!;
        acc.accuracy += accuracy!;
        acc.entropy += entropy!;
        acc.n++;
        p.batch++;
        p.samples += B;
        samplesInUpdate += B;
        const endOfEpoch = p.batch === batches;
        if (acc.n < o.bcBatchesPerUpdate && !endOfEpoch) continue;
        let endOfStage = false;
        if (endOfEpoch) {
          // The next epoch's permutation comes from the generator as it stands now.
          p.epoch++;
          p.batch = 0;
          p.epochRng = rng.getState();
          if (p.epoch === epochs) {
            endOfStage = true;
            p.stage++;
            p.epoch = 0;
          }
        }
        const endOfRun = endOfStage && p.stage === stages;
        ctx.st.update++;
        const secs = (performance.now() - tUpdate) / 1000;
        const row: Record<string, number | string> = {
          phase,
          update: ctx.st.update,
          env_steps: 0,
          samples: p.samples,
          loss: acc.loss / acc.n,
          policy_loss: acc.loss / acc.n,
          entropy: acc.entropy / acc.n,
          accuracy: acc.accuracy / acc.n,
          lr,
          samples_per_s: samplesInUpdate / secs,
        };
        if (ctx.shouldEval() || endOfStage) {
          const v = lossOn(ctx, samples, val, unpacker);
          const e = await ctx.evaluateDuring();
          Object.assign(row, {
            val_loss: v.loss,
            val_accuracy: v.accuracy,
            eval_win_rate: e.winRate,
            eval_cards_home: e.cards,
          });
          ctx.run.log(
            `${row.phase} update ${ctx.st.update}: loss ${(acc.loss / acc.n).toFixed(4)} acc ${(acc.accuracy / acc.n).toFixed(3)} val_acc ${v.accuracy.toFixed(3)} eval win ${(e.winRate * 100).toFixed(1)}% of ${Math.min(o.evalDuring, o.evalDeals)} deals, cards ${e.cards.toFixed(1)}, ${Math.round(row.samples_per_s as number)} samples/s`,
          );
        }
        if (await ctx.endUpdate(row, endOfRun)) return true;
        acc = { loss: 0, accuracy: 0, entropy: 0, n: 0 };
        samplesInUpdate = 0;
        tUpdate = performance.now();
        if (endOfEpoch) break;
      }
      if (p.epoch === 0) break; // the stage just ended
    }
    if (p.stage < stages && p.stage > 0) {
      data = data.concat(await daggerRecords(ctx, p.stage, solver));
      // A checkpoint here would only save the collection, which the run folder already keeps.
    }
  }
  return false;
}
