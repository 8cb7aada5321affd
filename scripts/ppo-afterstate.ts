/**
 * A PPO baseline whose policy fits the game: every legal move is scored from its own feature row
 * (the action-scorer's 41 numbers: greedy's feature terms of the move, its kind, and facts of the
 * position after it; src/train/scorer/features.ts), by one small network shared by all moves, and
 * the policy is the softmax over the legal moves the never-repeat guard allows. The order of the
 * action ids no longer matters, unlike the observation MLP of `penguin train ppo`. The value head
 * reads the mean and the maximum of those rows. From scratch: no weights from greedy or ES.
 *
 *   npx tsx scripts/ppo-afterstate.ts --out /work/runs/learn/ppo --max-minutes 30
 *
 * Reward: 1 for a won game; plus potential-based shaping γΦ(s') − Φ(s) with Φ = shaping × cards
 * home / 52 and Φ = 0 at the end of a game, so the shaping cannot change which policy is best. A
 * game in training ends when won, when no move is legal, or after --max-episode moves. Training
 * deals are seeds from 1,000,000 up; the learning curve's games are validation seeds (700,000 up),
 * played by argmax with every player's guard and tie-break through the evaluation's game loop.
 * Writes DIR/metrics.csv (one row per update) and DIR/weights.json (the network and its input
 * scaling) at every evaluation.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpuUsage } from "node:process";
import { parseArgs } from "node:util";
import { PositionSet } from "../src/engine/position-set.js";
import { deal } from "../src/engine/deal.js";
import { applyMove } from "../src/engine/moves.js";
import { resolveRules } from "../src/engine/rules.js";
import type { State } from "../src/engine/state.js";
import { ActionCodec } from "../src/env/actions.js";
import { EpisodeRunner } from "../src/eval/game-loop.js";
import { initBackend, tf } from "../src/train/backend.js";
import { writeAtomic } from "../src/util/files.js";
import { Rng } from "../src/util/rng.js";
import { ScorerAgent } from "../src/players/scorer/agent.js";
import { ScorerView } from "../src/players/scorer/view.js";
import { ROW } from "../src/players/scorer/features.js";
import { wilson } from "../src/util/wilson.js";

const { values: a } = parseArgs({
  options: {
    out: { type: "string" },
    "max-minutes": { type: "string", default: "30" },
    "total-steps": { type: "string", default: "100000000" },
    envs: { type: "string", default: "16" },
    rollout: { type: "string", default: "256" },
    epochs: { type: "string", default: "4" },
    minibatch: { type: "string", default: "512" },
    lr: { type: "string", default: "3e-4" },
    gamma: { type: "string", default: "0.995" },
    lambda: { type: "string", default: "0.95" },
    clip: { type: "string", default: "0.2" },
    ent: { type: "string", default: "0.01" },
    shaping: { type: "string", default: "1" },
    hidden: { type: "string", default: "64" },
    "max-episode": { type: "string", default: "400" },
    "eval-every": { type: "string", default: "10" },
    "eval-deals": { type: "string", default: "200" },
    "eval-seed": { type: "string", default: "700000" },
    "train-seed": { type: "string", default: "5000000" },
    seed: { type: "string", default: "1" },
    // Evaluation only: load DIR/weights.json and write a penguin-eval CSV of these deals (for penguin compare).
    load: { type: "string" },
    "csv-deals": { type: "string", default: "1000" },
    "csv-seed": { type: "string", default: "600000" },
    csv: { type: "string" },
  },
});
if (!a.out) {
  console.error("ppo-afterstate: give --out DIR");
  process.exit(2);
}
const num = (k: keyof typeof a): number => Number(a[k]);
const OUT = a.out;
const N = num("envs");
const T = num("rollout");
const H = num("hidden");
const GAMMA = num("gamma");
const LAMBDA = num("lambda");
const SHAPING = num("shaping");
const MAX_EP = num("max-episode");
const F = ROW;
const VIN = 2 * F;
mkdirSync(OUT, { recursive: true });

const backend = await initBackend();
const rules = resolveRules("penguin");
const codec = new ActionCodec(rules);
const A = codec.n;
const rng = new Rng(`ppo-afterstate:${a.seed}`);

// ---- the network: policy MLP F → H → H → 1 per move row, value MLP 2F → H → H → 1 (tanh) ----
const glorot = (fanIn: number, fanOut: number, gain = 1): tf.Variable => {
  const lim = gain * Math.sqrt(6 / (fanIn + fanOut));
  const w = new Float32Array(fanIn * fanOut);
  for (let i = 0; i < w.length; i++) w[i] = (rng.next() * 2 - 1) * lim;
  return tf.variable(tf.tensor2d(w, [fanIn, fanOut]));
};
const zeros = (n: number): tf.Variable => tf.variable(tf.zeros([n]));
const P = [glorot(F, H), zeros(H), glorot(H, H), zeros(H), glorot(H, 1, 0.1), zeros(1)];
const V = [glorot(VIN, H), zeros(H), glorot(H, H), zeros(H), glorot(H, 1), zeros(1)];
const mlp = (x: tf.Tensor2D, w: tf.Variable[]): tf.Tensor1D => {
  const h1 = tf.tanh(tf.add(tf.matMul(x, w[0] as tf.Tensor2D), w[1]!));
  const h2 = tf.tanh(tf.add(tf.matMul(h1, w[2] as tf.Tensor2D), w[3]!));
  return tf.reshape(tf.add(tf.matMul(h2, w[4] as tf.Tensor2D), w[5]!), [-1]) as tf.Tensor1D;
};
/** Scores squashed to ±20 as the safety network's are, so exp cannot overflow. */
const squashT = (z: tf.Tensor1D): tf.Tensor1D => tf.mul(tf.tanh(tf.div(z, 20)), 20);
const squash = (z: number): number => 20 * Math.tanh(z / 20);

