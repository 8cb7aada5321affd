/**
 * Evolution strategies (Salimans et al. 2017, "Evolution Strategies as a Scalable Alternative to
 * Reinforcement Learning") for the linear action-scorer: the policy is one weight per column of the
 * scorer's action rows (41 for Penguin), starting at greedy(tuned)'s weights, and each generation
 * moves the weights along the win-rate gradient estimated from antithetic perturbations.
 *
 * Why ES and not gradients: imitation of the lookahead agent stalls at its 1-ply agreement
 * (docs/train-scorer.md), and what we want is the win rate itself, a step function of the weights.
 * ES optimises it directly from whole games, and 41 weights are few enough for it.
 *
 * A generation: draw `pop` Gaussian directions e_i; play `deals` fresh training deals with
 * θ + σ e_i and θ − σ e_i (the same deals for every member); turn the fitnesses into centred
 * ranks; step θ with Adam along Σ (rank⁺ − rank⁻) e_i / (pop σ). θ is in units of `scale` (half a
 * tuned weight, at least 0.25, for the greedy features; 1 for the extra columns, which are
 * normalised to about [0, 1]), so one σ fits all columns. Every `valEvery` generations the mean weights play the
 * validation deals; the best ever (ties: the later) is the run's checkpoint.
 *
 * Reproducible: every random draw comes from one seeded sfc32 Rng whose state is saved with θ and
 * the Adam moments after each generation (resume/, the one checkpoint format of
 * src/train/checkpoint.ts), and fitness depends only on weights and deal seeds, so a resumed run,
 * or one with a different number of workers, reaches the same weights.
 */
import { join } from "node:path";
import { rulesLabel } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import { FEATURES } from "../../agents/move-features.js";
import { ActionCodec } from "../../env/actions.js";
import { defaultMaxSteps } from "../../env/registry.js";
import { wilson } from "../../eval/stats.js";
import { initBackend, tf } from "../backend.js";
import { RunFolder } from "../run.js";
import { writeLineCurve, type CurvePoint } from "../curve.js";
import { Rng } from "../../util/rng.js";
import { FEATURE_ROW_NAMES, ROW } from "../../players/scorer/features.js";
import { buildScorer, saveScorer, tunedRowWeights, type ScorerNet } from "../scorer/model.js";
import { ScorePool, type ScoreTask } from "./pool.js";
import { stopRequested } from "../stop.js";
import { ES_DEFAULTS, type EsOptions } from "./options.js";
import { checkSplit, type DealSplit } from "../splits.js";
import {
  CheckpointError,
  hasResume,
  loadResume,
  RESUME_DIR,
  rngOf,
  saveResume,
  stepOf,
  tensorOf,
} from "../checkpoint.js";

export { ES_DEFAULTS, type EsOptions };

/** Where the run stands after a generation: what a resume needs besides θ, the moments and the generator. */
export interface EsState {
  generation: number;
  nextSeed: number;
  theta: Float64Array;
  adamM: Float64Array;
  adamV: Float64Array;
  rng: number[];
  best: { generation: number; winRate: number };
  /** The checkpoint's weights, so a resume can rewrite a checkpoint a kill left half-written. */
  bestTheta: Float64Array;
  games: number;
  seconds: number;
}

/** The ES state in a run folder's resume/ checkpoint (undefined when there is none). */
export function readEsState(runFolder: string): EsState | undefined {
  const cp = loadResume<{ best: EsState["best"]; seconds: number }>(runFolder, "es");
  if (!cp) return undefined;
  const best = cp.state?.best;
  if (typeof best?.winRate !== "number" || typeof best.generation !== "number")
    throw new CheckpointError(`damaged checkpoint ${cp.dir}: the best validation is missing`);
  return {
    generation: stepOf(cp, "generation"),
    nextSeed: stepOf(cp, "nextSeed"),
    games: stepOf(cp, "games"),
    theta: tensorOf(cp, "theta", ROW) as Float64Array,
    adamM: tensorOf(cp, "adamM", ROW) as Float64Array,
    adamV: tensorOf(cp, "adamV", ROW) as Float64Array,
    bestTheta: tensorOf(cp, "bestTheta", ROW) as Float64Array,
    rng: rngOf(cp, "es"),
    best,
    seconds: Number(cp.state.seconds) || 0,
  };
}

