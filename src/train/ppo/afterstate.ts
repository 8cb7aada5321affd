/**
 * PPO with the after-state policy (`--policy afterstate`, the default): every legal move is
 * scored from its own feature row (the action-scorer's row, src/players/scorer/features.ts) by
 * one small tanh MLP shared by all moves, and the policy is the softmax over the moves the
 * never-repeat guard allows, so the arbitrary order of the action ids plays no part. The value
 * head reads the mean and the maximum of those rows. The player (src/players/policy/afterstate.ts)
 * runs the same network without TensorFlow.js.
 *
 * Reward: 1 for a won game plus potential-based shaping γΦ(s′) − Φ(s), Φ = shaping × cards home
 * / 52 and Φ = 0 once a game ends, which cannot change which policy is best. A game ends when
 * won, when no move is legal, or at the move limit. Inputs are scaled by the mean and spread of
 * the rows of one rollout of the untrained policy (that rollout is not trained on).
 */
import { MAX_MOVES } from "../../engine/moves.js";
import { deal } from "../../engine/deal.js";
import type { Rules } from "../../engine/rules.js";
import { PositionSet } from "../../engine/position-set.js";
import type { ActionCodec } from "../../env/actions.js";
import {
  AfterstateScorer,
  afterstateBytes,
  TanhMlp,
  type AfterstateConfig,
} from "../../players/policy/afterstate.js";
import { squash } from "../../players/safety/model.js";
import { ScorerAgent, ScorerView } from "../../players/scorer/agent.js";
import { ROW } from "../../players/scorer/features.js";
import { Rng } from "../../util/rng.js";
import { tf } from "../backend.js";
import { ppoLoss } from "./loss.js";
import {
  advantageScale,
  playSeeds,
  playTrainingMove,
  replayGame,
  sampleSoftmax,
  type SeedsPlayed,
  type TrainingGame,
} from "./moves.js";
import { saveCheckpoint, tensorOf, type LoadedCheckpoint } from "../checkpoint.js";
import { scheduledLr } from "../gae.js";
import type { TrainContext } from "./context.js";

/** The after-state policy and value networks being trained, and the input scaling. */
export interface AfterstateNet {
  readonly config: AfterstateConfig;
  /** Policy MLP row → hidden… → 1: kernel0, bias0, …; then the value MLP 2·row → hidden… → 1. */
  readonly policy: tf.Variable[];
  readonly value: tf.Variable[];
  readonly mean: Float32Array;
  readonly scale: Float32Array;
}

/** Seeded Glorot-uniform weights (the output layer of the policy at a tenth: a near-uniform start). */
export function buildAfterstateNet(hidden: number[], actions: number, seed: number): AfterstateNet {
  const rng = new Rng(`${seed}/ppo-afterstate-init`);
  const mlp = (nIn0: number, lastGain: number): tf.Variable[] => {
    const out: tf.Variable[] = [];
    let nIn = nIn0;
    [...hidden, 1].forEach((h, i) => {
      const lim = (i === hidden.length ? lastGain : 1) * Math.sqrt(6 / (nIn + h));
      const w = new Float32Array(nIn * h);
      for (let k = 0; k < w.length; k++) w[k] = (rng.next() * 2 - 1) * lim;
      out.push(tf.variable(tf.tensor2d(w, [nIn, h])), tf.variable(tf.zeros([h])));
      nIn = h;
    });
    return out;
  };
  return {
    config: { row: ROW, hidden, actions },
    policy: mlp(ROW, 0.1),
    value: mlp(2 * ROW, 1),
    mean: new Float32Array(ROW),
    scale: new Float32Array(ROW).fill(1),
  };
}

/** Every trained variable, in the checkpoint's order. */
export function afterstateVariables(net: AfterstateNet): tf.Variable[] {
  return [...net.policy, ...net.value];
}

const values = (vars: readonly tf.Variable[]): Float32Array[] =>
  vars.map((v) => Float32Array.from(v.dataSync() as Float32Array));

/** The scaling as checkpoint tensors (the weights go through trainables()). */
export function scalingTensors(net: AfterstateNet): Record<string, Float32Array> {
  return { mean: Float32Array.from(net.mean), scale: Float32Array.from(net.scale) };
}

