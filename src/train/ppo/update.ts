/**
 * PPO (clipped objective, GAE, value loss, entropy bonus, minibatches, annealed learning rate)
 * on a VecEnv, in the CleanRL shape. One network call per vector step picks every env's action;
 * the legal masks (after the never-repeat guard) are stored with the rollout and the update
 * re-applies exactly those masks, so the ratio compares the same masked distributions.
 */
import { envIdForPreset } from "../../env/registry.js";
import { VecEnv } from "../../env/vec.js";
import { tf } from "../backend.js";
import { ppoLoss } from "./loss.js";
import type { TrainContext } from "./context.js";
import { computeGae, scheduledLr } from "../gae.js";
import { chooseMasked, maskedEntropy, maskedLogSoftmax } from "../masked.js";
import { forward, inferBatch } from "../model.js";
import { guardActions, PositionSet } from "../../agents/repeat-guard.js";
import { CheckpointError } from "../checkpoint.js";

function makeVecEnv(ctx: TrainContext): VecEnv {
  const r = ctx.rules;
  return new VecEnv(ctx.o.envs, envIdForPreset(r.preset), {
    cells: r.cells,
    emptyColumn: r.emptyColumn,
    groupMove: r.groupMove,
    build: r.build,
    base: r.base,
    foundations: r.foundations,
    deal: r.deal,
    maxSteps: ctx.o.maxSteps,
    reward: ctx.o.reward,
  });
}