/** The same networks in plain numbers for the rollouts and the games (copied after each update). */
class JsMlp {
  w: Float32Array[] = [];
  constructor(
    readonly vars: tf.Variable[],
    readonly inW: number,
  ) {
    this.sync();
  }
  sync(): void {
    this.w = this.vars.map((v) => v.dataSync() as Float32Array);
  }
  readonly #h1 = new Float64Array(H);
  readonly #h2 = new Float64Array(H);
  run(x: ArrayLike<number>, off: number): number {
    const [w1, b1, w2, b2, w3, b3] = this.w as [
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
    ];
    const h1 = this.#h1;
    const h2 = this.#h2;
    for (let j = 0; j < H; j++) h1[j] = b1[j]!;
    for (let i = 0; i < this.inW; i++) {
      const xi = x[off + i]!;
      if (xi === 0) continue;
      const r = i * H;
      for (let j = 0; j < H; j++) h1[j]! += xi * w1[r + j]!;
    }
    for (let j = 0; j < H; j++) h1[j] = Math.tanh(h1[j]!);
    for (let j = 0; j < H; j++) h2[j] = b2[j]!;
    for (let i = 0; i < H; i++) {
      const xi = h1[i]!;
      const r = i * H;
      for (let j = 0; j < H; j++) h2[j]! += xi * w2[r + j]!;
    }
    let z = b3[0]!;
    for (let j = 0; j < H; j++) z += Math.tanh(h2[j]!) * w3[j]!;
    return z;
  }
}
const jsP = new JsMlp(P, F);
const jsV = new JsMlp(V, VIN);

// ---- input scaling: mean and spread of the rows, measured once on the untrained policy's games ----
const mean = new Float64Array(F);
const scale = new Float64Array(F).fill(1);

// ---- the environments ----
interface Env {
  s: State;
  seen: PositionSet;
  moves: number;
  view: ScorerView;
}
let nextSeed = num("train-seed");
const envs: Env[] = [];
const reset = (e: Env): void => {
  e.s = deal(rules, nextSeed++);
  e.seen.clear();
  e.seen.add(e.s.hashLo, e.s.hashHi);
  e.moves = 0;
};
for (let i = 0; i < N; i++) {
  const e = { s: deal(rules, 0), seen: new PositionSet(), moves: 0, view: new ScorerView(codec) };
  reset(e);
  envs.push(e);
}
const phi = (s: State): number => (SHAPING * s.cardsHome()) / 52;
const scratchMask = new Uint8Array(A);

// ---- rollout buffers: positions × (their allowed moves' rows) ----
const POS = N * T;
let rowCap = POS * 24;
let rows = new Float32Array(rowCap * F);
const rowStart = new Int32Array(POS + 1);
const vin = new Float32Array(POS * VIN);
const chosen = new Int32Array(POS);
const oldLogp = new Float32Array(POS);
const value = new Float32Array(POS);
const reward = new Float32Array(POS);
const done = new Uint8Array(POS);
const adv = new Float32Array(POS);
const ret = new Float32Array(POS);
const logits = new Float64Array(512);
const lastVin = new Float32Array(N * VIN);
/** The action ids of the allowed moves observe() just wrote, in engine move order. */
const order = new Int32Array(512);

