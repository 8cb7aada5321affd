/**
 * DAgger for the action-scorer with the lookahead agent as the expert. Round 0: the expert plays
 * training deals and labels its own positions. Round r ≥ 1: the current network plays fresh
 * training deals and the expert labels every position the network visits. After each round the
 * network is trained (cross-entropy on the expert's action under the masked softmax) on all the
 * positions gathered so far, then measured on held-out positions (agreement with the expert) and
 * held-out deals (win rate). Everything — the expert's games included — counts against the
 * wall-clock budget. Deal seeds: training from `trainStart` upwards, validation from `valStart`,
 * both disjoint from the evaluation seeds 1–1000 (checked).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { resolveRules, rulesLabel } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import { LookaheadAgent } from "../../agents/lookahead.js";
import { ActionCodec } from "../../env/actions.js";
import { wilson } from "../../eval/stats.js";
import { backendInfo, initBackend, tf } from "../backend.js";
import { runLog, writeAtomic, writeMetricsCsv } from "../files.js";
import { writeLineCurve, type CurvePoint } from "../curve.js";
import { Rng } from "../rng.js";
import { ScorerView } from "./agent.js";
import { agreement, batchTensors, playLabelled, type RolloutTeacher, type Sample } from "./data.js";
import { GreedyAgent } from "../../agents/greedy.js";
import { FEATURE_ROW_NAMES, ROW } from "./features.js";
import { buildScorer, forward, JsScorer, maskedCrossEntropy, saveScorer, type ScorerNet } from "./model.js";

export interface ScorerTrainOptions {
  out: string;
  seed: number;
  minutes: number;
  hidden: number[];
  init: "tuned" | "zero";
  /**
   * lookahead: DAgger labels from the lookahead agent only. rollout: the same, plus, at a share of
   * the visited positions, a target over the moves after which greedy(tuned) goes on to win.
   */
  teacher: "lookahead" | "rollout";
  rolloutShare: number;
  rolloutWeight: number;
  rolloutMaxSteps: number;
  /** With the rollout teacher: train on its targets only, leaving out the expert's labels. */
  rolloutOnly: boolean;
  /** Expert: lookahead depth and width. */
  depth: number;
  width: number;
  /** Deals the expert plays in round 0, and the student plays per later round. */
  dealsRound0: number;
  dealsPerRound: number;
  rounds: number;
  epochs: number;
  batch: number;
  lr: number;
  /** Move cap of the labelled games (won games take under 200 moves). */
  maxSteps: number;
  trainStart: number;
  valStart: number;
  /** Held-out deals whose expert positions measure agreement, and deals played for the curve. */
  valPositionDeals: number;
  valDeals: number;
  quiet: boolean;
}

export const SCORER_DEFAULTS: ScorerTrainOptions = {
  out: "runs/scorer",
  seed: 1,
  minutes: 25,
  hidden: [64, 64],
  init: "tuned",
  teacher: "lookahead",
  rolloutShare: 0.1,
  rolloutWeight: 4,
  rolloutMaxSteps: 250,
  rolloutOnly: false,
  depth: 3,
  width: 3,
  dealsRound0: 150,
  dealsPerRound: 100,
  rounds: 100,
  epochs: 2,
  batch: 128,
  lr: 1e-3,
  maxSteps: 300,
  trainStart: 2_000_000,
  valStart: 1_500_000,
  valPositionDeals: 20,
  valDeals: 100,
  quiet: false,
};

const COLUMNS = ["round", "deals", "positions", "samples", "steps", "loss", "train_acc", "val_acc", "val_win_rate", "val_cards_home", "actor_win_rate", "label_s", "train_s", "positions_per_s", "samples_per_s", "wall_s"] as const;
export type Row = Partial<Record<(typeof COLUMNS)[number], number>>;

export interface ScorerTrainResult {
  net: ScorerNet;
  rows: Row[];
  bestRound: number;
  seconds: number;
  positions: number;
}

/** Trains `epochs` passes over the samples; returns mean loss, training accuracy and steps. */
function trainEpochs(net: ScorerNet, opt: tf.Optimizer, samples: readonly Sample[], epochs: number, batch: number, rng: Rng): { loss: number; acc: number; steps: number } {
  const vars = net.model.trainableWeights.map((w) => w.read() as tf.Variable);
  let lossSum = 0;
  let hits = 0;
  let seen = 0;
  let steps = 0;
  const total = Math.round(epochs * samples.length);
  const order = new Uint32Array(samples.length);
  let done = 0;
  while (done < total) {
    for (let i = 0; i < order.length; i++) order[i] = i;
    rng.shuffle(order);
    for (let from = 0; from < order.length && done < total; from += batch) {
      const to = Math.min(order.length, from + batch, from + total - done);
      const { rows, mask, oneHot } = batchTensors(samples, order, from, to);
      const res = tf.tidy(() => {
        let acc: tf.Tensor | undefined;
        const loss = opt.minimize(
          () => {
            const logits = forward(net, rows);
            // A hit: the argmax is the expert's move (or, for a rollout target, one of the winning moves).
            const pick = tf.oneHot(tf.argMax(tf.where(mask.greater(0.5), logits, tf.fill(logits.shape, -1e9)), 1), logits.shape[1]);
            acc = tf.keep(tf.sum(tf.greater(tf.sum(tf.mul(pick, oneHot), 1), 0)));
            return maskedCrossEntropy(logits, mask, oneHot);
          },
          true,
          vars,
        )!;
        return [loss, acc!];
      });
      lossSum += (res[0]!.dataSync()[0] ?? 0) * (to - from);
      hits += res[1]!.dataSync()[0] ?? 0;
      tf.dispose([rows, mask, oneHot, ...res]);
      seen += to - from;
      done += to - from;
      steps++;
    }
  }
  return { loss: seen ? lossSum / seen : 0, acc: seen ? hits / seen : 0, steps };
}