export function restoreScaling(cp: LoadedCheckpoint<unknown>, net: AfterstateNet): void {
  net.mean.set(tensorOf(cp, "mean", net.mean.length));
  net.scale.set(tensorOf(cp, "scale", net.scale.length));
}

/** Writes the policy as the player loads it (src/players/policy/afterstate.ts). */
export function saveAfterstatePolicy(
  dir: string,
  net: AfterstateNet,
  steps: Record<string, number>,
): void {
  saveCheckpoint(dir, {
    algo: "ppo",
    steps,
    rngs: {},
    tensors: {},
    files: {
      "weights.bin": afterstateBytes(net.config, net.mean, net.scale, values(net.policy)),
    },
    state: { afterstate: net.config },
  });
}

/** The policy as the player runs it (argmax, shared guard and tie-break). */
export function afterstateAgent(net: AfterstateNet, codec: ActionCodec): ScorerAgent {
  return new ScorerAgent(
    new AfterstateScorer(net.config, net.mean, net.scale, values(net.policy)),
    codec,
    "policy(training)",
  );
}

/** Plays one game per seed by argmax through the evaluation's game loop. */
export function playAfterstate(
  net: AfterstateNet,
  rules: Rules,
  codec: ActionCodec,
  seeds: readonly number[],
  maxSteps: number,
): SeedsPlayed {
  return playSeeds(afterstateAgent(net, codec), rules, seeds, maxSteps);
}

/** The MLP on a batch of rows in tf (tanh hidden layers, linear output), as a vector. */
export function mlpT(x: tf.Tensor2D, w: readonly tf.Variable[]): tf.Tensor1D {
  let h: tf.Tensor2D = x;
  const layers = w.length / 2;
  for (let k = 0; k < layers; k++) {
    const z = tf.add(tf.matMul(h, w[2 * k] as tf.Tensor2D), w[2 * k + 1]!) as tf.Tensor2D;
    h = k < layers - 1 ? tf.tanh(z) : z;
  }
  return tf.reshape(h, [-1]) as tf.Tensor1D;
}

/**
 * Scores squashed to ±20 so that exp cannot overflow: `squash` (the safety network's, which its
 * player compares) as a tensor, for the policies trained here.
 */
export const squashT = (z: tf.Tensor1D): tf.Tensor1D => tf.mul(tf.tanh(tf.div(z, 20)), 20);

/** One sub-environment: its training game and the view its policy reads. */
interface Game extends TrainingGame {
  view: ScorerView;
}