/** Writes the allowed moves' scaled rows of env e at row r; fills the value input; returns the count. */
const observe = (e: Env, r: number, vinOut: Float32Array, vOff: number): number => {
  const v = e.view;
  v.look(e.s, e.seen);
  let c = 0;
  for (let k = 0; k < v.legal; k++) {
    const act = v.order[k]!;
    if (v.guarded[act] !== 1) continue;
    if ((r + c + 1) * F > rows.length) {
      const bigger = new Float32Array(rows.length * 2);
      bigger.set(rows);
      rows = bigger;
      rowCap *= 2;
    }
    const src = act * F;
    const dst = (r + c) * F;
    for (let i = 0; i < F; i++) rows[dst + i] = (v.rows[src + i]! - mean[i]!) / scale[i]!;
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
    vinOut[vOff + i] = sum / c;
    vinOut[vOff + F + i] = mx;
  }
  return c;
};
let episodes = 0;
let wins = 0;
let epLenSum = 0;
let envSteps = 0;

const rollout = (): void => {
  let r = 0;
  for (let t = 0; t < T; t++)
    for (let i = 0; i < N; i++) {
      const p = t * N + i;
      const e = envs[i]!;
      rowStart[p] = r;
      const c = observe(e, r, vin, p * VIN);
      let top = -Infinity;
      for (let j = 0; j < c; j++) {
        logits[j] = squash(jsP.run(rows, (r + j) * F));
        if (logits[j]! > top) top = logits[j]!;
      }
      let sum = 0;
      for (let j = 0; j < c; j++) sum += Math.exp(logits[j]! - top);
      let u = rng.next() * sum;
      let pick = c - 1;
      for (let j = 0; j < c; j++) {
        u -= Math.exp(logits[j]! - top);
        if (u <= 0) {
          pick = j;
          break;
        }
      }
      chosen[p] = pick;
      oldLogp[p] = logits[pick]! - top - Math.log(sum);
      value[p] = jsV.run(vin, p * VIN);
      const before = phi(e.s);
      applyMove(e.s, e.view.actionMoves[order[pick]!]!);
      e.seen.add(e.s.hashLo, e.s.hashHi);
      e.moves++;
      envSteps++;
      const won = e.s.isWon();
      const end = won || e.moves >= MAX_EP || codec.fillMask(e.s, scratchMask) === 0;
      reward[p] = (won ? 1 : 0) + (end ? 0 : GAMMA * phi(e.s)) - before;
      done[p] = end ? 1 : 0;
      if (end) {
        episodes++;
        if (won) wins++;
        epLenSum += e.moves;
        reset(e);
      }
      r += c;
    }
  rowStart[POS] = r;
  // Bootstrap values of the positions the rollout stopped in.
  for (let i = 0; i < N; i++) {
    const e = envs[i]!;
    // observe writes rows past the buffer's used part; they are not trained on.
    observe(e, r, lastVin, i * VIN);
  }
  // GAE(λ), per environment.
  for (let i = 0; i < N; i++) {
    let next = jsV.run(lastVin, i * VIN);
    let gae = 0;
    for (let t = T - 1; t >= 0; t--) {
      const p = t * N + i;
      const nonTerminal = done[p] === 1 ? 0 : 1;
      const delta = reward[p]! + GAMMA * next * nonTerminal - value[p]!;
      gae = delta + GAMMA * LAMBDA * nonTerminal * gae;
      adv[p] = gae;
      ret[p] = gae + value[p]!;
      next = value[p]!;
    }
  }
};

// ---- the update ----
const opt = tf.train.adam(num("lr"), 0.9, 0.999, 1e-5);
const MB = num("minibatch");
const CLIP = num("clip");
const ENT = num("ent");
const perm = new Int32Array(POS);
for (let i = 0; i < POS; i++) perm[i] = i;
let lastLosses = { pg: 0, v: 0, ent: 0 };

