/**
 * Trains the move-safety network on `penguin dataset` labels: weighted binary cross-entropy on
 * "this move loses a winnable deal" (misses of fatal moves weigh `lostWeight` times more than
 * false alarms), Adam, minibatches encoded on the fly from the packed positions. After every
 * epoch the network plays validation deals at a few thresholds; the checkpoint keeps the best
 * (network and operating point).
 */
import { join } from "node:path";
import { rulesLabel, type Rules } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import { ActionCodec } from "../../env/actions.js";
import { EpisodeRunner } from "../../eval/game-loop.js";
import { wilson } from "../../eval/stats.js";
import { deal } from "../../engine/deal.js";
import { Adam } from "../adam.js";
import { initBackend, tf } from "../backend.js";
import { unpackState, PACK_STRIDE, Unpacker } from "./pack.js";
import { Rng } from "../../util/rng.js";
import { stopRequested } from "../stop.js";
import { ActionFeatures, ROW } from "../../players/scorer/features.js";
import { sha256 } from "../../util/files.js";
import { RunFolder } from "../run.js";
import { checkSplit, VALIDATION_DEAL_START } from "../splits.js";
import { SafetyAgent, type PlayPolicy } from "../../players/safety/agent.js";
import { loadDataset, readIndex, type SafetyData } from "./dataset.js";
import { dropProgress, loadProgress, saveProgress } from "./resume.js";
import { SAFETY_DEFAULTS, type SafetyTrainOptions } from "./options.js";

export { SAFETY_DEFAULTS, type SafetyTrainOptions };
import { RESUME_DIR } from "../checkpoint.js";
import { COLUMN_WIDTH, encodeCandidate, FLIPPER_WIDTH } from "../../players/safety/encode.js";
import { choiceLoss, choiceLossJs, decisionStarts, safeSetLoss } from "./choice.js";
import { SuitRenamer, suitOrderFor } from "./suits.js";
import { lookaheadValues } from "./teacher.js";
import {
  cardLayers,
  cardsAt as cardsStart,
  cardWidth,
  defaultConfig,
  denseLayers,
  featuresOf,
  type SafetyFeatures,
  initWeights,
  layerShapes,
  loadSafety,
  saveSafety,
  squash,
  usesStructure,
  type SafetyConfig,
  type SafetyWeights,
} from "../../players/safety/model.js";

/** Encodes sample k of the data (the move and the position after it) into row r of the batch arrays. */
export class BatchEncoder {
  readonly #unpacker: Unpacker;
  readonly #features = new ActionFeatures();
  readonly #one = new Uint8Array([1]);
  readonly #oneMove = new Int32Array(1);
  readonly #row = new Float32Array(ROW);
  readonly #afterU: Unpacker;

  /** Floats per globals row: GLOBAL_WIDTH, plus the groups of the network's feature set. */
  readonly globalWidth: number;
  readonly #inputs: SafetyFeatures;

  constructor(
    readonly rules: Rules,
    readonly data: SafetyData,
    config: SafetyConfig,
  ) {
    this.globalWidth = config.globalWidth;
    this.#inputs = featuresOf(config) ?? "basic";
    this.#unpacker = new Unpacker(rules);
    this.#afterU = new Unpacker(rules);
  }

  encode(
    k: number,
    r: number,
    cols: Float32Array,
    flips: Float32Array,
    globals: Float32Array,
  ): void {
    const d = this.data.decision[k]!;
    const before = this.#unpacker.state(this.data.before[d * PACK_STRIDE]!);
    unpackState(this.data.before, d * PACK_STRIDE, before);
    this.#oneMove[0] = this.data.move[k]!;
    this.#features.fill(before, this.#one, this.#oneMove, 1, this.#row, 0);
    const after = this.#afterU.state(this.data.after[k * PACK_STRIDE]!);
    unpackState(this.data.after, k * PACK_STRIDE, after);
    encodeCandidate(
      after,
      this.#row,
      0,
      cols,
      r * after.nColumns * COLUMN_WIDTH,
      flips,
      r * FLIPPER_WIDTH,
      globals,
      r * this.globalWidth,
      this.#inputs,
    );
  }
}