/** Runs PPO on the after-state policy until totalSteps env steps; true when stopped early. */
export async function trainAfterstate(ctx: TrainContext, totalSteps: number): Promise<boolean> {
  const o = ctx.o;
  const net = ctx.after!;
  const rules = ctx.rules;
  const codec = ctx.codec;
  const rng = ctx.rng;
  const N = o.envs;
  const T = o.rolloutSteps;
  const F = ROW;
  const VIN = 2 * F;
  const POS = N * T;
  const MB = POS / o.minibatches;
  const updates = Math.max(1, Math.floor(totalSteps / POS));
  const jsP = new TanhMlp(values(net.policy), F, net.config.hidden);
  const jsV = new TanhMlp(values(net.value), VIN, net.config.hidden);
  const sync = (): void => {
    jsP.layers = values(net.policy);
    jsV.layers = values(net.value);
  };

  const p = (ctx.st.ppo ??= { update: 0, envSteps: 0, envs: [], seen: [] });
  const games: Game[] = [];
  const newGame = (g: Game): void => {
    g.seed = p.nextSeed!++;
    g.s = deal(rules, g.seed);
    g.seen.clear();
    g.seen.addState(g.s);
    g.moves = [];
  };
  const startGames = (): void => {
    games.length = 0;
    for (let i = 0; i < N; i++) {
      const g: Game = {
        seed: 0,
        s: deal(rules, o.trainDealStart),
        seen: new PositionSet(),
        moves: [],
        view: new ScorerView(codec),
      };
      newGame(g);
      games.push(g);
    }
  };
  if (p.games) {
    // Resume: every game is dealt again and its moves replayed, so it continues where it was.
    for (const saved of p.games)
      games.push({ ...replayGame(rules, saved.seed, saved.moves), view: new ScorerView(codec) });
  } else {
    p.nextSeed = o.trainDealStart;
    startGames();
  }
  const scratchMask = new Uint8Array(codec.n);

  let rows = new Float32Array(POS * 24 * F);
  const rowStart = new Int32Array(POS + 1);
  const vin = new Float32Array(POS * VIN);
  const chosen = new Int32Array(POS);
  const oldLogp = new Float32Array(POS);
  const value = new Float32Array(POS);
  const reward = new Float32Array(POS);
  const done = new Uint8Array(POS);
  const adv = new Float32Array(POS);
  const ret = new Float32Array(POS);
  const logits = new Float64Array(MAX_MOVES);
  const order = new Int32Array(MAX_MOVES);
  const lastVin = new Float32Array(N * VIN);

  /** Writes game g's allowed moves' scaled rows at row r and the value input; returns their count. */
  const observe = (g: Game, r: number, vinOut: Float32Array, vOff: number): number => {
    const v = g.view;
    v.look(g.s, g.seen);
    let c = 0;
    for (let k = 0; k < v.legal; k++) {
      const act = v.order[k]!;
      if (v.guarded[act] !== 1) continue;
      if ((r + c + 1) * F > rows.length) {
        const bigger = new Float32Array(rows.length * 2);
        bigger.set(rows);
        rows = bigger;
      }
      const src = act * F;
      const dst = (r + c) * F;
      for (let i = 0; i < F; i++) rows[dst + i] = (v.rows[src + i]! - net.mean[i]!) / net.scale[i]!;
      order[c] = act;
      c++;
    }
    for (let i = 0; i < F; i++) {
      let sum = 0;
      let mx = -Infinity;
      for (let j = 0; j < c; j++) {
        const x = rows[(r + j) * F + i]!;
        sum += x;
        if (x > mx) mx = x;
      }
      vinOut[vOff + i] = c ? sum / c : 0;
      vinOut[vOff + F + i] = c ? mx : 0;
    }
    return c;
  };

  let episodes = 0;
  let wins = 0;
  const rollout = (): void => {
    let r = 0;
    for (let t = 0; t < T; t++)
      for (let i = 0; i < N; i++) {
        const at = t * N + i;
        const g = games[i]!;
        rowStart[at] = r;
        const c = observe(g, r, vin, at * VIN);
        for (let j = 0; j < c; j++) logits[j] = squash(jsP.run(rows, (r + j) * F));
        const { pick, top, logSum } = sampleSoftmax(logits, c, rng);
        chosen[at] = pick;
        oldLogp[at] = logits[pick]! - top - logSum;
        value[at] = jsV.run(vin, at * VIN);
        const move = g.view.actionMoves[order[pick]!]!;
        const { won, end, reward: rw } = playTrainingMove(g, move, o, codec, scratchMask);
        reward[at] = rw;
        done[at] = end ? 1 : 0;
        if (end) {
          episodes++;
          if (won) wins++;
          newGame(g);
        }
        r += c;
      }
    rowStart[POS] = r;
    // Bootstrap values of the positions the rollout stopped in (rows past the used part, not trained on).
    for (let i = 0; i < N; i++) observe(games[i]!, r, lastVin, i * VIN);
    for (let i = 0; i < N; i++) {
      let next = jsV.run(lastVin, i * VIN);
      let gae = 0;
      for (let t = T - 1; t >= 0; t--) {
        const at = t * N + i;
        const nonTerminal = done[at] === 1 ? 0 : 1;
        const delta = reward[at]! + o.gamma * next * nonTerminal - value[at]!;
        gae = delta + o.gamma * o.gaeLambda * nonTerminal * gae;
        adv[at] = gae;
        ret[at] = gae + value[at]!;
        next = value[at]!;
      }
    }
  };

  if (!p.scaled) {
    // Input scaling from one rollout of the untrained policy; then fresh games from the first training deal.
    rollout();
    const n = rowStart[POS]!;
    for (let i = 0; i < F; i++) {
      let s = 0;
      let s2 = 0;
      for (let r = 0; r < n; r++) {
        const x = rows[r * F + i]!;
        s += x;
        s2 += x * x;
      }
      net.mean[i] = s / n;
      net.scale[i] = Math.max(1e-3, Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2)));
    }
    p.scaled = true;
    p.nextSeed = o.trainDealStart;
    startGames();
  }

  const perm = new Int32Array(POS);
  while (p.update < updates) {
    const tRoll = performance.now();
    episodes = wins = 0;
    rollout();
    const rollSecs = (performance.now() - tRoll) / 1000;
    const tUpd = performance.now();
    const lr = scheduledLr(o.ppoLr, p.update / updates, o.lrSchedule);
    const sums = new Float64Array(6);
    for (let i = 0; i < POS; i++) perm[i] = i;
    for (let epoch = 0; epoch < o.ppoEpochs; epoch++) {
      rng.shuffle(perm);
      for (let m = 0; m < o.minibatches; m++) {
        const m0 = m * MB;
        let R = 0;
        for (let j = 0; j < MB; j++) {
          const at = perm[m0 + j]!;
          R += rowStart[at + 1]! - rowStart[at]!;
        }
        const x = new Float32Array(R * F);
        // own[j][r] = 1 when candidate row r belongs to position j; picked[r] = 1 on the moves
        // played. Segment sums are products with own: the WebAssembly backend has no
        // UnsortedSegmentSum kernel (nor gather's gradient, which needs it), and a matMul's
        // gradient is a matMul on every backend.
        const own = new Float32Array(MB * R);
        const picked = new Float32Array(R);
        const vx = new Float32Array(MB * VIN);
        const olp = new Float32Array(MB);
        const ad = new Float32Array(MB);
        const rt = new Float32Array(MB);
        const { mean, sd } = advantageScale(adv, perm, m0, MB);
        let r = 0;
        for (let j = 0; j < MB; j++) {
          const at = perm[m0 + j]!;
          const c = rowStart[at + 1]! - rowStart[at]!;
          x.set(rows.subarray(rowStart[at]! * F, rowStart[at + 1]! * F), r * F);
          own.fill(1, j * R + r, j * R + r + c);
          picked[r + chosen[at]!] = 1;
          r += c;
          vx.set(vin.subarray(at * VIN, (at + 1) * VIN), j * VIN);
          olp[j] = oldLogp[at]!;
          ad[j] = (adv[at]! - mean) / sd;
          rt[j] = ret[at]!;
        }
        const out = tf.tidy(() => {
          const xT = tf.tensor2d(x, [R, F]);
          const ownT = tf.tensor2d(own, [MB, R]);
          const pickedT = tf.tensor2d(picked, [R, 1]);
          const vxT = tf.tensor2d(vx, [MB, VIN]);
          const olpT = tf.tensor1d(olp);
          const adT = tf.tensor1d(ad);
          const rtT = tf.tensor1d(rt);
          return ctx.opt.minimize(() => {
            const s = tf.reshape(squashT(mlpT(xT, net.policy)), [R, 1]) as tf.Tensor2D;
            const top = tf.max(s);
            const sums = tf.matMul(ownT, tf.exp(tf.sub(s, top)));
            const lse = tf.reshape(tf.add(tf.log(sums), top), [MB]) as tf.Tensor1D;
            const logp = tf.sub(tf.reshape(tf.matMul(ownT, tf.mul(s, pickedT)), [MB]), lse);
            const pr = tf.exp(tf.sub(s, tf.matMul(ownT, tf.reshape(lse, [MB, 1]), true)));
            const ent = tf.mean(
              tf.sub(lse, tf.reshape(tf.matMul(ownT, tf.mul(pr, s)), [MB])),
            ) as tf.Scalar;
            return ppoLoss(tf.sub(logp, olpT), adT, mlpT(vxT, net.value), rtT, ent, o);
          }, lr);
        });
        out.forEach((v, i) => (sums[i] = sums[i]! + v));
      }
    }
    sync();
    const updSecs = (performance.now() - tUpd) / 1000;
    const stop = await ctx.finishUpdate(
      p,
      {
        updates,
        positions: POS,
        sums,
        episodes,
        wins,
        // The return without shaping: 1 for a won game.
        meanReward: episodes ? wins / episodes : "",
        lr,
        rollSecs,
        updSecs,
      },
      () => {
        p.games = games.map((g) => ({ seed: g.seed, moves: g.moves.slice() }));
      },
    );
    if (stop) return true;
  }
  return false;
}