const update = (lrNow: number): void => {
  (opt as unknown as { learningRate: number }).learningRate = lrNow;
  let pgS = 0,
    vS = 0,
    eS = 0,
    nS = 0;
  for (let ep = 0; ep < num("epochs"); ep++) {
    rng.shuffle(perm);
    for (let m0 = 0; m0 + MB <= POS; m0 += MB) {
      let R = 0;
      for (let j = 0; j < MB; j++) {
        const p = perm[m0 + j]!;
        R += rowStart[p + 1]! - rowStart[p]!;
      }
      const x = new Float32Array(R * F);
      const seg = new Int32Array(R);
      const pickRow = new Int32Array(MB);
      const vx = new Float32Array(MB * VIN);
      const olp = new Float32Array(MB);
      const ad = new Float32Array(MB);
      const rt = new Float32Array(MB);
      let r = 0;
      let am = 0,
        as = 0;
      for (let j = 0; j < MB; j++) am += adv[perm[m0 + j]!]! / MB;
      for (let j = 0; j < MB; j++) as += (adv[perm[m0 + j]!]! - am) ** 2 / MB;
      const sd = Math.sqrt(as) + 1e-8;
      for (let j = 0; j < MB; j++) {
        const p = perm[m0 + j]!;
        const c = rowStart[p + 1]! - rowStart[p]!;
        x.set(rows.subarray(rowStart[p]! * F, rowStart[p + 1]! * F), r * F);
        seg.fill(j, r, r + c);
        pickRow[j] = r + chosen[p]!;
        r += c;
        vx.set(vin.subarray(p * VIN, (p + 1) * VIN), j * VIN);
        olp[j] = oldLogp[p]!;
        ad[j] = (adv[p]! - am) / sd;
        rt[j] = ret[p]!;
      }
      const parts = { pg: 0, v: 0, ent: 0 };
      opt.minimize(() => {
        const s = squashT(mlp(tf.tensor2d(x, [R, F]), P));
        const segT = tf.tensor1d(seg, "int32");
        const top = tf.max(s);
        const e = tf.exp(tf.sub(s, top));
        const sums = tf.unsortedSegmentSum(e, segT, MB);
        const lse = tf.add(tf.log(sums), top) as tf.Tensor1D;
        const logp = tf.sub(tf.gather(s, tf.tensor1d(pickRow, "int32")), lse);
        const ratio = tf.exp(tf.sub(logp, tf.tensor1d(olp)));
        const adT = tf.tensor1d(ad);
        const pg = tf.neg(
          tf.mean(
            tf.minimum(tf.mul(ratio, adT), tf.mul(tf.clipByValue(ratio, 1 - CLIP, 1 + CLIP), adT)),
          ),
        );
        const pr = tf.exp(tf.sub(s, tf.gather(lse, segT)));
        const ent = tf.mean(tf.sub(lse, tf.unsortedSegmentSum(tf.mul(pr, s), segT, MB)));
        const v = mlp(tf.tensor2d(vx, [MB, VIN]), V);
        const vl = tf.mul(0.5, tf.mean(tf.square(tf.sub(v, tf.tensor1d(rt)))));
        parts.pg = pg.dataSync()[0]!;
        parts.v = vl.dataSync()[0]!;
        parts.ent = ent.dataSync()[0]!;
        return tf.add(tf.sub(pg, tf.mul(ENT, ent)), tf.mul(0.5, vl)) as tf.Scalar;
      });
      pgS += parts.pg;
      vS += parts.v;
      eS += parts.ent;
      nS++;
    }
  }
  jsP.sync();
  jsV.sync();
  lastLosses = { pg: pgS / nS, v: vS / nS, ent: eS / nS };
};

// ---- validation games: argmax with the shared guard and tie-break, the evaluation's game loop ----
const scaledRow = new Float32Array(F);
const agent = new ScorerAgent(
  {
    logit(rowsIn: Float32Array, off: number): number {
      for (let i = 0; i < F; i++) scaledRow[i] = (rowsIn[off + i]! - mean[i]!) / scale[i]!;
      return jsP.run(scaledRow, 0);
    },
  },
  codec,
  "ppo-afterstate",
);
const runner = new EpisodeRunner(rules, agent);
const evaluate = (): number => {
  let w = 0;
  const from = num("eval-seed");
  for (let k = 0; k < num("eval-deals"); k++)
    if (runner.play(deal(rules, from + k), from + k).won) w++;
  return w;
};

