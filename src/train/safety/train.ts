/**
 * `penguin train safety`: trains the move-safety network on `penguin dataset` labels (samples.ts),
 * minibatches encoded on the fly from the packed positions (batch.ts), under the risk or choice
 * objective (objective.ts) with Adam, epoch after epoch (epochs.ts). Twice an epoch the network
 * plays validation deals at a few thresholds (validation.ts); checkpoint/ keeps the best network
 * and its operating point, last/ the network after the last step, resume/ what a stopped run
 * continues from (resume.ts).
 *
 * This file sets a run up and closes it. Every random choice (the first weights, the safe
 * positions kept, each epoch's order, the suit renamings) follows from --weights-seed, so the same
 * options give the same weights bit for bit, resumed or not.
 */
import { join } from "node:path";
import { rulesLabel } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import { ActionCodec } from "../../env/actions.js";
import {
  defaultConfig,
  featuresOf,
  initWeights,
  loadSafety,
  saveSafety,
  type SafetyFeatures,
  type SafetyWeights,
} from "../../players/safety/model.js";
import { sha256 } from "../../util/files.js";
import { Rng } from "../../util/rng.js";
import { Adam } from "../adam.js";
import { initBackend } from "../backend.js";
import { CheckpointError, dropResume, RESUME_DIR } from "../checkpoint.js";
import { RunFolder } from "../run.js";
import { checkSplit, VALIDATION_DEAL_START } from "../splits.js";
import { Minibatch } from "./batch.js";
import { SAFETY_COLUMNS, wallSeconds, type LoopState, type SafetyRun } from "./context.js";
import { loadDataset, readIndex } from "./dataset.js";
import { runEpochs } from "./epochs.js";
import { TfSafety } from "./network.js";
import { SAFETY_DEFAULTS, type SafetyTrainOptions } from "./options.js";
import { loadProgress, startingState } from "./resume.js";
import { SafetySamples } from "./samples.js";
import { operatingPoint, validationPoint } from "./validation.js";

type SafetyResult = { best: number; dir: string };

/**
 * `penguin train safety`: a new run in `runFolder` on `options.data`, with the shipped network's
 * recipe (SAFETY_DEFAULTS) where `options` gives none.
 */
export function train(
  options: Partial<SafetyTrainOptions> & Pick<SafetyTrainOptions, "data">,
  runFolder: string,
): Promise<SafetyResult> {
  return trainSafety({ ...SAFETY_DEFAULTS, ...options, out: runFolder });
}

/** Continues the safety run in `dir` from its saved state (config.json holds its options). */
export async function resume(dir: string): Promise<SafetyResult> {
  const options = new RunFolder(dir, SAFETY_COLUMNS).readJson<{ options?: SafetyTrainOptions }>(
    "config.json",
  )?.options;
  if (!options)
    throw new UsageError(`${join(dir, "config.json")} holds no safety options; start a new run`);
  return trainSafety({ ...options, out: dir }, true);
}

