/**
 * `penguin train`: trains a policy network (PPO, or behaviour cloning from solver solutions
 * optionally followed by PPO) and writes a run folder. See docs/train.md.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../errors.js";
import { TRAIN_DEFAULTS } from "../train/config.js";
import type { FeatureKind } from "../train/features.js";
import { rulesFromArgs, withRuleOptions, type RuleArgs } from "./common.js";
import { stopOnSignals, stopRequested } from "../train/stop.js";
import { checkAll, rangeText, yargsNumber, type NumberSpec } from "../train/options.js";
import { SAFETY_FLAGS, SAFETY_NUMBERS, SAFETY_STRINGS, safetyOptions } from "../train/safety/options.js";

interface TrainArgs extends RuleArgs {
  algo: string;
  out?: string;
  resume?: string;
  seed: number;
  hidden: string;
  features: string;
  "total-steps": number;
  "then-ppo-steps": number;
  "train-deal-start": number;
  "train-deals": number;
  "eval-deal-start": number;
  "eval-deals": number;
  "eval-during": number;
  "eval-every": number;
  "checkpoint-every": number;
  "max-steps": number;
  "repeat-guard": boolean;
  "bc-epochs": number;
  "bc-batch": number;
  "bc-lr": number;
  "bc-validation-deals": number;
  "dagger-rounds": number;
  "dagger-deals": number;
  "dagger-states": number;
  "dagger-max-states": number;
  "dagger-epochs": number;
  "bc-batches-per-update": number;
  "solver-max-states": number;
  "solver-timeout-ms": number;
  "cache-dir": string;
  envs: number;
  "rollout-steps": number;
  "ppo-epochs": number;
  minibatches: number;
  lr: number;
  gamma: number;
  "gae-lambda": number;
  clip: number;
  "ent-coef": number;
  "vf-coef": number;
  "max-grad-norm": number;
  "lr-schedule": string;
  reward: string;
  "max-minutes": number;
  workers: number;
  "es-pop": number;
  "es-deals": number;
  "es-fixed-deals": boolean;
  "es-sigma": number;
  "es-lr": number;
  "es-lr-schedule": string;
  "es-generations": number;
  "es-max-steps": number;
  "es-val-deals": number;
  "es-val-every": number;
}

/** Flags of the other algorithms; `--algo es` refuses them rather than silently ignoring them. */
const NOT_ES = [
  "hidden", "features", "total-steps", "then-ppo-steps", "train-deal-start", "train-deals", "eval-deal-start", "eval-deals", "eval-during",
  "eval-every", "checkpoint-every", "max-steps", "repeat-guard", "bc-epochs", "bc-batch", "bc-lr", "bc-validation-deals", "bc-batches-per-update",
  "dagger-rounds", "dagger-deals", "dagger-states", "dagger-max-states", "dagger-epochs", "solver-max-states", "solver-timeout-ms", "cache-dir",
  "envs", "rollout-steps", "ppo-epochs", "minibatches", "lr", "gamma", "gae-lambda", "clip", "ent-coef", "vf-coef", "max-grad-norm", "lr-schedule", "reward",
];
/** Was `--name` (or `--name=…`, `--no-name`, or yargs' camelCase spelling) on the command line? */
function given(name: string): boolean {
  const camel = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return process.argv.some((x) => [name, camel, `no-${name}`].some((n) => x === `--${n}` || x.startsWith(`--${n}=`)));
}