if (a.load) {
  // Evaluation only: the saved network and scaling, argmax with the shared guard, one CSV row per deal.
  const saved = JSON.parse(readFileSync(join(a.load, "weights.json"), "utf8")) as {
    mean: number[];
    scale: number[];
    policy: number[][];
  };
  mean.set(saved.mean);
  scale.set(saved.scale);
  jsP.w = saved.policy.map((w) => Float32Array.from(w));
  const from = num("csv-seed");
  const out = ["deal,rules,agent,won,cards_home,moves,ms"];
  let w = 0;
  for (let k = 0; k < num("csv-deals"); k++) {
    const g = runner.play(deal(rules, from + k), from + k);
    if (g.won) w++;
    out.push(`${from + k},penguin,ppo-afterstate(${a.load}),${g.won},${g.cardsHome},${g.moves},0`);
  }
  writeAtomic(a.csv ?? join(OUT, `eval-${from}.csv`), `${out.join("\n")}\n`);
  const ci = wilson(w, num("csv-deals"));
  console.log(
    `${w}/${num("csv-deals")} won, ${((100 * w) / num("csv-deals")).toFixed(1)} % [${(100 * ci.low).toFixed(1)}–${(100 * ci.high).toFixed(1)}]`,
  );
  process.exit(0);
}

// ---- the run ----
const t0 = performance.now();
const cpu0 = cpuUsage();
const cpuS = (): number => {
  const c = cpuUsage(cpu0);
  return (c.user + c.system) / 1e6;
};
const deadline = t0 + num("max-minutes") * 60_000;
const totalSteps = num("total-steps");
const header =
  "update,env_steps,wall_s,cpu_s,episodes,train_win_rate,mean_episode_moves,pg_loss,value_loss,entropy,val_wins,val_deals,val_rate,val_low,val_high";
const lines: string[] = [header];
const save = (): void => {
  writeAtomic(join(OUT, "metrics.csv"), `${lines.join("\n")}\n`);
  writeAtomic(
    join(OUT, "weights.json"),
    JSON.stringify({
      format: "ppo-afterstate",
      features: "scorer-row",
      hidden: H,
      mean: [...mean],
      scale: [...scale],
      policy: jsP.w.map((w) => [...w]),
      value: jsV.w.map((w) => [...w]),
    }),
  );
};
const evalDeals = num("eval-deals");
const row = (u: number, evalWins: number | undefined): void => {
  const ci = evalWins === undefined ? undefined : wilson(evalWins, evalDeals);
  lines.push(
    [
      u,
      envSteps,
      ((performance.now() - t0) / 1000).toFixed(1),
      cpuS().toFixed(1),
      episodes,
      episodes ? (wins / episodes).toFixed(4) : "",
      episodes ? (epLenSum / episodes).toFixed(1) : "",
      lastLosses.pg.toFixed(5),
      lastLosses.v.toFixed(5),
      lastLosses.ent.toFixed(4),
      evalWins ?? "",
      evalWins === undefined ? "" : evalDeals,
      evalWins === undefined ? "" : (evalWins / evalDeals).toFixed(4),
      ci ? ci.low.toFixed(4) : "",
      ci ? ci.high.toFixed(4) : "",
    ].join(","),
  );
};
console.log(`ppo-afterstate: backend ${backend}; ${N} envs × ${T} moves per update, rows of ${F}`);
// Input scaling from one rollout of the untrained policy (not trained on).
{
  rollout();
  const n = rowStart[POS]!;
  for (let i = 0; i < F; i++) {
    let s = 0,
      s2 = 0;
    for (let r = 0; r < n; r++) {
      const x = rows[r * F + i]!;
      s += x;
      s2 += x * x;
    }
    mean[i] = s / n;
    scale[i] = Math.max(1e-3, Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2)));
  }
  episodes = wins = epLenSum = envSteps = 0;
  for (const e of envs) reset(e);
}
row(0, evaluate());
console.log(lines.at(-1));
save();
let u = 0;
while (performance.now() < deadline && envSteps < totalSteps) {
  rollout();
  const frac = Math.min(1, (performance.now() - t0) / (deadline - t0));
  update(num("lr") * (1 - 0.9 * frac));
  u++;
  const ev = u % num("eval-every") === 0 ? evaluate() : undefined;
  row(u, ev);
  if (ev !== undefined) {
    console.log(lines.at(-1));
    save();
    episodes = wins = epLenSum = 0;
  }
}
row(u, evaluate());
console.log(lines.at(-1));
save();