const COLUMNS = [
  "generation",
  "deals",
  "games",
  "mean_fitness",
  "best_member_fitness",
  "val_win_rate",
  "games_per_s",
  "wall_s",
] as const;
type Row = Partial<Record<(typeof COLUMNS)[number], number>>;

/** Starting weights (greedy tuned on the greedy-feature columns, 0 elsewhere) and the per-column step scale. */
export function esBasis(): { w0: Float64Array; scale: Float64Array } {
  const w0 = tunedRowWeights(ROW);
  const scale = new Float64Array(ROW).fill(1);
  FEATURES.forEach((_, i) => (scale[i] = Math.max(Math.abs(w0[i]!) * 0.5, 0.25)));
  // dead-end's weight (100) only needs to stay far above the rest; steps of 0.25 would never matter.
  const dead = FEATURES.findIndex((f) => f.name === "dead-end");
  if (dead >= 0) scale[dead] = 10;
  return { w0, scale };
}

export function weightsOf(
  theta: Float64Array,
  w0: Float64Array,
  scale: Float64Array,
  dir?: Float64Array,
  step = 0,
): Float64Array {
  const w = new Float64Array(ROW);
  // Rounded to float32, as the checkpoint stores them: training, validation and `penguin eval` play the same weights.
  for (let j = 0; j < ROW; j++)
    w[j] = Math.fround(w0[j]! + scale[j]! * (theta[j]! + (dir ? step * dir[j]! : 0)));
  return w;
}