/** `--algo es`: evolution strategies on the linear action-scorer (src/train/es, docs/train-es.md). */
async function handleEs(a: TrainArgs, resumeDir?: string): Promise<void> {
  const wrong = NOT_ES.filter(given);
  if (wrong.length) throw new UsageError(`--algo es does not use ${wrong.map((f) => `--${f}`).join(" ")}; its options: --es-pop --es-deals --es-fixed-deals --es-sigma --es-lr --es-lr-schedule --es-generations --es-max-steps --es-val-deals --es-val-every --workers --max-minutes --seed`);
  const { trainEs } = await import("../train/es/es.js");
  let r;
  if (resumeDir !== undefined) {
    const esGiven = ["es-pop", "es-deals", "es-fixed-deals", "es-sigma", "es-lr", "es-lr-schedule", "es-max-steps", "es-val-deals", "es-val-every", "seed", "rules"].filter(given);
    if (esGiven.length) throw new UsageError(`a resumed ES run keeps its own settings; only --max-minutes, --es-generations and --workers may change (got ${esGiven.map((f) => `--${f}`).join(" ")})`);
    r = await trainEs({ out: resumeDir, ...(given("workers") ? { workers: a.workers } : {}), ...(given("max-minutes") ? { minutes: a["max-minutes"] } : {}), ...(given("es-generations") ? { generations: a["es-generations"] } : {}) }, true);
  } else
    r = await trainEs({
      out: a.out!,
      rules: rulesFromArgs(a),
      seed: a.seed,
      minutes: a["max-minutes"],
      generations: a["es-generations"],
      pop: a["es-pop"],
      deals: a["es-deals"],
      fixedDeals: a["es-fixed-deals"],
      sigma: a["es-sigma"],
      lr: a["es-lr"],
      lrSchedule: a["es-lr-schedule"] as "constant" | "linear",
      maxSteps: a["es-max-steps"],
      valDeals: a["es-val-deals"],
      valEvery: a["es-val-every"],
      workers: a.workers,
    });
  console.log(JSON.stringify({ run: resumeDir ?? a.out, algo: "es", generations: r.generations, bestGeneration: r.bestGeneration, bestValidationWinRate: r.bestValidationWinRate, seconds: Math.round(r.seconds) }));
}

/** The algorithm a run folder was started with (config.json), or undefined. */
function runAlgo(dir: string): string | undefined {
  const file = join(dir, "config.json");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    return (JSON.parse(text) as { algo?: string }).algo;
  } catch {
    throw new UsageError(`${file} is damaged (not valid JSON); restore it or start a new run`);
  }
}

/** `--algo safety`: the move-safety network on `penguin dataset` labels (src/train/safety, docs/train-safety.md). */
async function handleSafety(a: TrainArgs): Promise<void> {
  const allowed = new Set([...SAFETY_FLAGS, "seed", "max-minutes", "out", "algo"]);
  const wrong = [...NOT_ES, ...ES_FLAGS, "workers"].filter((f) => !allowed.has(f) && given(f));
  if (wrong.length) throw new UsageError(`--algo safety does not use ${wrong.map((f) => `--${f}`).join(" ")}; its options: ${SAFETY_FLAGS.map((f) => `--${f}`).join(" ")} --seed --max-minutes --out`);
  if (!a.out) throw new UsageError("name the run folder with --out DIR");
  const { trainSafety } = await import("../train/safety/train.js");
  const r = await trainSafety(safetyOptions(a as unknown as Record<string, unknown>, a.out, a.seed, a["max-minutes"]));
  console.log(JSON.stringify({ run: a.out, algo: "safety", bestValidationWins: r.best, checkpoint: r.dir }));
}

const ES_FLAGS = ["es-pop", "es-deals", "es-fixed-deals", "es-sigma", "es-lr", "es-lr-schedule", "es-generations", "es-max-steps", "es-val-deals", "es-val-every"];

/**
 * Every numeric option of `penguin train` with its allowed range (checked before any file is
 * touched; the help shows the range).
 */
