/**
 * PPO with the move-safety network as its policy (`--policy safety`): reinforcement fine-tuning
 * of a supervised network on the win reward. The policy's logit for each move the never-repeat
 * guard allows is the network's score of the position after it (the choice objective's squashed
 * score, src/players/safety/model.ts), divided by a temperature τ, and the policy is the softmax
 * over those moves. Its argmax is the move the `safety` agent plays at its shipped operating point
 * (order=net, no shuffle), whatever τ is, so the trained network plays through
 * `penguin eval --agent safety --agent-opt model=RUN` exactly as the policy's greedy play.
 *
 * Weights start from a safety model folder (default: the shipped network). The value is that of
 * the position after the move, averaged under the policy: V(s) = Σₐ π(a|s)·v(hₐ), where hₐ is the
 * network's last hidden layer on candidate a's after-state and v a small tanh MLP. Because a move
 * leads to one position, the value of the position after a move is the move's action value, and
 * the network's last hidden layer was trained to tell winnable after-states from lost ones, so the
 * value head starts from the features it most needs. Gradients of the value loss stop at hₐ and at
 * π: the value never moves the policy's weights.
 *
 * Rollouts play the network in plain JavaScript, the player's own arithmetic (SafetyScorer); each
 * position and each candidate's after-state are kept packed (80 bytes, as the safety datasets
 * keep them) and encoded again for TensorFlow.js by the safety trainer's BatchEncoder. The old
 * log-probabilities and values come from one TensorFlow.js pass over the rollout before the update
 * epochs, so the first ratio is exactly 1.
 *
 * Reward: 1 for a won game plus the after-state policy's potential-based shaping (--shaping). A
 * game ends when won, when no move is legal, or at the move limit.
 */
import { applyMove, undoMove } from "../../engine/moves.js";
import type { Rules } from "../../engine/rules.js";
import type { State } from "../../engine/state.js";
import { UsageError } from "../../errors.js";
import {
  type PlayPolicy,
  SafetyAgent,
  SafetyScorer,
  SafetyView,
} from "../../players/safety/agent.js";
import { COLUMN_WIDTH, FLIPPER_WIDTH } from "../../players/safety/encode.js";
import {
  initWeights,
  loadSafety,
  saveSafety,
  type SafetyConfig,
  type SafetyWeights,
} from "../../players/safety/model.js";
import { safetyModel } from "../../players/safety/shipped.js";
import { Rng } from "../../util/rng.js";
import { tf } from "../backend.js";
import { computeGae, scheduledLr } from "../gae.js";
import { BatchEncoder, type PackedMoves } from "../safety/batch.js";
import { TfSafety } from "../safety/network.js";
import { PACK_STRIDE, packState } from "../safety/pack.js";
import { mlpT, squashT } from "./afterstate.js";
import type { TrainContext } from "./context.js";
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

/** What a resume needs to rebuild the policy (its weights are in the checkpoint's tensors). */
export interface SafetyPolicyConfig {
  /** The move-safety network's layers, as in its model.json. */
  readonly net: SafetyConfig;
  /** The value head's hidden layer sizes. */
  readonly valueHidden: number[];
  /** The model folder the run started from, and its model.json meta. */
  readonly from: string;
  readonly meta: Record<string, unknown>;
}

/** The policy (the safety network, as tf variables) and its value head. */
export interface SafetyPolicyNet {
  readonly config: SafetyPolicyConfig;
  readonly net: TfSafety;
  readonly value: tf.Variable[];
}

/** The operating point every game of the policy is played at: the network's best guarded move. */
export function greedyPlay(meta: Record<string, unknown>): PlayPolicy {
  const saved = (meta.play ?? {}) as Partial<PlayPolicy>;
  return {
    threshold: saved.threshold ?? 0.5,
    margin: saved.margin ?? 0.05,
    shuffle: 0,
    order: "net",
  };
}

function valueHead(inputs: number, hidden: readonly number[], seed: number): tf.Variable[] {
  // Seeded Glorot-uniform, as the after-state policy's heads (buildAfterstateNet).
  const rng = new Rng(`${seed}/ppo-safety-value`);
  const out: tf.Variable[] = [];
  let nIn = inputs;
  for (const h of [...hidden, 1]) {
    const lim = Math.sqrt(6 / (nIn + h));
    const w = new Float32Array(nIn * h);
    for (let k = 0; k < w.length; k++) w[k] = (rng.next() * 2 - 1) * lim;
    out.push(tf.variable(tf.tensor2d(w, [nIn, h])), tf.variable(tf.zeros([h])));
    nIn = h;
  }
  return out;
}