export class TfSafety {
  readonly W: tf.Variable[];
  readonly b: tf.Variable[];
  constructor(readonly w: SafetyWeights) {
    const shapes = layerShapes(w.config);
    this.W = w.W.map((a, l) => tf.variable(tf.tensor2d(a, shapes[l]!), true, `W${l}`));
    this.b = w.b.map((a, l) => tf.variable(tf.tensor1d(a), true, `b${l}`));
  }
  vars(): tf.Variable[] {
    return [...this.W, ...this.b];
  }
  forward(cols: tf.Tensor2D, flips: tf.Tensor2D, globals: tf.Tensor2D, B: number): tf.Tensor1D {
    const c = this.w.config;
    const nc = c.columnHidden.length;
    let x: tf.Tensor2D = cols;
    for (let l = 0; l < nc; l++)
      x = tf.relu(tf.add(tf.matMul(x, this.W[l]!), this.b[l]!)) as tf.Tensor2D;
    const H = c.columnHidden[nc - 1]!;
    let x3 = tf.reshape(x, [B, c.columns, H]) as tf.Tensor3D;
    if (c.attentionHeads) x3 = this.#attend(x3, flips, B);
    const ch = c.cardHidden ?? [];
    let h: tf.Tensor2D;
    if (ch.length === 0)
      h = tf.concat([tf.mean(x3, 1), tf.max(x3, 1), flips, globals], 1) as tf.Tensor2D;
    else {
      // The card rows sit at the end of the globals: through the card network, pooled like the columns (JsSafety.logit).
      const G = cardsStart(c);
      const cw = cardWidth(c);
      let y = tf.reshape(tf.slice(globals, [0, G], [B, 52 * cw]), [B * 52, cw]) as tf.Tensor2D;
      const first = cardLayers(c);
      for (let l = 0; l < ch.length; l++)
        y = tf.relu(tf.add(tf.matMul(y, this.W[first + l]!), this.b[first + l]!)) as tf.Tensor2D;
      const y3 = tf.reshape(y, [B, 52, ch[ch.length - 1]!]);
      h = tf.concat(
        [
          tf.mean(x3, 1),
          tf.max(x3, 1),
          flips,
          tf.slice(globals, [0, 0], [B, G]),
          tf.mean(y3, 1),
          tf.max(y3, 1),
        ],
        1,
      ) as tf.Tensor2D;
    }
    const L = denseLayers(c);
    for (let l = nc; l < L; l++) {
      h = tf.add(tf.matMul(h, this.W[l]!), this.b[l]!) as tf.Tensor2D;
      if (l < L - 1) h = tf.relu(h);
    }
    return tf.reshape(h, [B]);
  }
  /** The attention block of JsSafety.attend, batched: tokens [B, columns + 1, H] → column tokens [B, columns, H]. */
  #attend(x3: tf.Tensor3D, flips: tf.Tensor2D, B: number): tf.Tensor3D {
    const c = this.w.config;
    const A = denseLayers(c);
    const H = c.columnHidden[c.columnHidden.length - 1]!;
    const heads = c.attentionHeads!;
    const dh = H / heads;
    const T = c.columns + 1;
    const f = tf.reshape(tf.relu(tf.add(tf.matMul(flips, this.W[A]!), this.b[A]!)), [B, 1, H]);
    const tok = tf.concat([x3, f], 1);
    const flat = tf.reshape(tok, [B * T, H]) as tf.Tensor2D;
    const proj = (l: number): tf.Tensor4D =>
      tf.transpose(
        tf.reshape(tf.add(tf.matMul(flat, this.W[l]!), this.b[l]!), [B, T, heads, dh]),
        [0, 2, 1, 3],
      );
    const q = proj(A + 1);
    const k = proj(A + 2);
    const v = proj(A + 3);
    const att = tf.softmax(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)));
    const mix = tf.reshape(tf.transpose(tf.matMul(att, v), [0, 2, 1, 3]), [
      B * T,
      H,
    ]) as tf.Tensor2D;
    const out = tf.add(
      tok,
      tf.reshape(tf.add(tf.matMul(mix, this.W[A + 4]!), this.b[A + 4]!), [B, T, H]),
    );
    return tf.slice(out, [0, 0, 0], [B, c.columns, H]) as tf.Tensor3D;
  }

  read(): SafetyWeights {
    return {
      config: this.w.config,
      W: this.W.map((v) => Float32Array.from(v.dataSync())),
      b: this.b.map((v) => Float32Array.from(v.dataSync())),
    };
  }
  dispose(): void {
    this.vars().forEach((v) => v.dispose());
  }
}