export const TRAIN_NUMBERS: Readonly<Record<string, NumberSpec>> = {
  seed: { describe: "seeds weights, sampling and shuffling", min: -(2 ** 31), max: 2 ** 31 - 1, int: true },
  "total-steps": { describe: "PPO: environment steps", min: 1, max: 1e9, int: true },
  "then-ppo-steps": { describe: "BC: PPO fine-tuning steps afterwards", min: 0, max: 1e9, int: true },
  "train-deal-start": { describe: "first training deal seed", min: 10_001, max: 2 ** 31 - 1, int: true },
  "train-deals": { describe: "BC: training deals to solve", min: 1, max: 10_000_000, int: true },
  "eval-deal-start": { describe: "first held-out evaluation deal seed", min: 1, max: 2 ** 31 - 1, int: true },
  "eval-deals": { describe: "held-out deals of the final evaluation", min: 0, max: 10_000_000, int: true },
  "eval-during": { describe: "evaluation deals played for the learning curve", min: 0, max: 10_000_000, int: true },
  "eval-every": { describe: "updates between curve evaluations", min: 1, max: 1e6, int: true },
  "checkpoint-every": { describe: "updates between checkpoints", min: 1, max: 1e6, int: true },
  "max-steps": { describe: "move limit per game", min: 1, max: 100_000, int: true },
  "bc-epochs": { describe: "BC: passes over the solver lines", min: 0, max: 1000 },
  "bc-batch": { describe: "BC: minibatch size", min: 1, max: 65536, int: true },
  "bc-lr": { describe: "BC: learning rate", min: 0, max: 1, minExclusive: true },
  "bc-validation-deals": { describe: "BC: training deals held out for validation loss", min: 0, max: 1e6, int: true },
  "bc-batches-per-update": { describe: "BC: minibatches per metrics row", min: 1, max: 1e6, int: true },
  "dagger-rounds": { describe: "BC: DAgger rounds (policy plays, solver labels its positions)", min: 0, max: 1000, int: true },
  "dagger-deals": { describe: "BC: fresh training deals per DAgger round", min: 1, max: 1e6, int: true },
  "dagger-states": { describe: "BC: positions per game sent to the solver", min: 1, max: 10_000, int: true },
  "dagger-max-states": { describe: "BC: solver budget per DAgger position", min: 1, max: 2 ** 28, int: true },
  "dagger-epochs": { describe: "BC: epochs over all data after each round", min: 0, max: 1000 },
  "solver-max-states": { describe: "BC: solver budget per training deal", min: 1, max: 2 ** 28, int: true },
  "solver-timeout-ms": { describe: "BC: solver time per training deal", min: 1, max: 1e8 },
  envs: { describe: "PPO: parallel environments", min: 1, max: 4096, int: true },
  "rollout-steps": { describe: "PPO: steps per env per update", min: 1, max: 100_000, int: true },
  "ppo-epochs": { describe: "PPO: passes per update", min: 1, max: 1000, int: true },
  minibatches: { describe: "PPO: minibatches per pass", min: 1, max: 1e6, int: true },
  lr: { describe: "PPO learning rate", min: 0, max: 1, minExclusive: true },
  gamma: { describe: "PPO discount", min: 0, max: 1 },
  "gae-lambda": { describe: "PPO GAE lambda", min: 0, max: 1 },
  clip: { describe: "PPO clip range", min: 0, max: 10, minExclusive: true },
  "ent-coef": { describe: "PPO entropy bonus", min: 0, max: 100 },
  "vf-coef": { describe: "PPO value-loss weight", min: 0, max: 100 },
  "max-grad-norm": { describe: "PPO gradient clipping (0 = off)", min: 0, max: 1e6 },
  "max-minutes": { describe: "wall-clock budget (0 = none); the run then stops and evaluates", min: 0, max: 1e6 },
  workers: { describe: "ES: worker threads that play the generation's games", min: 1, max: 64, int: true },
  "es-pop": { describe: "ES: antithetic pairs per generation", min: 1, max: 10_000, int: true },
  "es-deals": { describe: "ES: fresh training deals per generation", min: 1, max: 1e6, int: true },
  "es-sigma": { describe: "ES: perturbation size (in units of each weight's scale)", min: 0, max: 100, minExclusive: true },
  "es-lr": { describe: "ES: Adam step size", min: 0, max: 100, minExclusive: true },
  "es-generations": { describe: "ES: generations (0 = until --max-minutes)", min: 0, max: 1e7, int: true },
  "es-max-steps": { describe: "ES: move cap of a training game", min: 1, max: 100_000, int: true },
  "es-val-deals": { describe: "ES: validation deals (seeds 1,500,000 up)", min: 1, max: 1e6, int: true },
  "es-val-every": { describe: "ES: generations between validations", min: 1, max: 1e6, int: true },
  ...SAFETY_NUMBERS,
};