function build(weights: SafetyWeights, config: SafetyPolicyConfig, seed: number): SafetyPolicyNet {
  const hidden = weights.config.headHidden;
  return {
    config,
    net: new TfSafety(weights),
    value: valueHead(hidden[hidden.length - 1]!, config.valueHidden, seed),
  };
}

/** A new run's policy: the network of `model` (default the shipped one), a fresh value head. */
export function loadSafetyPolicy(
  model: string | undefined,
  valueHidden: number[],
  seed: number,
  columns: number,
): SafetyPolicyNet {
  const from = safetyModel(model) as string;
  const { weights, meta } = loadSafety(from);
  if (weights.config.objective !== "choice")
    throw new UsageError(
      `--model ${from}: PPO needs a network trained with --safety-objective choice (its scores compared among the moves of a position)`,
    );
  if (weights.config.attentionHeads)
    throw new UsageError(`--model ${from}: networks with attention are not supported by PPO`);
  if (weights.config.columns !== columns)
    throw new UsageError(
      `--model ${from} was trained for ${weights.config.columns} columns; these rules have ${columns}`,
    );
  return build(weights, { net: weights.config, valueHidden, from: model ?? "default", meta }, seed);
}

/** A resumed run's policy, shaped by its recorded config (the checkpoint then fills the weights). */
export function rebuildSafetyPolicy(config: SafetyPolicyConfig, seed: number): SafetyPolicyNet {
  return build(initWeights(config.net, seed), config, seed);
}

/** Every trained variable, in the checkpoint's order: the network's, then the value head's. */
export function safetyPolicyVariables(p: SafetyPolicyNet): tf.Variable[] {
  return [...p.net.vars(), ...p.value];
}

/** Writes the network as the safety agent loads it (model.json + weights.bin), at the greedy operating point. */
export function saveSafetyPolicy(
  dir: string,
  p: SafetyPolicyNet,
  steps: Record<string, number>,
): void {
  saveSafety(dir, p.net.read(), {
    ...p.config.meta,
    play: greedyPlay(p.config.meta),
    ppo: { startedFrom: p.config.from, ...steps },
  });
}

/** Plays one game per seed as `penguin eval --agent safety` plays the saved network. */
export function playSafetyPolicy(
  p: SafetyPolicyNet,
  rules: Rules,
  seeds: readonly number[],
  maxSteps: number,
): SeedsPlayed {
  const agent = new SafetyAgent(p.net.read(), rules, "ppo", greedyPlay(p.config.meta));
  return playSeeds(agent, rules, seeds, maxSteps);
}

/** Growable packed rollout: positions, and per candidate its position, move and after-state. */
class Rollout implements PackedMoves {
  before: Uint8Array;
  decision: Int32Array;
  move: Int32Array;
  after: Uint8Array;
  /** Position p's candidates are first[p] … first[p + 1] − 1. */
  readonly first: Int32Array;
  count = 0;

  constructor(readonly positions: number) {
    this.before = new Uint8Array(positions * PACK_STRIDE);
    this.first = new Int32Array(positions + 1);
    const cap = positions * 16;
    this.decision = new Int32Array(cap);
    this.move = new Int32Array(cap);
    this.after = new Uint8Array(cap * PACK_STRIDE);
  }

  /** Room for n more candidates. */
  room(n: number): void {
    if (this.count + n <= this.move.length) return;
    const cap = Math.max(2 * this.move.length, this.count + n);
    const grow = <T extends Int32Array | Uint8Array>(a: T, k: number): T => {
      const b = new (a.constructor as { new (n: number): T })(cap * k);
      b.set(a);
      return b;
    };
    this.decision = grow(this.decision, 1);
    this.move = grow(this.move, 1);
    this.after = grow(this.after, PACK_STRIDE);
  }
}

/** Encoded inputs of some positions' candidates, as the network's tensors take them. */
class Inputs {
  cols = new Float32Array(0);
  flips = new Float32Array(0);
  globals = new Float32Array(0);

  constructor(
    readonly columns: number,
    readonly globalWidth: number,
  ) {}

  /** Encodes candidates k0 … k1 − 1 into rows 0 …; returns the tensors. */
  fill(
    enc: BatchEncoder,
    ks: ArrayLike<number>,
    n: number,
  ): [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D] {
    const C = this.columns * COLUMN_WIDTH;
    const G = this.globalWidth;
    if (this.flips.length < n * FLIPPER_WIDTH) {
      this.cols = new Float32Array(n * C);
      this.flips = new Float32Array(n * FLIPPER_WIDTH);
      this.globals = new Float32Array(n * G);
    }
    for (let r = 0; r < n; r++) enc.encode(ks[r]!, r, this.cols, this.flips, this.globals);
    return [
      tf.tensor2d(this.cols.subarray(0, n * C), [n * this.columns, COLUMN_WIDTH]),
      tf.tensor2d(this.flips.subarray(0, n * FLIPPER_WIDTH), [n, FLIPPER_WIDTH]),
      tf.tensor2d(this.globals.subarray(0, n * G), [n, G]),
    ];
  }
}