/** Plays `count` validation deals with the network at one operating point; returns wins. */
function playValidation(
  rules: Rules,
  w: SafetyWeights,
  play: PlayPolicy,
  from: number,
  count: number,
): number {
  const agent = new SafetyAgent(w, rules, "val", play);
  const runner = new EpisodeRunner(rules, agent);
  let wins = 0;
  for (let i = 0; i < count; i++) if (runner.play(deal(rules, from + i), from + i).won) wins++;
  return wins;
}

const SAFETY_COLUMNS = [
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

/**
 * `penguin train safety`: a new run in `runFolder` on `options.data`, with the shipped network's
 * recipe (SAFETY_DEFAULTS) where `options` gives none.
 */
export function train(
  options: Partial<SafetyTrainOptions> & Pick<SafetyTrainOptions, "data">,
  runFolder: string,
): Promise<{ best: number; dir: string }> {
  return trainSafety({ ...SAFETY_DEFAULTS, ...options, out: runFolder });
}

/** Continues the safety run in `dir` from its saved state (config.json holds its options). */
export async function resume(dir: string): Promise<{ best: number; dir: string }> {
  const options = new RunFolder(dir, SAFETY_COLUMNS).readJson<{ options?: SafetyTrainOptions }>(
    "config.json",
  )?.options;
  if (!options)
    throw new UsageError(`${join(dir, "config.json")} holds no safety options; start a new run`);
  return trainSafety({ ...options, out: dir }, true);
}

/** Trains into o.out; `resume`: continue the stopped run there instead (same options). */
export async function trainSafety(
  o: SafetyTrainOptions,
  resume = false,
): Promise<{ best: number; dir: string }> {
  // The deal split is checked before the run folder is touched: every dataset's deals in the training split, the validation deals in the validation split.
  const validation = { from: VALIDATION_DEAL_START, count: o.valDeals };
  const splits = o.data.map((dir) => {
    const idx = readIndex(dir);
    return {
      data: dir,
      ...checkSplit({ training: { from: idx.dealStart, count: idx.deals }, validation }),
    };
  });
  const backend = await initBackend();
  const data = loadDataset(o.data);
  const rules = data.index.rules;
  const features = o.cardHidden
    ? o.links
      ? "links"
      : "cards"
    : o.flipperCosts
      ? "flippers"
      : o.structure
        ? "structure"
        : "basic";
  // A network to start from reads the inputs asked for (checked before the run folder is made).
  const init = o.init ? loadSafety(o.init).weights : undefined;
  const from = init && featuresOf(init.config);
  if (from !== undefined && from !== features)
    throw new UsageError(`${o.init} reads the ${from} features; give --safety-features ${from}`);
  const run = new RunFolder(o.out, SAFETY_COLUMNS);
  run.quiet = o.quiet ?? false;
  const log = (line: string): void => run.log(line);
  const codec = new ActionCodec(rules);
  const C = codec.columns;
  // Samples: labelled moves (winnable or lost); deals with seed % 10 = 0 are held out for the loss curves.
  const M = data.label.length;
  const critical = new Uint8Array(data.deal.length);
  for (let k = 0; k < M; k++) if (data.label[k] === 0) critical[data.decision[k]!] = 1;
  const rng = new Rng(`safety-train:${o.seed}`);
  const keepDecision = new Uint8Array(data.deal.length);
  for (let d = 0; d < data.deal.length; d++)
    keepDecision[d] = critical[d] === 1 || rng.next() < o.keepSafe ? 1 : 0;
  const choice = o.objective === "choice";
  // A choice network trains on whole positions (those with a winnable move), the first design on single moves.
  const first = choice ? decisionStarts(data) : new Int32Array(0);
  const winnable = new Int32Array(choice ? data.deal.length : 0);
  // Per position: the softmax target's normaliser and its entropy (the floor of the loss), and the shortest solver line.
  const targetSum = new Float64Array(choice ? data.deal.length : 0);
  const targetEntropy = new Float64Array(choice ? data.deal.length : 0);
  const look =
    choice && o.choiceTarget === "lookahead"
      ? lookaheadValues(
          data,
          first,
          rules,
          (d) => keepDecision[d] === 1 || data.deal[d]! % 10 === 0,
        )
      : undefined;
  const T = o.temperature ?? 2;
  // `ref` is the position's best lookahead value: the best winnable move weighs 1.
  const weightOf = (k: number, ref: number): number => (look ? Math.exp((look[k]! - ref) / T) : 1);
  /** Target share of row k (z: its position's sum of weightOf). */
  const targetOf = (k: number, z: number, best: number): number => weightOf(k, best) / z;
  /** The position's best lookahead value among its winnable moves (0 for the even target). */
  const bestValueOf = (d: number): number => {
    if (!look) return 0;
    let v = -Infinity;
    for (let k = first[d]!; k < first[d + 1]!; k++)
      if (data.label[k] === 1) v = Math.max(v, look[k]!);
    return v;
  };
  let maxMoves = 1;
  const train: number[] = [];
  const val: number[] = [];
  let lostTrain = 0;
  if (choice) {
    for (let d = 0; d < data.deal.length; d++) {
      for (let k = first[d]!; k < first[d + 1]!; k++) if (data.label[k] === 1) winnable[d]!++;
      maxMoves = Math.max(maxMoves, first[d + 1]! - first[d]!);
      if (winnable[d] === 0) continue;
      const sh = bestValueOf(d);
      let z = 0;
      for (let k = first[d]!; k < first[d + 1]!; k++) if (data.label[k] === 1) z += weightOf(k, sh);
      targetSum[d] = z;
      let h = 0;
      for (let k = first[d]!; k < first[d + 1]!; k++)
        if (data.label[k] === 1) {
          const t = targetOf(k, z, sh);
          if (t > 0) h -= t * Math.log(t);
        }
      targetEntropy[d] = h;
      if (data.deal[d]! % 10 === 0) val.push(d);
      else if (keepDecision[d] === 1) {
        train.push(d);
        if (critical[d] === 1) lostTrain++;
      }
    }
  } else
    for (let k = 0; k < M; k++) {
      if (data.label[k] !== 0 && data.label[k] !== 1) continue;
      const d = data.decision[k]!;
      if (data.deal[d]! % 10 === 0) val.push(k);
      else if (keepDecision[d] === 1) {
        train.push(k);
        if (data.label[k] === 0) lostTrain++;
      }
    }
  const trainIdx = Int32Array.from(train);
  const unit = choice ? "positions" : "moves";
  if (trainIdx.length < o.batch)
    throw new UsageError(
      `only ${trainIdx.length} training ${unit} in ${o.data.join(",")}, fewer than one minibatch (--safety-batch ${o.batch}); label more deals`,
    );
  log(
    `safety: backend ${backend}; objective ${choice ? "choice" : "risk"}${look ? `, lookahead's values as target (T = ${T})` : ""}${o.suitShuffle ? ", suits renamed" : ""}${choice && (o.criticalWeight ?? 0) > 0 ? `, fatal-move term ×${o.criticalWeight}` : ""}; data ${o.data.join(",")}: ${data.deal.length} positions, ${M} moves; training on ${trainIdx.length} ${unit} (${lostTrain} ${choice ? "with a losing move" : "lost"}), ${val.length} validation ${unit}`,
  );
  const config = defaultConfig(
    C,
    o.columnHidden,
    o.headHidden,
    features,
    o.attentionHeads,
    o.objective ?? "risk",
    o.cardHidden,
  );
  const start = init ?? initWeights(config, o.seed);
  const net = new TfSafety(start);
  const adam = new Adam(net.vars(), { beta1: 0.9, beta2: 0.999, epsilon: 1e-7, maxGradNorm: 1 });
  const saved = resume ? loadProgress(run, net.vars(), adam, trainIdx.length) : undefined;
  if (resume && !saved)
    throw new UsageError(
      `${o.out} has no ${RESUME_DIR}/ checkpoint: a finished run is done (start from its network with --model ${o.out})`,
    );
  const enc = new BatchEncoder(rules, data, start.config);
  const GW = enc.globalWidth;
  const B = o.batch;
  // Rows per minibatch: B moves, or every move of B positions.
  const R = choice ? B * maxMoves : B;
  const cols = new Float32Array(R * C * COLUMN_WIDTH);
  const flips = new Float32Array(R * FLIPPER_WIDTH);
  const globals = new Float32Array(R * GW);
  const y = new Float32Array(R);
  const wt = new Float32Array(R);
  const seg = new Int32Array(R);
  // Fatal-move term (criticalWeight > 0): which rows are winnable, and which batch positions hold a losing move.
  const safeRow = new Float32Array(R);
  const critPos = new Float32Array(choice ? B : 0);
  const cw = choice ? (o.criticalWeight ?? 0) : 0;
  /** Choice objective: the one-hot of each row's position in the batch, rows × B. */
  const member = new Float32Array(choice ? R * B : 0);
  const renamer = new SuitRenamer();
  const structure = usesStructure(start.config);
  const cardsAt = start.config.cardHidden?.length ? cardsStart(start.config) : -1;
  const rowWidth = cardWidth(start.config);
  // The choice loss cannot fall below the entropy of its target (log of the winnable moves, per
  // position); the logged loss is what lies above that floor, so its curve shows what is learnt.
  let floor = 0;
  /** Encodes units idx[from … from + n) into the batch arrays; returns the rows written. `step` ≥ 0 renames suits (training only). */
  const fill = (idx: ArrayLike<number>, from: number, n: number, step = -1): number => {
    let r = 0;
    floor = 0;
    const row = (k: number, j: number): void => {
      enc.encode(k, r, cols, flips, globals);
      if (step >= 0 && o.suitShuffle)
        renamer.rename(
          suitOrderFor(o.seed, step, j),
          cols,
          r * C * COLUMN_WIDTH,
          C,
          flips,
          r * FLIPPER_WIDTH,
          globals,
          r * GW,
          structure,
          cardsAt,
          rowWidth,
        );
    };
    for (let j = 0; j < n; j++) {
      const u = idx[from + j]!;
      if (!choice) {
        row(u, j);
        const lost = data.label[u] === 0;
        y[r] = lost ? 1 : 0;
        wt[r] = lost ? o.lostWeight : 1;
        r++;
        continue;
      }
      // y holds the softmax target: the winnable moves share the weight (evenly, or by solver line length); lost moves get none.
      floor += targetEntropy[u]! / n;
      critPos[j] = critical[u]!;
      const sh = bestValueOf(u);
      for (let k = first[u]!; k < first[u + 1]!; k++) {
        if (data.label[k] !== 0 && data.label[k] !== 1) continue;
        row(k, j);
        seg[r] = j;
        y[r] = data.label[k] === 1 ? targetOf(k, targetSum[u]!, sh) : 0;
        safeRow[r] = data.label[k] === 1 ? 1 : 0;
        wt[r] = 1;
        r++;
      }
    }
    return r;
  };
  const lossOf = (logits: tf.Tensor1D, yt: tf.Tensor1D, wtt: tf.Tensor1D): tf.Scalar => {
    // Stable BCE with logits: max(z,0) − z·y + log(1 + e^−|z|), weighted mean.
    const l = tf.add(
      tf.sub(tf.relu(logits), tf.mul(logits, yt)),
      tf.log1p(tf.exp(tf.neg(tf.abs(logits)))),
    );
    return tf.div(tf.sum(tf.mul(l, wtt)), tf.sum(wtt)) as tf.Scalar;
  };
  /** Network outputs for the first `rows` rows of the batch arrays. */
  const score = (rows: number): Float32Array => {
    const z = tf.tidy(() =>
      net.forward(
        tf.tensor2d(cols.subarray(0, rows * C * COLUMN_WIDTH), [rows * C, COLUMN_WIDTH]),
        tf.tensor2d(flips.subarray(0, rows * FLIPPER_WIDTH), [rows, FLIPPER_WIDTH]),
        tf.tensor2d(globals.subarray(0, rows * GW), [rows, GW]),
        rows,
      ),
    );
    const zs = z.dataSync() as Float32Array;
    z.dispose();
    return zs;
  };
  /**
   * Choice objective: the loss per position; "recall" is the share of positions holding a losing
   * move whose best-scored move keeps the deal winnable, "false alarms" the share of their winnable
   * moves scored below half the best move's softmax weight.
   */
  const validateChoice = (): { loss: number; recall: number; falseAlarm: number } => {
    let lossSum = 0,
      positions = 0,
      crit = 0,
      topSafe = 0,
      safe = 0,
      alarms = 0;
    for (let i = 0; i < val.length; i += B) {
      const n = Math.min(B, val.length - i);
      const rows = fill(val, i, n);
      const zs = score(rows);
      for (let a = 0; a < rows; ) {
        let b = a;
        while (b < rows && seg[b] === seg[a]) b++;
        lossSum += choiceLossJs(zs, y, a, b) - targetEntropy[val[i + seg[a]!]!]!;
        positions++;
        if (y.subarray(a, b).some((t) => t === 0)) {
          crit++;
          let best = a;
          for (let r = a; r < b; r++) if (zs[r]! > zs[best]!) best = r;
          if (y[best]! > 0) topSafe++;
          for (let r = a; r < b; r++)
            if (y[r]! > 0) {
              safe++;
              if (squash(zs[r]!) < squash(zs[best]!) - Math.LN2) alarms++;
            }
        }
        a = b;
      }
    }
    return {
      loss: lossSum / Math.max(1, positions),
      recall: topSafe / Math.max(1, crit),
      falseAlarm: alarms / Math.max(1, safe),
    };
  };
  const validate = (): { loss: number; recall: number; falseAlarm: number } => {
    if (choice) return validateChoice();
    let lossSum = 0,
      wSum = 0,
      lost = 0,
      caught = 0,
      safe = 0,
      alarms = 0;
    for (let i = 0; i < val.length; i += B) {
      const n = Math.min(B, val.length - i);
      fill(val, i, n);
      const zs = score(n);
      for (let r = 0; r < n; r++) {
        const zz = zs[r]!;
        const l = Math.max(zz, 0) - zz * y[r]! + Math.log1p(Math.exp(-Math.abs(zz)));
        lossSum += l * wt[r]!;
        wSum += wt[r]!;
        if (y[r] === 1) {
          lost++;
          if (zz > 0) caught++;
        } else {
          safe++;
          if (zz > 0) alarms++;
        }
      }
    }
    return {
      loss: lossSum / Math.max(1, wSum),
      recall: caught / Math.max(1, lost),
      falseAlarm: alarms / Math.max(1, safe),
    };
  };
  if (!saved)
    run.writeConfig("safety", rules, {
      options: o,
      rules,
      trainMoves: trainIdx.length,
      lostTrain,
      valMoves: val.length,
    });
  if (!saved)
    run.writeJson("deals.json", {
      splits: splits[0]!.splits,
      training: splits.map((s) => ({ data: s.data, seeds: s.training })),
      validation: splits[0]!.validation,
      evaluation: splits[0]!.evaluation,
    });
  const t0 = performance.now() - (saved?.wallSeconds ?? 0) * 1000;
  let best = saved?.best ?? -1;
  let step = saved?.step ?? 0;
  const stepsPerEpoch = Math.floor(trainIdx.length / B);
  const totalSteps = Math.max(1, Math.round(o.epochs * stepsPerEpoch));
  let epoch = 0;
  const cpuNow = (): number => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1e6;
  };
  let lastEval = saved?.lastEval ?? -1;
  /** The operating point a saved network plays at. */
  const playAt = (threshold: number): Record<string, unknown> => ({
    threshold,
    shuffle: o.shuffle,
    margin: 0.05,
    ...(o.playOrder === "net" ? { order: "net" } : {}),
  });
  const evalPoint = (label: number): void => {
    if (step === lastEval) return;
    lastEval = step;
    const v = validate();
    const w = net.read();
    let bestT = o.thresholds[0]!;
    let bestWins = -1;
    for (const t of o.thresholds) {
      const wins = playValidation(
        rules,
        w,
        { threshold: t, shuffle: o.shuffle, margin: 0.05, order: o.playOrder ?? "greedy" },
        VALIDATION_DEAL_START,
        o.valDeals,
      );
      log(`  epoch ${label}: threshold ${t}: ${wins}/${o.valDeals} validation deals won`);
      if (wins > bestWins) {
        bestWins = wins;
        bestT = t;
      }
    }
    const rate = bestWins / o.valDeals;
    const ci = wilson(bestWins, o.valDeals);
    log(
      `epoch ${label}: val loss ${v.loss.toFixed(4)}, recall of lost moves ${(100 * v.recall).toFixed(1)} %, false alarms ${(100 * v.falseAlarm).toFixed(2)} %; best threshold ${bestT}: ${(100 * rate).toFixed(1)} % [${(100 * ci.low).toFixed(1)}–${(100 * ci.high).toFixed(1)}]`,
    );
    run.rows.push({
      epoch: label,
      step,
      samples: step * B,
      val_loss: v.loss,
      val_recall_lost: v.recall,
      val_false_alarm: v.falseAlarm,
      threshold: bestT,
      val_win_rate: rate,
      wall_s: (performance.now() - t0) / 1000,
    });
    if (bestWins > best) {
      best = bestWins;
      saveSafety(join(o.out, "checkpoint"), w, {
        play: playAt(bestT),
        epoch: label,
        step,
        valWins: bestWins,
        valDeals: o.valDeals,
        valFrom: VALIDATION_DEAL_START,
        recall: v.recall,
        falseAlarm: v.falseAlarm,
        rules: rulesLabel(rules),
        data: o.data,
      });
      log(`  checkpoint: epoch ${label}`);
    }
    run.writeMetrics();
  };
  const perm = Int32Array.from(trainIdx);
  let lossAcc = saved?.lossAcc ?? 0,
    lossN = saved?.lossN ?? 0,
    cpu0 = cpuNow(),
    samples0 = saved?.samples0 ?? 0;
  // Where a resumed run picks up: the epochs begun are shuffled again from the seed, so the permutation is the one it stopped in.
  let next = -1;
  if (saved) {
    perm.set(saved.perm);
    rng.setState(saved.rng);
    epoch = saved.epoch;
    next = saved.next;
    run.rows = saved.rows;
    log(`resumed at step ${step}/${totalSteps} (epoch ${epoch})`);
  } else if (o.init) evalPoint(0);
  /** Saves where the run stands (resume/); `at`: the next minibatch of the epoch (-1: the epoch is over). */
  const save = (at: number): void =>
    saveProgress(
      run,
      {
        step,
        epoch,
        next: at,
        perm,
        rng: rng.getState(),
        best,
        lastEval,
        lossAcc,
        lossN,
        samples0,
        wallSeconds: (performance.now() - t0) / 1000,
        rows: run.rows as Record<string, number>[],
      },
      net.vars(),
      adam,
    );
  const pause = (at: number): void => {
    save(at);
    run.writeMetrics();
    log(`stopped by a signal at step ${step}; penguin train --resume ${o.out} continues`);
  };
  const deadline = o.maxMinutes > 0 ? t0 + o.maxMinutes * 60_000 : Infinity;
  let paused = false;
  while (step < totalSteps && !paused) {
    if (next < 0) {
      rng.shuffle(perm);
      epoch++;
    }
    for (let i = Math.max(0, next); i + B <= perm.length && step < totalSteps; i += B) {
      const rows = fill(perm, i, B, step);
      const [loss] = adam.minimize(
        () => {
          const z = net.forward(
            tf.tensor2d(cols.subarray(0, rows * C * COLUMN_WIDTH), [rows * C, COLUMN_WIDTH]),
            tf.tensor2d(flips.subarray(0, rows * FLIPPER_WIDTH), [rows, FLIPPER_WIDTH]),
            tf.tensor2d(globals.subarray(0, rows * GW), [rows, GW]),
            rows,
          );
          const target = tf.tensor1d(y.subarray(0, rows));
          if (!choice)
            return { loss: lossOf(z, target, tf.tensor1d(wt.subarray(0, rows))), extras: [] };
          member.fill(0, 0, rows * B);
          for (let r = 0; r < rows; r++) member[r * B + seg[r]!] = 1;
          const mem = tf.tensor2d(member.subarray(0, rows * B), [rows, B]);
          const main = choiceLoss(z, mem, target, B);
          if (cw === 0) return { loss: main, extras: [] };
          const fatal = safeSetLoss(
            z,
            mem,
            tf.tensor1d(safeRow.subarray(0, rows)),
            tf.tensor1d(critPos),
            B,
          );
          return { loss: tf.add(main, tf.mul(fatal, cw)) as tf.Scalar, extras: [] };
        },
        o.lr * (1 - 0.9 * (step / totalSteps)),
      );
      step++;
      lossAcc += loss! - (choice ? floor : 0);
      lossN++;
      if (!Number.isFinite(loss!))
        throw new UsageError(
          `the loss became ${loss} at step ${step}: lower --lr or --safety-batch`,
        );
      if (step % 200 === 0) {
        const cpu = cpuNow() - cpu0;
        const sps = (step * B - samples0) / Math.max(cpu, 1e-6); // finite, so the resume state (JSON) keeps it
        log(
          `step ${step}/${totalSteps} (epoch ${epoch}): loss ${(lossAcc / lossN).toFixed(4)}, ${sps.toFixed(0)} samples per CPU-second`,
        );
        run.rows.push({
          epoch: epoch - 1 + i / perm.length,
          step,
          samples: step * B,
          loss: lossAcc / lossN,
          samples_per_cpu_s: sps,
          wall_s: (performance.now() - t0) / 1000,
        });
        lossAcc = lossN = 0;
        cpu0 = cpuNow();
        samples0 = step * B;
      }
      // Half-epoch validation points: the network overfits within a few epochs, so the checkpoint is
      // picked finely. (Every epoch is stepsPerEpoch steps; its end is evaluated below, only once.)
      // Each validation point also saves the run, so a killed run resumes from the last one.
      if (step % stepsPerEpoch === Math.max(1, stepsPerEpoch >> 1) && step < totalSteps) {
        evalPoint(Math.round((step / stepsPerEpoch) * 100) / 100);
        save(i + B);
      }
      if (performance.now() > deadline) break;
      if (step % 10 === 0 && step < totalSteps) {
        // Let a SIGINT/SIGTERM handler run; a stopped run saves where it is, and --resume goes on from the next minibatch.
        await new Promise((r) => setImmediate(r));
        if (stopRequested()) {
          pause(i + B);
          paused = true;
          break;
        }
      }
    }
    next = -1;
    if (paused) break;
    evalPoint(Math.round((step / Math.max(1, stepsPerEpoch)) * 100) / 100);
    if (step < totalSteps) save(-1);
    if (performance.now() > deadline) {
      log(`stopped by --max-minutes ${o.maxMinutes}`);
      break;
    }
  }
  // The network after the last step (checkpoint/ holds the best one): its SHA-256 shows that a resumed run ended where an uninterrupted one does.
  const last = sha256(
    new Uint8Array(Float32Array.from(net.vars().flatMap((v) => Array.from(v.dataSync()))).buffer),
  );
  // last/ keeps that network too, playable like checkpoint/: the best validation point of a few
  // hundred deals is a noisy pick, and a continued run whose validation never beats its start
  // would otherwise leave nothing new.
  if (!paused)
    saveSafety(join(o.out, "last"), net.read(), {
      play: playAt(o.thresholds[0]!),
      step,
      rules: rulesLabel(rules),
      data: o.data,
    });
  net.dispose();
  adam.dispose();
  if (paused) return { best, dir: join(o.out, "checkpoint") };
  dropProgress(run);
  run.writeJson("final.json", {
    bestValidationWins: best,
    valDeals: o.valDeals,
    steps: step,
    wallSeconds: (performance.now() - t0) / 1000,
    lastWeightsSha256: last,
  });
  await run.writeCurve(`safety network: ${o.out}`);
  return { best, dir: join(o.out, "checkpoint") };
}