async function handler(a: TrainArgs): Promise<void> {
  // Ranges first: nothing is created or read for a run with a bad number.
  checkAll(TRAIN_NUMBERS, a as unknown as Record<string, unknown>);
  const dir = a.resume ?? a.out;
  const off = stopOnSignals((line) => process.stderr.write(`penguin train: ${line}\n`));
  try {
    await dispatch(a);
  } finally {
    off();
  }
  if (stopRequested() && dir !== undefined)
    process.stderr.write(
      a.resume === undefined && a.algo === "safety"
        ? `penguin train: stopped; the best network so far is in ${join(dir, "checkpoint")}\n`
        : `penguin train: stopped; \`penguin train --resume ${dir}\` continues\n`,
    );
}

/** Options a resumed bc/ppo run may not take: it keeps the settings in its config.json. */
function refuseResumeOptions(dir: string): void {
  const flags = process.argv.filter((x) => x.startsWith("--")).map((x) => x.slice(2).split("=")[0]!).filter((f) => f !== "resume");
  if (flags.length) throw new UsageError(`a resumed run keeps the settings in ${join(dir, "config.json")}; leave out ${flags.map((f) => `--${f}`).join(" ")}`);
}

async function dispatch(a: TrainArgs): Promise<void> {
  if (a.resume === undefined && a.algo === "safety") return handleSafety(a);
  // TensorFlow.js loads only for this command, so the other commands start fast.
  if (a.resume !== undefined && runAlgo(a.resume) === "es") return handleEs(a, a.resume);
  if (a.resume !== undefined && runAlgo(a.resume) === "safety")
    throw new UsageError(`${a.resume} is a safety run, which does not resume: run it again, or continue from its network with --algo safety --init ${a.resume} --out NEW`);
  if (a.resume !== undefined && given("algo")) throw new UsageError(`--resume continues a run with its own algorithm; leave out --algo (${a.resume} is not an ES run)`);
  if (a.resume === undefined && a.algo === "es") {
    if (!a.out) throw new UsageError("name the run folder with --out DIR (or continue one with --resume DIR)");
    return handleEs(a);
  }
  const { train, resume } = await import("../train/trainer.js");
  if (a.resume !== undefined) {
    refuseResumeOptions(a.resume);
    const r = await resume(a.resume);
    if (r.final) console.log(JSON.stringify({ run: r.run, backend: r.backend, ...r.final }));
    return;
  }
  if (a.algo !== "ppo" && a.algo !== "bc") throw new UsageError(`unknown --algo ${JSON.stringify(a.algo)}; allowed: ppo, bc, es, safety`);
  if (!a.out) throw new UsageError("name the run folder with --out DIR (or continue one with --resume DIR)");
  if (a["lr-schedule"] !== "linear" && a["lr-schedule"] !== "constant") throw new UsageError(`--lr-schedule must be linear or constant, got ${a["lr-schedule"]}`);
  if (a.reward !== "cards" && a.reward !== "win") throw new UsageError(`--reward must be cards or win, got ${a.reward}`);
  const hidden = a.hidden.split(",").map((x) => Number(x.trim()));
  const r = await train({
    algo: a.algo,
    rules: rulesFromArgs(a),
    out: a.out,
    seed: a.seed,
    hidden,
    features: a.features as FeatureKind,
    totalSteps: a["total-steps"],
    thenPpoSteps: a["then-ppo-steps"],
    trainDealStart: a["train-deal-start"],
    trainDeals: a["train-deals"],
    evalDealStart: a["eval-deal-start"],
    evalDeals: a["eval-deals"],
    evalDuring: a["eval-during"],
    evalEvery: a["eval-every"],
    checkpointEvery: a["checkpoint-every"],
    maxSteps: a["max-steps"],
    repeatGuard: a["repeat-guard"],
    bcEpochs: a["bc-epochs"],
    bcBatch: a["bc-batch"],
    bcLr: a["bc-lr"],
    bcBatchesPerUpdate: a["bc-batches-per-update"],
    bcValidationDeals: a["bc-validation-deals"],
    daggerRounds: a["dagger-rounds"],
    daggerDeals: a["dagger-deals"],
    daggerStates: a["dagger-states"],
    daggerMaxStates: a["dagger-max-states"],
    daggerEpochs: a["dagger-epochs"],
    solverMaxStates: a["solver-max-states"],
    solverTimeoutMs: a["solver-timeout-ms"],
    cacheDir: a["cache-dir"],
    envs: a.envs,
    rolloutSteps: a["rollout-steps"],
    ppoEpochs: a["ppo-epochs"],
    minibatches: a.minibatches,
    ppoLr: a.lr,
    gamma: a.gamma,
    gaeLambda: a["gae-lambda"],
    clip: a.clip,
    entCoef: a["ent-coef"],
    vfCoef: a["vf-coef"],
    maxGradNorm: a["max-grad-norm"],
    lrSchedule: a["lr-schedule"],
    reward: a.reward,
    maxMinutes: a["max-minutes"],
  });
  if (r.final) console.log(JSON.stringify({ run: r.run, backend: r.backend, ...r.final }));
}