export async function writeCurve(dir: string, rows: readonly Row[]): Promise<void> {
  const points: CurvePoint[] = [];
  for (const r of rows) {
    if (r.val_acc !== undefined) points.push({ x: r.round!, value: r.val_acc, series: "agreement with expert (held-out positions)" });
    if (r.val_win_rate !== undefined) points.push({ x: r.round!, value: r.val_win_rate, series: "win rate (held-out deals)" });
    if (r.train_acc !== undefined) points.push({ x: r.round!, value: r.train_acc, series: "training accuracy" });
  }
  await writeLineCurve(dir, "action-scorer DAgger (expert: lookahead); round -1 = untrained (tuned-greedy skip path)", "DAgger round", points, [0, 1]);
}

export async function trainScorer(partial: Partial<ScorerTrainOptions> = {}): Promise<ScorerTrainResult> {
  const o: ScorerTrainOptions = { ...SCORER_DEFAULTS, ...partial };
  if (o.trainStart <= 1000 || o.valStart <= 1000) throw new UsageError("training and validation deal seeds must lie above the evaluation seeds 1-1000");
  if (o.valStart + o.valDeals + o.valPositionDeals > o.trainStart) throw new UsageError("validation seeds must lie below the training seeds");
  const t0 = performance.now();
  const elapsed = (): number => (performance.now() - t0) / 1000;
  const budget = o.minutes * 60;
  const backend = await initBackend();
  mkdirSync(o.out, { recursive: true });
  const log = runLog(o.out, o.quiet);
  const rules = resolveRules("penguin", {});
  const codec = new ActionCodec(rules);
  const A = codec.n;
  log(`backend ${backend}, tfjs ${tf.version.tfjs}; rules ${rulesLabel(rules)}, ${A} actions, ${ROW} features per action`);
  writeAtomic(join(o.out, "config.json"), JSON.stringify({ ...o, ...backendInfo(), rules: rulesLabel(rules), actions: A, features: FEATURE_ROW_NAMES }, null, 2) + "\n");
  const net = buildScorer({ actions: A, row: ROW, hidden: o.hidden, seed: o.seed, init: o.init });
  const opt = tf.train.adam(o.lr);
  const rng = new Rng(o.seed);
  const expert = new LookaheadAgent({ depth: o.depth, width: o.width });
  const view = new ScorerView(codec);
  const rollout: RolloutTeacher | undefined =
    o.teacher === "rollout"
      ? { greedy: new GreedyAgent({ heuristic: "tuned" }), rng: new Rng(`${o.seed}/rollout`), share: o.rolloutShare, maxSteps: o.rolloutMaxSteps, weight: Math.max(1, Math.round(o.rolloutWeight)), only: o.rolloutOnly, tried: 0, kept: 0 }
      : undefined;

  // Held-out positions: the expert's own games on validation deals.
  const valSamples: Sample[] = [];
  const valPosSeeds: number[] = [];
  for (let i = 0; i < o.valPositionDeals; i++) valPosSeeds.push(o.valStart + o.valDeals + i);
  for (const seed of valPosSeeds) playLabelled(rules, codec, seed, expert, undefined, o.maxSteps, valSamples, view);
  log(`held-out positions: ${valSamples.length} from deals ${valPosSeeds[0]}..${valPosSeeds.at(-1)} (${elapsed().toFixed(1)} s)`);

  const evaluate = (js: JsScorer): { winRate: number; cardsHome: number } => {
    let wins = 0;
    let home = 0;
    for (let i = 0; i < o.valDeals; i++) {
      const g = playLabelled(rules, codec, o.valStart + i, undefined, js, 1000, undefined, view);
      wins += g.won ? 1 : 0;
      home += g.cardsHome;
    }
    return { winRate: wins / Math.max(1, o.valDeals), cardsHome: home / Math.max(1, o.valDeals) };
  };

  const rows: Row[] = [];
  const record = async (row: Row): Promise<void> => {
    rows.push(row);
    writeMetricsCsv(join(o.out, "metrics.csv"), COLUMNS, rows, 5);
    await writeCurve(o.out, rows);
  };

  let js = new JsScorer(net);
  const ev0 = evaluate(js);
  await record({ round: -1, val_acc: agreement(valSamples, js), val_win_rate: ev0.winRate, val_cards_home: ev0.cardsHome, wall_s: elapsed() });
  log(`untrained: held-out agreement ${(rows[0]!.val_acc! * 100).toFixed(1)}%, win rate ${(ev0.winRate * 100).toFixed(1)}% on ${o.valDeals} validation deals`);
  let best = { round: -1, winRate: ev0.winRate, acc: rows[0]!.val_acc! };
  await saveScorer(join(o.out, "checkpoint"), net, { round: -1 });

  const samples: Sample[] = [];
  let nextSeed = o.trainStart;
  let positions = 0;
  let labelSeconds = 0;
  let trainSeconds = 0;
  let trainSamples = 0;
  for (let round = 0; round < o.rounds && elapsed() < budget; round++) {
    const tl = performance.now();
    const deals = round === 0 ? o.dealsRound0 : o.dealsPerRound;
    const before = samples.length;
    let wins = 0;
    let played = 0;
    for (let i = 0; i < deals && elapsed() < budget; i++) {
      const g = playLabelled(rules, codec, nextSeed++, expert, round === 0 ? undefined : js, o.maxSteps, samples, view, rollout);
      wins += g.won ? 1 : 0;
      played++;
    }
    const labelS = (performance.now() - tl) / 1000;
    labelSeconds += labelS;
    positions += samples.length - before;
    if (elapsed() >= budget) {
      log(`round ${round}: budget reached while labelling (${samples.length - before} positions kept, not trained on)`);
      break;
    }
    const tt = performance.now();
    const tr = trainEpochs(net, opt, samples, o.epochs, o.batch, rng);
    const trainS = (performance.now() - tt) / 1000;
    trainSeconds += trainS;
    trainSamples += Math.round(o.epochs * samples.length);
    js = new JsScorer(net);
    const ev = evaluate(js);
    const valAcc = agreement(valSamples, js);
    await record({
      round,
      deals: played,
      positions: samples.length - before,
      samples: samples.length,
      steps: tr.steps,
      loss: tr.loss,
      train_acc: tr.acc,
      val_acc: valAcc,
      val_win_rate: ev.winRate,
      val_cards_home: ev.cardsHome,
      actor_win_rate: played ? wins / played : 0,
      label_s: labelS,
      train_s: trainS,
      positions_per_s: (samples.length - before) / Math.max(1e-9, labelS),
      samples_per_s: (o.epochs * samples.length) / Math.max(1e-9, trainS),
      wall_s: elapsed(),
    });
    log(
      `round ${round}: ${played} deals (${round === 0 ? "expert" : "student"} won ${wins}), +${samples.length - before} positions (${samples.length} total) in ${labelS.toFixed(0)} s; ` +
        `${tr.steps} steps in ${trainS.toFixed(0)} s, loss ${tr.loss.toFixed(3)}, train acc ${(tr.acc * 100).toFixed(1)}%; held-out acc ${(valAcc * 100).toFixed(1)}%, ` +
        `win ${(ev.winRate * 100).toFixed(1)}%${rollout ? `; rollout targets ${rollout.kept}/${rollout.tried}` : ""} (${elapsed().toFixed(0)} s)`,
    );
    // Keep the round that wins most validation deals (ties: the later round, which saw more data).
    if (ev.winRate >= best.winRate) {
      best = { round, winRate: ev.winRate, acc: valAcc };
      await saveScorer(join(o.out, "checkpoint"), net, { round });
    }
  }
  const seconds = elapsed();
  const vi = wilson(Math.round(best.winRate * o.valDeals), o.valDeals);
  const summary = {
    backend,
    seconds,
    labelSeconds,
    trainSeconds,
    positions,
    samples: samples.length,
    positionsPerSecond: positions / Math.max(1e-9, labelSeconds),
    samplesPerSecond: trainSamples / Math.max(1e-9, trainSeconds),
    rolloutPositions: rollout ? { tried: rollout.tried, informative: rollout.kept } : undefined,
    bestRound: best.round,
    bestValidationWinRate: best.winRate,
    bestValidationWilson95: [vi.low, vi.high],
    bestValidationAgreement: best.acc,
    trainingSeeds: [o.trainStart, nextSeed - 1],
    validationDealSeeds: [o.valStart, o.valStart + o.valDeals - 1],
    validationPositionSeeds: [valPosSeeds[0], valPosSeeds.at(-1)],
  };
  writeAtomic(join(o.out, "summary.json"), JSON.stringify(summary, null, 2) + "\n");
  writeAtomic(
    join(o.out, "deals.json"),
    JSON.stringify({ training: summary.trainingSeeds, validationDeals: summary.validationDealSeeds, validationPositions: summary.validationPositionSeeds, evaluation: [1, 1000] }, null, 2) + "\n",
  );
  log(`done in ${seconds.toFixed(0)} s: ${positions} positions labelled (${summary.positionsPerSecond.toFixed(0)}/s), ${summary.samplesPerSecond.toFixed(0)} samples/s in training; checkpoint = round ${best.round}`);
  opt.dispose();
  return { net, rows, bestRound: best.round, seconds, positions };
}