/** Trains into o.out; `resume`: continue the stopped run there instead (same options). */
export async function trainSafety(o: SafetyTrainOptions, resume = false): Promise<SafetyResult> {
  // The deal split and the starting network are checked before the run folder is made.
  const splits = dealSplits(o);
  const backend = await initBackend();
  const data = loadDataset(o.data);
  const rules = data.index.rules;
  const features = featureSet(o);
  const init = startingNetwork(o, features);
  const run = new RunFolder(o.out, SAFETY_COLUMNS);
  run.quiet = o.quiet ?? false;
  const rng = new Rng(`safety-train:${o.seed}`);
  const samples = new SafetySamples(data, rules, o, rng);
  if (samples.train.length < o.batch)
    throw new UsageError(
      `only ${samples.train.length} training ${samples.unit} in ${o.data.join(",")}, fewer than one minibatch (--safety-batch ${o.batch}); label more deals`,
    );
  run.log(openingLine(o, backend, samples));
  const config = defaultConfig(
    new ActionCodec(rules).columns,
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
  const saved = resume ? loadProgress(run, net.vars(), adam, samples.train.length) : undefined;
  if (resume && !saved)
    throw new CheckpointError(
      `${o.out} has no ${RESUME_DIR}/ checkpoint: a finished run is done (start from its network with --model ${o.out})`,
    );
  const batch = new Minibatch(rules, samples, start.config, o);
  if (!saved) writeRunFiles(run, o, samples, splits);
  // At least 1: the training units fill one minibatch (checked above).
  const stepsPerEpoch = Math.floor(samples.train.length / o.batch);
  const ctx: SafetyRun = {
    o,
    rules,
    run,
    samples,
    net,
    adam,
    batch,
    stepsPerEpoch,
    totalSteps: Math.max(1, Math.round(o.epochs * stepsPerEpoch)),
    t0: performance.now() - (saved?.wallSeconds ?? 0) * 1000,
  };
  const st = startingState(run, samples.train, rng, saved);
  if (saved) run.log(`resumed at step ${st.step}/${ctx.totalSteps} (epoch ${st.epoch})`);
  // A network to start from is validated first: a continued run must beat it to replace it.
  else if (o.init) validationPoint(ctx, st, 0);
  const paused = await runEpochs(ctx, st);
  return finish(ctx, st, paused);
}

/**
 * The deal split, checked: every dataset's deals in the training split, the validation deals in
 * the validation split.
 */
function dealSplits(o: SafetyTrainOptions) {
  const validation = { from: VALIDATION_DEAL_START, count: o.valDeals };
  return o.data.map((dir) => {
    const idx = readIndex(dir);
    return {
      data: dir,
      ...checkSplit({ training: { from: idx.dealStart, count: idx.deals }, validation }),
    };
  });
}

/** The network's input features, from the options' switches (the richest one set wins). */
function featureSet(o: SafetyTrainOptions): SafetyFeatures {
  if (o.cardHidden) return o.links ? "links" : "cards";
  if (o.flipperCosts) return "flippers";
  return o.structure ? "structure" : "basic";
}

/** The network given by --model, which must read the inputs asked for; undefined: fresh weights. */
function startingNetwork(
  o: SafetyTrainOptions,
  features: SafetyFeatures,
): SafetyWeights | undefined {
  const init = o.init ? loadSafety(o.init).weights : undefined;
  const from = init && featuresOf(init.config);
  if (from !== undefined && from !== features)
    throw new UsageError(`${o.init} reads the ${from} features; give --safety-features ${from}`);
  return init;
}

/** The log's first line: the backend, the objective and what the data holds. */
function openingLine(o: SafetyTrainOptions, backend: string, s: SafetySamples): string {
  const target = s.look ? `, lookahead's values as target (T = ${s.temperature})` : "";
  const suits = o.suitShuffle ? ", suits renamed" : "";
  const fatal =
    s.choice && (o.criticalWeight ?? 0) > 0 ? `, fatal-move term ×${o.criticalWeight}` : "";
  return `safety: backend ${backend}; objective ${s.choice ? "choice" : "risk"}${target}${suits}${fatal}; data ${o.data.join(",")}: ${s.data.deal.length} positions, ${s.data.label.length} moves; training on ${s.train.length} ${s.unit} (${s.lostTrain} ${s.choice ? "with a losing move" : "lost"}), ${s.val.length} validation ${s.unit}`;
}

/** config.json and deals.json of a new run. */
function writeRunFiles(
  run: RunFolder<string>,
  o: SafetyTrainOptions,
  s: SafetySamples,
  splits: ReturnType<typeof dealSplits>,
): void {
  const rules = s.data.index.rules;
  run.writeConfig("safety", rules, {
    options: o,
    rules,
    trainMoves: s.train.length,
    lostTrain: s.lostTrain,
    valMoves: s.val.length,
  });
  run.writeJson("deals.json", {
    splits: splits[0]!.splits,
    training: splits.map((p) => ({ data: p.data, seeds: p.training })),
    validation: splits[0]!.validation,
    evaluation: splits[0]!.evaluation,
  });
}

/**
 * Closes the run: last/ (unless a signal stopped it), then, finished, final.json and the learning
 * curve in place of the resume state.
 */
async function finish(ctx: SafetyRun, st: LoopState, paused: boolean): Promise<SafetyResult> {
  const { o, run, net } = ctx;
  // The network after the last step (checkpoint/ holds the best one): its SHA-256 shows that a resumed run ended where an uninterrupted one does.
  const last = sha256(
    new Uint8Array(Float32Array.from(net.vars().flatMap((v) => Array.from(v.dataSync()))).buffer),
  );
  // last/ keeps that network too, playable like checkpoint/: the best validation point of a few
  // hundred deals is a noisy pick, and a continued run whose validation never beats its start
  // would otherwise leave nothing new.
  if (!paused)
    saveSafety(join(o.out, "last"), net.read(), {
      play: operatingPoint(o, o.thresholds[0]!),
      step: st.step,
      rules: rulesLabel(ctx.rules),
      data: o.data,
    });
  net.dispose();
  ctx.adam.dispose();
  const result = { best: st.best, dir: join(o.out, "checkpoint") };
  if (paused) return result;
  dropResume(run.dir);
  run.writeJson("final.json", {
    bestValidationWins: st.best,
    valDeals: o.valDeals,
    steps: st.step,
    wallSeconds: wallSeconds(ctx),
    lastWeightsSha256: last,
  });
  await run.writeCurve(`safety network: ${o.out}`);
  return result;
}