// config.ts holds the defaults and imports no TensorFlow.js, so `penguin --help` stays fast.
const D = TRAIN_DEFAULTS;
const DEFAULTS = { ...D, hidden: D.hidden.join(",") };
/** ES defaults, copied from ES_DEFAULTS (src/train/es/es.ts) so that --help loads no TensorFlow.js; a test checks they agree. */
export const ES = { pop: 10, deals: 60, fixedDeals: false, sigma: 0.3, lr: 0.1, lrSchedule: "constant", generations: 0, maxSteps: 400, valDeals: 200, valEvery: 4 } as const;

export const trainCommand: CommandModule<object, TrainArgs> = {
  command: "train",
  describe: "train a policy network (PPO or behaviour cloning from the solver) into a run folder",
  builder: (y: Argv<object>) => {
    let b = withRuleOptions(y)
      .option("algo", { type: "string", default: "ppo", describe: "ppo | bc (behaviour cloning from solver solutions) | es (evolution strategies on the linear action-scorer) | safety (move-safety network on penguin dataset labels)" })
      .option("out", { type: "string", describe: "run folder (config.json, metrics.csv, curve.svg, checkpoint/)" })
      .option("resume", { type: "string", describe: "continue the run in this folder from its last checkpoint" })
      .option("seed", { type: "number", default: DEFAULTS.seed, describe: "seeds weights, sampling and shuffling" })
      .option("features", { type: "string", default: DEFAULTS.features, describe: "network input: env (the environment's own observation, as VecEnv gives it) | env+slots (adds the column-end cards and the legal mask)" })
      .option("hidden", { type: "string", default: DEFAULTS.hidden, describe: "hidden layer sizes, comma-separated" })
      .option("total-steps", { type: "number", default: DEFAULTS.totalSteps, describe: "PPO: environment steps" })
      .option("then-ppo-steps", { type: "number", default: 0, describe: "BC: PPO fine-tuning steps afterwards" })
      .option("train-deal-start", { type: "number", default: DEFAULTS.trainDealStart, describe: "first training deal seed" })
      .option("train-deals", { type: "number", default: DEFAULTS.trainDeals, describe: "BC: training deals to solve" })
      .option("eval-deal-start", { type: "number", default: DEFAULTS.evalDealStart, describe: "first held-out evaluation deal seed" })
      .option("eval-deals", { type: "number", default: DEFAULTS.evalDeals, describe: "held-out deals of the final evaluation" })
      .option("eval-during", { type: "number", default: DEFAULTS.evalDuring, describe: "evaluation deals played for the learning curve" })
      .option("eval-every", { type: "number", default: DEFAULTS.evalEvery, describe: "updates between curve evaluations" })
      .option("checkpoint-every", { type: "number", default: DEFAULTS.checkpointEvery, describe: "updates between checkpoints" })
      .option("max-steps", { type: "number", default: DEFAULTS.maxSteps, describe: "move limit per game" })
      .option("repeat-guard", { type: "boolean", default: true, describe: "mask moves back to a seen position (--no-repeat-guard to turn off)" })
      .option("bc-epochs", { type: "number", default: DEFAULTS.bcEpochs })
      .option("bc-batch", { type: "number", default: DEFAULTS.bcBatch })
      .option("bc-lr", { type: "number", default: DEFAULTS.bcLr })
      .option("bc-validation-deals", { type: "number", default: DEFAULTS.bcValidationDeals, describe: "BC: training deals held out for validation loss" })
      .option("bc-batches-per-update", { type: "number", default: DEFAULTS.bcBatchesPerUpdate, describe: "BC: minibatches per metrics row" })
      .option("dagger-rounds", { type: "number", default: DEFAULTS.daggerRounds, describe: "BC: DAgger rounds (policy plays, solver labels its positions)" })
      .option("dagger-deals", { type: "number", default: DEFAULTS.daggerDeals, describe: "BC: fresh training deals per DAgger round" })
      .option("dagger-states", { type: "number", default: DEFAULTS.daggerStates, describe: "BC: positions per game sent to the solver" })
      .option("dagger-max-states", { type: "number", default: DEFAULTS.daggerMaxStates, describe: "BC: solver budget per DAgger position" })
      .option("dagger-epochs", { type: "number", default: DEFAULTS.daggerEpochs, describe: "BC: epochs over all data after each round" })
      .option("solver-max-states", { type: "number", default: DEFAULTS.solverMaxStates })
      .option("solver-timeout-ms", { type: "number", default: DEFAULTS.solverTimeoutMs })
      .option("cache-dir", { type: "string", default: DEFAULTS.cacheDir, describe: "where solver solutions are cached" })
      .option("envs", { type: "number", default: DEFAULTS.envs, describe: "PPO: parallel environments" })
      .option("rollout-steps", { type: "number", default: DEFAULTS.rolloutSteps, describe: "PPO: steps per env per update" })
      .option("ppo-epochs", { type: "number", default: DEFAULTS.ppoEpochs })
      .option("minibatches", { type: "number", default: DEFAULTS.minibatches })
      .option("lr", { type: "number", default: DEFAULTS.ppoLr, describe: "PPO learning rate" })
      .option("gamma", { type: "number", default: DEFAULTS.gamma })
      .option("gae-lambda", { type: "number", default: DEFAULTS.gaeLambda })
      .option("clip", { type: "number", default: DEFAULTS.clip })
      .option("ent-coef", { type: "number", default: DEFAULTS.entCoef })
      .option("vf-coef", { type: "number", default: DEFAULTS.vfCoef })
      .option("max-grad-norm", { type: "number", default: DEFAULTS.maxGradNorm })
      .option("max-minutes", { type: "number", default: 0, describe: "wall-clock budget (0 = none); the run then stops and evaluates" })
      .option("lr-schedule", { type: "string", default: "linear", describe: "linear | constant" })
      .option("workers", { type: "number", default: 1, describe: "ES: worker threads that play the generation's games" })
      .option("es-pop", { type: "number", default: ES.pop, describe: "ES: antithetic pairs per generation" })
      .option("es-deals", { type: "number", default: ES.deals, describe: "ES: fresh training deals per generation" })
      .option("es-fixed-deals", { type: "boolean", default: false, describe: "ES: replay the same --es-deals training deals every generation" })
      .option("es-sigma", { type: "number", default: ES.sigma, describe: "ES: perturbation size (in units of each weight's scale)" })
      .option("es-lr", { type: "number", default: ES.lr, describe: "ES: Adam step size" })
      .option("es-lr-schedule", { type: "string", default: ES.lrSchedule, describe: "ES: constant | linear (falls to 0 over --es-generations)" })
      .option("es-generations", { type: "number", default: ES.generations, describe: "ES: generations (0 = until --max-minutes)" })
      .option("es-max-steps", { type: "number", default: ES.maxSteps, describe: "ES: move cap of a training game" })
      .option("es-val-deals", { type: "number", default: ES.valDeals, describe: "ES: validation deals (seeds 1,500,000 up)" })
      .option("es-val-every", { type: "number", default: ES.valEvery, describe: "ES: generations between validations" })
      .option("reward", { type: "string", default: "cards", describe: "PPO reward: cards (1/52 per card home) | win" });
    for (const [k, spec] of Object.entries(SAFETY_NUMBERS)) b = b.option(k, yargsNumber(spec));
    for (const [k, spec] of Object.entries(SAFETY_STRINGS)) b = b.option(k, spec);
    // The help shows each number's allowed range, from the one spec the handler checks.
    for (const [k, spec] of Object.entries(TRAIN_NUMBERS)) if (!(k in SAFETY_NUMBERS)) b = b.describe(k, `${spec.describe} (${rangeText(spec)})`);
    return b as unknown as Argv<TrainArgs>;
  },
  handler,
};