/** A standard normal draw from the run's generator (Box–Muller). */
function normal(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** The linear scorer as a tfjs network (hidden layers none, head zero, skip = w), for checkpoints and eval. */
export function linearScorer(w: Float64Array, actions: number, seed: number): ScorerNet {
  const net = buildScorer({ actions, row: ROW, hidden: [], seed, init: "zero" });
  const head = net.model.getLayer("head");
  const zeros = head.getWeights().map((t) => tf.zerosLike(t));
  head.setWeights(zeros);
  tf.dispose(zeros);
  const k = tf.tensor2d(Float32Array.from(w), [ROW, 1]);
  net.model.getLayer("skip").setWeights([k]);
  k.dispose();
  return net;
}

async function writeCurve(dir: string, rows: readonly Row[]): Promise<void> {
  const points: CurvePoint[] = [];
  for (const r of rows) {
    if (r.mean_fitness !== undefined)
      points.push({
        x: r.generation!,
        value: r.mean_fitness,
        series: "mean fitness on the generation's training deals",
      });
    if (r.val_win_rate !== undefined)
      points.push({
        x: r.generation!,
        value: r.val_win_rate,
        series: "win rate of the mean weights (validation deals)",
      });
  }
  await writeLineCurve(
    dir,
    "evolution strategies on the linear action-scorer; generation -1 = greedy(tuned)'s weights",
    "generation",
    points,
  );
}

export interface EsResult {
  generations: number;
  bestGeneration: number;
  bestValidationWinRate: number;
  theta: Float64Array;
  seconds: number;
  games: number;
  /** True when a signal stopped the run (its state is saved; --resume continues). */
  stopped?: boolean;
}

function checkOptions(o: EsOptions): void {
  const posInt = (name: string, v: number, min: number): void => {
    if (!Number.isInteger(v) || v < min)
      throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${v}`);
  };
  posInt("es-pop", o.pop, 1);
  posInt("es-deals", o.deals, 1);
  posInt("validation-deals", o.valDeals, 1);
  posInt("es-val-every", o.valEvery, 1);
  posInt("es-generations", o.generations, 0);
  posInt("workers", o.workers, 1);
  posInt("es-max-steps", o.maxSteps, 1);
  if (!(o.sigma > 0)) throw new UsageError(`--es-sigma must be > 0, got ${o.sigma}`);
  if (!(o.lr > 0)) throw new UsageError(`--lr must be > 0, got ${o.lr}`);
  if (o.lrSchedule !== "constant" && o.lrSchedule !== "linear")
    throw new UsageError(`--lr-schedule must be constant or linear, got ${String(o.lrSchedule)}`);
  if (o.lrSchedule === "linear" && o.generations === 0)
    throw new UsageError(
      "--lr-schedule linear decays over --es-generations: give it a number of generations",
    );
  if (!(o.minutes >= 0)) throw new UsageError(`--max-minutes must be ≥ 0, got ${o.minutes}`);
  if (o.minutes === 0 && o.generations === 0)
    throw new UsageError("give the run an end: --es-generations N or --max-minutes M");
  checkSplit(esSplit(o));
}

/** Training deals: `deals` fresh ones per generation from trainStart (or the same `deals` ones); validation from valStart. */
function esSplit(o: EsOptions): DealSplit {
  const count = o.fixedDeals ? o.deals : o.generations > 0 ? o.deals * o.generations : undefined;
  return {
    training: { from: o.trainStart, ...(count !== undefined ? { count } : {}) },
    validation: { from: o.valStart, count: o.valDeals },
  };
}

/** Starts a run in `out` (which must not hold one), or continues it with `resume: true`. */
export async function trainEs(partial: Partial<EsOptions> = {}, resume = false): Promise<EsResult> {
  let o: EsOptions = {
    ...ES_DEFAULTS,
    ...partial,
    maxSteps: partial.maxSteps ?? ES_DEFAULTS.maxSteps,
  };
  let saved: EsState | undefined;
  if (resume) {
    if (!hasResume(o.out))
      throw new CheckpointError(`${o.out} has no ${RESUME_DIR}/ checkpoint to resume from`);
    const cfg = new RunFolder(o.out).readJson<{
      algo?: string;
      options?: EsOptions;
      columns?: string[];
    }>("config.json");
    if (!cfg) throw new CheckpointError(`damaged ES run ${o.out}: config.json is missing`);
    if (cfg.algo !== "es" || !cfg.options)
      throw new UsageError(`${o.out} is not an ES run (config.json has no ES options)`);
    if (JSON.stringify(cfg.columns) !== JSON.stringify(FEATURE_ROW_NAMES))
      throw new UsageError(
        `the ES run in ${o.out} was trained on other action-row columns than this build computes`,
      );
    const G = partial.generations ?? cfg.options.generations;
    if (cfg.options.lrSchedule === "linear" && G !== cfg.options.generations)
      throw new UsageError(
        `the run's step size decays over ${cfg.options.generations} generations: it cannot be resumed with another --es-generations`,
      );
    // The run's own options win, except where it lives, the budget and the workers, which a resume may change.
    o = {
      ...ES_DEFAULTS,
      ...cfg.options,
      out: o.out,
      minutes: partial.minutes ?? cfg.options.minutes,
      workers: partial.workers ?? cfg.options.workers,
      generations: G,
      quiet: o.quiet,
    };
    saved = readEsState(o.out);
  } else if (hasResume(o.out))
    throw new UsageError(
      `${o.out} already holds an ES run: resume it with --resume ${o.out}, or choose another --out`,
    );
  checkOptions(o);
  const t0 = performance.now() - (saved?.seconds ?? 0) * 1000;
  const elapsed = (): number => (performance.now() - t0) / 1000;
  const backend = await initBackend();
  const run = new RunFolder(o.out, COLUMNS);
  run.quiet = o.quiet;
  const log = (line: string): void => run.log(line);
  const rules = o.rules;
  const A = new ActionCodec(rules).n;
  if (!saved) {
    run.writeConfig("es", rules, { options: o, actions: A, columns: FEATURE_ROW_NAMES });
    run.writeJson("deals.json", checkSplit(esSplit(o)));
  }
  log(
    `${saved ? "resuming" : "starting"} ES: backend ${backend}; ${rulesLabel(rules)}; ${ROW} weights, pop ${o.pop} pairs × ${o.deals} deals, σ ${o.sigma}, lr ${o.lr} (${o.lrSchedule}), ${o.workers} worker(s)`,
  );

  const { w0, scale } = esBasis();
  const theta = Float64Array.from(saved?.theta ?? new Array<number>(ROW).fill(0));
  const m = Float64Array.from(saved?.adamM ?? new Array<number>(ROW).fill(0));
  const v = Float64Array.from(saved?.adamV ?? new Array<number>(ROW).fill(0));
  const rng = new Rng(`es/${o.seed}`);
  if (saved) rng.setState(saved.rng);
  let generation = saved?.generation ?? 0;
  let stopped = false;
  let nextSeed = saved?.nextSeed ?? o.trainStart;
  let best = saved?.best ?? { generation: -1, winRate: -1 };
  const bestTheta = Float64Array.from(saved?.bestTheta ?? new Array<number>(ROW).fill(0));
  // On resume, the rows up to the saved generation (a killed run may have written some after it).
  const rows: Row[] = saved
    ? run.readMetrics().filter((r) => (r.generation ?? Infinity) < generation)
    : [];
  const record = async (row: Row): Promise<void> => {
    rows.push(row);
    run.truncate(rows.length, rows);
    await writeCurve(o.out, rows);
  };
  const pool = new ScorePool(rules, o.workers);
  const valSeeds = Array.from({ length: o.valDeals }, (_, i) => o.valStart + i);
  const validate = async (w: Float64Array): Promise<number> => {
    // Chunks of the validation deals, so workers share them.
    const chunk = Math.ceil(valSeeds.length / Math.max(1, o.workers * 4));
    const tasks: ScoreTask[] = [];
    for (let i = 0; i < valSeeds.length; i += chunk)
      tasks.push({ w, seeds: valSeeds.slice(i, i + chunk), maxSteps: defaultMaxSteps(rules) });
    const res = await pool.run(tasks);
    return res.reduce((a, r) => a + r.wins, 0) / valSeeds.length;
  };
  /** Writes the checkpoint (the network of bestTheta, the best validation so far). */
  const saveBest = async (): Promise<void> => {
    const net = linearScorer(weightsOf(bestTheta, w0, scale), A, o.seed);
    await saveScorer(join(o.out, "checkpoint"), net, {
      algo: "es",
      generation: best.generation,
      validationWinRate: best.winRate,
      validationDeals: valSeeds.length,
    });
    net.model.dispose();
  };
  const saveState = (): void =>
    saveResume(o.out, {
      algo: "es",
      steps: { generation, nextSeed, games },
      rngs: { es: rng.getState() },
      tensors: { theta, adamM: m, adamV: v, bestTheta },
      state: { best, seconds: elapsed() },
    });

  let games = saved?.games ?? 0;
  try {
    // A kill between the checkpoint's two files would leave it unloadable: write it again.
    if (saved) await saveBest();
    else {
      const wr = await validate(weightsOf(theta, w0, scale));
      games += valSeeds.length;
      best = { generation: -1, winRate: wr };
      bestTheta.set(theta);
      await saveBest();
      await record({ generation: -1, val_win_rate: wr, wall_s: elapsed() });
      log(
        `generation -1 (greedy tuned's weights): validation win rate ${(wr * 100).toFixed(1)}% on ${valSeeds.length} deals`,
      );
      saveState();
    }
    const done = (): boolean =>
      (o.generations > 0 && generation >= o.generations) ||
      (o.minutes > 0 && elapsed() >= o.minutes * 60);
    while (!done()) {
      const tg = performance.now();
      const seeds = Array.from(
        { length: o.deals },
        (_, i) => (o.fixedDeals ? o.trainStart : nextSeed) + i,
      );
      if (!o.fixedDeals) nextSeed += o.deals;
      const dirs: Float64Array[] = [];
      const tasks: ScoreTask[] = [];
      for (let p = 0; p < o.pop; p++) {
        const e = new Float64Array(ROW);
        for (let j = 0; j < ROW; j++) e[j] = normal(rng);
        dirs.push(e);
        tasks.push({ w: weightsOf(theta, w0, scale, e, o.sigma), seeds, maxSteps: o.maxSteps });
        tasks.push({ w: weightsOf(theta, w0, scale, e, -o.sigma), seeds, maxSteps: o.maxSteps });
      }
      const fit = (await pool.run(tasks)).map((r) => r.fitness);
      games += tasks.length * seeds.length;
      // Centred ranks, robust to the deals' difficulty and to outliers. Tied fitnesses share their
      // mean rank, so a pair whose two members play alike (common: the policy is an argmax) adds nothing.
      const order = fit.map((_, i) => i).sort((a, b) => fit[a]! - fit[b]! || a - b);
      const rank = new Float64Array(fit.length);
      for (let i = 0; i < order.length; ) {
        let j = i;
        while (j + 1 < order.length && fit[order[j + 1]!] === fit[order[i]!]) j++;
        const r = fit.length > 1 ? (i + j) / 2 / (fit.length - 1) - 0.5 : 0;
        for (let k = i; k <= j; k++) rank[order[k]!] = r;
        i = j + 1;
      }
      const grad = new Float64Array(ROW);
      for (let p = 0; p < o.pop; p++) {
        const c = rank[2 * p]! - rank[2 * p + 1]!;
        for (let j = 0; j < ROW; j++) grad[j] = grad[j]! + (c * dirs[p]![j]!) / (o.pop * o.sigma);
      }
      // Adam (ascent), bias-corrected.
      const t = generation + 1;
      // The schedule counts generations, not seconds, so a run's weights do not depend on the machine's speed.
      const lr = o.lrSchedule === "linear" ? o.lr * (1 - generation / o.generations) : o.lr;
      for (let j = 0; j < ROW; j++) {
        m[j] = 0.9 * m[j]! + 0.1 * grad[j]!;
        v[j] = 0.999 * v[j]! + 0.001 * grad[j]! * grad[j]!;
        theta[j] =
          theta[j]! +
          (lr * (m[j]! / (1 - 0.9 ** t))) / (Math.sqrt(v[j]! / (1 - 0.999 ** t)) + 1e-8);
      }
      const row: Row = {
        generation,
        deals: o.deals,
        games: tasks.length * seeds.length,
        mean_fitness: fit.reduce((a, b) => a + b, 0) / fit.length / o.deals,
        best_member_fitness: Math.max(...fit) / o.deals,
        games_per_s: (tasks.length * seeds.length) / ((performance.now() - tg) / 1000),
      };
      generation++;
      let line = `generation ${row.generation}: mean fitness ${row.mean_fitness!.toFixed(3)}, ${row.games_per_s!.toFixed(0)} games/s`;
      // The last generation is always validated (a run stopped by its time budget too).
      const last = done();
      if (generation % o.valEvery === 0 || last) {
        const wr = await validate(weightsOf(theta, w0, scale));
        games += valSeeds.length;
        row.val_win_rate = wr;
        line += `; validation win rate ${(wr * 100).toFixed(1)}%`;
        if (wr >= best.winRate) {
          best = { generation: row.generation!, winRate: wr };
          bestTheta.set(theta);
          await saveBest();
          line += " (best: checkpoint)";
        }
      }
      row.wall_s = elapsed();
      await record(row);
      saveState();
      log(`${line} (${elapsed().toFixed(0)} s)`);
      if (last) break;
      await new Promise((r) => setImmediate(r));
      if (stopRequested()) {
        stopped = true;
        break;
      }
    }
  } finally {
    await pool.close();
  }
  if (stopped) {
    log(`stopped after generation ${generation - 1} (state saved)`);
    return {
      generations: generation,
      bestGeneration: best.generation,
      bestValidationWinRate: best.winRate,
      theta,
      seconds: elapsed(),
      games,
      stopped,
    };
  }
  const vi = wilson(Math.round(best.winRate * valSeeds.length), valSeeds.length);
  const summary = {
    backend,
    generations: generation,
    seconds: elapsed(),
    games,
    bestGeneration: best.generation,
    bestValidationWinRate: best.winRate,
    bestValidationWilson95: [vi.low, vi.high],
    trainingSeeds: [o.trainStart, nextSeed - 1],
    validationSeeds: [o.valStart, o.valStart + o.valDeals - 1],
    weights: Object.fromEntries(
      FEATURE_ROW_NAMES.map((n, j) => [n, Number(weightsOf(theta, w0, scale)[j]!.toPrecision(6))]),
    ),
  };
  run.writeJson("summary.json", summary);
  log(
    `done: ${generation} generations in ${summary.seconds.toFixed(0)} s; checkpoint = generation ${best.generation} (validation ${(best.winRate * 100).toFixed(1)}%)`,
  );
  return {
    generations: generation,
    bestGeneration: best.generation,
    bestValidationWinRate: best.winRate,
    theta,
    seconds: summary.seconds,
    games,
  };
}

/** `penguin train es`: a new run in `runFolder` with ES_DEFAULTS where `options` gives none. */
export function train(options: Partial<EsOptions>, runFolder: string): Promise<EsResult> {
  return trainEs({ ...options, out: runFolder });
}

/** Continues the ES run in `runFolder`; `changes`: the budget, generations or workers. */
export function resume(runFolder: string, changes: Partial<EsOptions> = {}): Promise<EsResult> {
  return trainEs({ ...changes, out: runFolder }, true);
}