/** x itself, through which no gradient passes (tfjs has no stopGradient). */
const detach = tf.customGrad(((x: tf.Tensor) => ({
  value: tf.clone(x),
  gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy),
})) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as <T extends tf.Tensor>(
  x: T,
) => T;

/** One sub-environment: its training game and the view its policy reads. */
interface Game extends TrainingGame {
  view: SafetyView;
}

/** Runs PPO on the safety policy until totalSteps env steps; true when stopped early. */
export async function trainSafetyPolicy(ctx: TrainContext, totalSteps: number): Promise<boolean> {
  const o = ctx.o;
  const pol = ctx.safety!;
  const rules = ctx.rules;
  const codec = ctx.codec;
  const rng = ctx.rng;
  const N = o.envs;
  const T = o.rolloutSteps;
  const POS = N * T;
  const MB = POS / o.minibatches;
  const tau = o.policyTemperature;
  const updates = Math.max(1, Math.floor(totalSteps / POS));
  const policyVars = pol.net.vars().length;
  const scales = (warm: boolean): number[] =>
    safetyPolicyVariables(pol).map((_, i) => (i < policyVars ? (warm ? 0 : 1) : o.vfLrScale));
  let scorer = new SafetyScorer(pol.net.read(), codec.columns);

  const p = (ctx.st.ppo ??= { update: 0, envSteps: 0, envs: [], seen: [] });
  const games: Game[] = [];
  const fresh = (seed: number, moves: number[]): Game => ({
    ...replayGame(rules, seed, moves),
    view: new SafetyView(codec, scorer),
  });
  if (p.games) for (const saved of p.games) games.push(fresh(saved.seed, saved.moves));
  else {
    p.nextSeed = o.trainDealStart;
    for (let i = 0; i < N; i++) games.push(fresh(p.nextSeed++, []));
  }
  const scratchMask = new Uint8Array(codec.n);

  // Rollout positions 0 … POS − 1 (time-major, t·N + i), then each game's position after the last step (bootstrap only).
  const roll = new Rollout(POS + N);
  const chosen = new Int32Array(POS);
  const reward = new Float32Array(POS);
  const done = new Uint8Array(POS);
  const oldLogp = new Float32Array(POS);
  const top = new Float32Array(POS + N);
  const value = new Float32Array(POS + N);
  const adv = new Float32Array(POS);
  const ret = new Float32Array(POS);
  const scratch = new Map<number, State>();
  const logits = new Float64Array(512);

  /** Packs game g's position as rollout position `at` and its guarded candidates; fills logits when scored. */
  const record = (g: Game, at: number, score: Float64Array | undefined, row: number): number => {
    const v = g.view.view;
    packState(g.s, roll.before, at * PACK_STRIDE);
    roll.first[at] = roll.count;
    let x = scratch.get(g.s.base);
    if (!x) scratch.set(g.s.base, (x = g.s.clone()));
    x.copyFrom(g.s);
    let r = row;
    let c = 0;
    for (let a = 0; a < codec.n; a++) {
      if (v.mask[a] !== 1) continue;
      if (v.guarded[a] === 1) {
        roll.room(1);
        const k = roll.count++;
        const m = v.actionMoves[a]!;
        roll.decision[k] = at;
        roll.move[k] = m;
        applyMove(x, m);
        packState(x, roll.after, k * PACK_STRIDE);
        undoMove(x, m);
        if (score) logits[c] = score[r]! / tau;
        c++;
      }
      r++;
    }
    roll.first[at + 1] = roll.count;
    return c;
  };

  let episodes = 0;
  let wins = 0;
  const rollout = (): void => {
    roll.count = 0;
    for (let t = 0; t < T; t++) {
      let row = 0;
      const rows: number[] = [];
      for (const g of games) {
        rows.push(row);
        g.view.encode(g.s, g.seen, row);
        row += g.view.view.legal;
      }
      const score = scorer.score(row);
      for (let i = 0; i < N; i++) {
        const g = games[i]!;
        const at = t * N + i;
        const c = record(g, at, score, rows[i]!);
        const { pick } = sampleSoftmax(logits, c, rng);
        chosen[at] = pick;
        const move = roll.move[roll.first[at]! + pick]!;
        const { won, end, reward: rw } = playTrainingMove(g, move, o, codec, scratchMask);
        reward[at] = rw;
        done[at] = end ? 1 : 0;
        if (end) {
          episodes++;
          if (won) wins++;
          games[i] = fresh(p.nextSeed!++, []);
        }
      }
    }
    for (let i = 0; i < N; i++) {
      const g = games[i]!;
      g.view.view.look(g.s, g.seen);
      record(g, POS + i, undefined, 0);
    }
  };

  const enc = (): BatchEncoder => new BatchEncoder(rules, roll, pol.config.net);
  const inputs = new Inputs(codec.columns, pol.config.net.globalWidth);

  /**
   * Rows of positions ps[from … from + n): their candidates' indices, the one-hot of which
   * position each row belongs to (n × R), and per row and per position the shift (the position's
   * largest logit when it was scored before the update), which keeps exp in range at any τ.
   */
  const gather = (
    ps: ArrayLike<number>,
    from: number,
    n: number,
  ): {
    ks: Int32Array;
    R: number;
    own: Float32Array;
    shift: Float32Array;
    shiftPos: Float32Array;
  } => {
    let R = 0;
    for (let j = 0; j < n; j++) {
      const q = ps[from + j]!;
      R += roll.first[q + 1]! - roll.first[q]!;
    }
    const ks = new Int32Array(R);
    const own = new Float32Array(n * R);
    const shift = new Float32Array(R);
    const shiftPos = new Float32Array(n);
    let r = 0;
    for (let j = 0; j < n; j++) {
      const q = ps[from + j]!;
      const c = roll.first[q + 1]! - roll.first[q]!;
      for (let k = 0; k < c; k++) {
        ks[r + k] = roll.first[q]! + k;
        shift[r + k] = top[q]!;
      }
      shiftPos[j] = top[q]!;
      own.fill(1, j * R + r, j * R + r + c);
      r += c;
    }
    return { ks, R, own, shift, shiftPos };
  };

  /**
   * From the network's logits z and last hidden layer on R rows of n positions: the policy's
   * logits s, each position's log-normaliser, the probabilities, and the value (the value head on
   * the hidden layer, averaged under the probabilities; neither passes the value's gradient on).
   */
  const heads = (
    z: tf.Tensor1D,
    hidden: tf.Tensor2D,
    R: number,
    n: number,
    ownT: tf.Tensor2D,
    shiftT: tf.Tensor1D,
    shiftPosT: tf.Tensor1D,
  ): { s: tf.Tensor1D; lse: tf.Tensor1D; pr: tf.Tensor1D; v: tf.Tensor1D } => {
    const s = tf.div(squashT(z), tau) as tf.Tensor1D;
    const e = tf.reshape(tf.exp(tf.sub(s, shiftT)), [R, 1]);
    const lse = tf.add(tf.log(tf.reshape(tf.matMul(ownT, e), [n])), shiftPosT) as tf.Tensor1D;
    const pr = tf.exp(
      tf.sub(s, tf.reshape(tf.matMul(ownT, tf.reshape(lse, [n, 1]), true), [R])),
    ) as tf.Tensor1D;
    const vRow = mlpT(detach(hidden), pol.value);
    const v = tf.reshape(tf.matMul(ownT, tf.reshape(tf.mul(detach(pr), vRow), [R, 1])), [
      n,
    ]) as tf.Tensor1D;
    return { s, lse, pr, v };
  };

  /** The old log-probabilities of the moves played and the values, from one pass over the rollout. */
  const score = (): void => {
    const e = enc();
    top.fill(0);
    const all = Int32Array.from({ length: POS + N }, (_, i) => i);
    for (let from = 0; from < POS + N; from += MB) {
      const n = Math.min(MB, POS + N - from);
      const { ks, R, own, shift, shiftPos } = gather(all, from, n);
      const [s, lse, v] = tf.tidy(() => {
        const xs = inputs.fill(e, ks, R);
        const [z, hidden] = pol.net.forwardHidden(xs[0], xs[1], xs[2], R);
        // The shift: each position's largest logit, read once the scores are known.
        const sc = (tf.div(squashT(z), tau) as tf.Tensor1D).dataSync();
        let r = 0;
        for (let j = 0; j < n; j++) {
          const q = from + j;
          const c = roll.first[q + 1]! - roll.first[q]!;
          let hi = -Infinity;
          for (let k = 0; k < c; k++) hi = Math.max(hi, sc[r + k]!);
          top[q] = shiftPos[j] = hi;
          for (let k = 0; k < c; k++) shift[r + k] = hi;
          r += c;
        }
        const ownT = tf.tensor2d(own, [n, R]);
        const h = heads(z, hidden, R, n, ownT, tf.tensor1d(shift), tf.tensor1d(shiftPos));
        return [h.s.dataSync(), h.lse.dataSync(), h.v.dataSync()] as const;
      });
      for (let j = 0; j < n; j++) {
        const q = from + j;
        value[q] = v[j]!;
        if (q < POS) {
          const k = roll.first[q]! - roll.first[from]! + chosen[q]!;
          oldLogp[q] = s[k]! - lse[j]!;
        }
      }
    }
  };

  if (p.update === 0 && ctx.st.rows.length === 0 && o.evalDuring > 0) {
    // The curve's first point: the network it starts from.
    const e = await ctx.evaluateDuring();
    ctx.st.rows.push({
      phase: "ppo",
      update: 0,
      env_steps: 0,
      samples: 0,
      eval_win_rate: e.winRate,
      eval_cards_home: e.cards,
      wall_s: ctx.wall(),
      cpu_s: ctx.cpu(),
    });
    ctx.run.rows = ctx.st.rows.slice();
    ctx.run.writeMetrics();
    ctx.run.log(
      `ppo start: eval win ${(e.winRate * 100).toFixed(1)}% (the network it starts from)`,
    );
  }

  const perm = new Int32Array(POS);
  while (p.update < updates) {
    const tRoll = performance.now();
    episodes = wins = 0;
    rollout();
    const rollSecs = (performance.now() - tRoll) / 1000;
    const tUpd = performance.now();
    score();
    computeGae(
      reward,
      value,
      done,
      value.subarray(POS, POS + N),
      N,
      T,
      o.gamma,
      o.gaeLambda,
      adv,
      ret,
    );
    const warm = p.update < o.valueWarmup;
    const lr = scheduledLr(o.ppoLr, p.update / updates, o.lrSchedule);
    const lrScale = scales(warm);
    const e = enc();
    const sums = new Float64Array(6);
    for (let i = 0; i < POS; i++) perm[i] = i;
    for (let epoch = 0; epoch < o.ppoEpochs; epoch++) {
      rng.shuffle(perm);
      for (let m = 0; m < o.minibatches; m++) {
        const m0 = m * MB;
        const { ks, R, own, shift, shiftPos } = gather(perm, m0, MB);
        const picked = new Float32Array(R);
        const olp = new Float32Array(MB);
        const ad = new Float32Array(MB);
        const rt = new Float32Array(MB);
        const { mean, sd } = advantageScale(adv, perm, m0, MB);
        let r = 0;
        for (let j = 0; j < MB; j++) {
          const at = perm[m0 + j]!;
          picked[r + chosen[at]!] = 1;
          r += roll.first[at + 1]! - roll.first[at]!;
          olp[j] = oldLogp[at]!;
          ad[j] = (adv[at]! - mean) / sd;
          rt[j] = ret[at]!;
        }
        const out = tf.tidy(() => {
          const xs = inputs.fill(e, ks, R);
          const ownT = tf.tensor2d(own, [MB, R]);
          const shiftT = tf.tensor1d(shift);
          const shiftPosT = tf.tensor1d(shiftPos);
          const pickedT = tf.tensor2d(picked, [R, 1]);
          const olpT = tf.tensor1d(olp);
          const adT = tf.tensor1d(ad);
          const rtT = tf.tensor1d(rt);
          return ctx.opt.minimize(
            () => {
              const [z, hidden] = pol.net.forwardHidden(xs[0], xs[1], xs[2], R);
              const h = heads(z, hidden, R, MB, ownT, shiftT, shiftPosT);
              const sCol = tf.reshape(h.s, [R, 1]);
              const logp = tf.sub(tf.reshape(tf.matMul(ownT, tf.mul(sCol, pickedT)), [MB]), h.lse);
              const ent = tf.mean(
                tf.sub(
                  h.lse,
                  tf.reshape(tf.matMul(ownT, tf.mul(tf.reshape(h.pr, [R, 1]), sCol)), [MB]),
                ),
              ) as tf.Scalar;
              return ppoLoss(tf.sub(logp, olpT) as tf.Tensor1D, adT, h.v, rtT, ent, o);
            },
            lr,
            lrScale,
          );
        });
        out.forEach((v, i) => (sums[i] = sums[i]! + v));
      }
    }
    scorer = new SafetyScorer(pol.net.read(), codec.columns);
    for (const g of games) g.view = new SafetyView(codec, scorer);
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
        lr: warm ? 0 : lr,
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