/** Runs PPO until `totalSteps` env steps of this phase; returns true when stopped by the test hook. */
export async function trainPpo(ctx: TrainContext, totalSteps: number): Promise<boolean> {
  const o = ctx.o;
  const net = ctx.net!;
  const N = o.envs;
  const T = o.rolloutSteps;
  const O = ctx.encoder.size;
  const A = ctx.codec.n;
  const batch = N * T;
  const mb = batch / o.minibatches;
  const updates = Math.max(1, Math.floor(totalSteps / batch));
  const vec = makeVecEnv(ctx);
  vec.reset({ seed: o.trainDealStart });
  const rng = ctx.rng;
  const seen = vec.envs.map((e) => {
    const set = new PositionSet();
    set.addState(e.state);
    return set;
  });
  if (ctx.st.ppo) {
    // Resume: every sub-env continues the very episode it was in at the checkpoint.
    const p = ctx.st.ppo;
    p.envs.forEach((text, i) => vec.envs[i]!.restore(JSON.parse(text)));
    p.seen.forEach((pairs, i) => {
      seen[i]!.clear();
      for (const pair of pairs) {
        if (!Array.isArray(pair))
          throw new CheckpointError(
            `damaged checkpoint in ${ctx.run.dir}: its PPO episodes were saved by an older version (53-bit position keys); start a new run`,
          );
        seen[i]!.add(pair[0]!, pair[1]!);
      }
    });
  }
  const p = (ctx.st.ppo ??= { update: 0, envSteps: 0, envs: [], seen: [] });

  const obs = new Float32Array(batch * O);
  const masks = new Uint8Array(batch * A);
  const actions = new Int32Array(batch);
  const logps = new Float32Array(batch);
  const values = new Float32Array(batch);
  const rewards = new Float32Array(batch);
  const dones = new Uint8Array(batch);
  const adv = new Float32Array(batch);
  const ret = new Float32Array(batch);
  const logits = new Float32Array(N * A);
  const stepValues = new Float32Array(N);
  const stepActions = new Int32Array(N);
  const lastValues = new Float32Array(N);
  const logp1 = new Float64Array(1);
  const idx = new Int32Array(batch);
  const mObs = new Float32Array(mb * O);
  const mMask = new Float32Array(mb * A);
  const mAct = new Int32Array(mb);
  const mLogp = new Float32Array(mb);
  const mAdv = new Float32Array(mb);
  const mRet = new Float32Array(mb);
  // With the environment's own observation as the input (features "env", the default), the rows
  // are the ones VecEnv has already encoded for this step; "env+slots" appends the column-end
  // cards and the legal mask, which only the trainer's encoder writes.
  const fillRows = (dst: Float32Array, at: number): void => {
    if (ctx.encoder.kind === "env") dst.set(vec.observations, at);
    else
      for (let i = 0; i < N; i++)
        ctx.encoder.encode(vec.envs[i]!.state, vec.masks, i * A, dst, at + i * O);
  };

  while (p.update < updates) {
    const tRoll = performance.now();
    let episodes = 0;
    let wins = 0;
    let returns = 0;
    for (let t = 0; t < T; t++) {
      const row = t * N;
      fillRows(obs, row * O);
      masks.set(vec.masks, row * A);
      if (o.repeatGuard)
        for (let i = 0; i < N; i++) {
          const env = vec.envs[i]!;
          const off = (row + i) * A;
          // When every legal action repeats, the guard keeps them all: the episode then runs to its step limit.
          guardActions(env.state, masks, off, A, env.actionMoves, seen[i]!);
        }
      inferBatch(net, obs.subarray(row * O, (row + N) * O), N, logits, stepValues);
      for (let i = 0; i < N; i++) {
        const a = chooseMasked(logits, i * A, A, masks, (row + i) * A, rng, logp1);
        stepActions[i] = a;
        actions[row + i] = a;
        logps[row + i] = logp1[0]!;
        values[row + i] = stepValues[i]!;
      }
      vec.step(stepActions);
      for (let i = 0; i < N; i++) {
        rewards[row + i] = vec.rewards[i]!;
        const done = vec.terminated[i]! | vec.truncated[i]!;
        dones[row + i] = done;
        if (done) {
          episodes++;
          wins += vec.finalWon[i]!;
          returns += vec.finalReturns[i]!;
          seen[i]!.clear();
        }
        seen[i]!.addState(vec.envs[i]!.state);
      }
    }
    fillRows(mObs, 0);
    inferBatch(net, mObs, N, logits, lastValues);
    computeGae(rewards, values, dones, lastValues, N, T, o.gamma, o.gaeLambda, adv, ret);
    const rollSecs = (performance.now() - tRoll) / 1000;

    const tUpd = performance.now();
    const lr = scheduledLr(o.ppoLr, p.update / updates, o.lrSchedule);
    const sums = new Float64Array(6);
    for (let i = 0; i < batch; i++) idx[i] = i;
    for (let epoch = 0; epoch < o.ppoEpochs; epoch++) {
      rng.shuffle(idx);
      for (let m = 0; m < o.minibatches; m++) {
        let mean = 0;
        for (let k = 0; k < mb; k++) {
          const j = idx[m * mb + k]!;
          mObs.set(obs.subarray(j * O, (j + 1) * O), k * O);
          for (let a = 0; a < A; a++) mMask[k * A + a] = masks[j * A + a]!;
          mAct[k] = actions[j]!;
          mLogp[k] = logps[j]!;
          mAdv[k] = adv[j]!;
          mRet[k] = ret[j]!;
          mean += adv[j]!;
        }
        mean /= mb;
        let v = 0;
        for (let k = 0; k < mb; k++) v += (mAdv[k]! - mean) ** 2;
        const sd = Math.sqrt(v / Math.max(1, mb - 1)) + 1e-8;
        for (let k = 0; k < mb; k++) mAdv[k] = (mAdv[k]! - mean) / sd;
        const out = tf.tidy(() => {
          const x = tf.tensor2d(mObs, [mb, O]);
          const mask = tf.tensor2d(mMask, [mb, A]);
          const act = tf.oneHot(tf.tensor1d(mAct, "int32"), A);
          const oldLogp = tf.tensor1d(mLogp);
          const advT = tf.tensor1d(mAdv);
          const retT = tf.tensor1d(mRet);
          return ctx.opt.minimize(() => {
            const [lg, val] = forward(net, x);
            const logp = maskedLogSoftmax(lg, mask);
            const newLogp = tf.sum(tf.mul(logp, act), 1);
            const ent = tf.mean(maskedEntropy(logp, mask)) as tf.Scalar;
            const value = tf.reshape(val, [-1]) as tf.Tensor1D;
            return ppoLoss(tf.sub(newLogp, oldLogp), advT, value, retT, ent, o);
          }, lr);
        });
        out.forEach((x, i) => (sums[i] = sums[i]! + x));
      }
    }
    const updSecs = (performance.now() - tUpd) / 1000;
    const stop = await ctx.finishUpdate(
      p,
      {
        updates,
        positions: batch,
        sums,
        episodes,
        wins,
        meanReward: episodes ? returns / episodes : "",
        lr,
        rollSecs,
        updSecs,
      },
      () => {
        p.envs = vec.envs.map((e) => e.serialize());
        p.seen = seen.map((s) => s.entries());
      },
    );
    if (stop) return true;
  }
  return false;
}
