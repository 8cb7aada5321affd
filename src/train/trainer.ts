/**
 * Runs a training job end to end: new run or `--resume`, behaviour cloning and/or PPO, the final
 * evaluation on the held-out deals, and the run folder's files.
 */
import { join } from "node:path";
import { rulesLabel } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import { ActionCodec } from "../env/actions.js";
import { PolicyFeatures } from "../players/policy/features.js";
import { Adam, ADAM_DEFAULTS } from "./adam.js";
import { initBackend, type BackendName } from "./backend.js";
import { loadBcData, trainBc } from "./bc.js";
import { checkpointPath, CheckpointError, loadCheckpoint } from "./checkpoint.js";
import { describeDeals, validateOptions, type TrainOptions } from "./config.js";
import { TrainContext, type TrainerState } from "./context.js";
import type { SolveFn } from "./dataset.js";
import { buildPolicyNet, trainableVariables, type PolicyNet } from "./model.js";
import { playPolicy, wilson95 } from "./play.js";
import { trainPpo } from "./ppo.js";
import { RunFolder } from "./run.js";

export interface FinalEval {
  deals: { start: number; count: number };
  games: number;
  wins: number;
  winRate: number;
  winRate95: [number, number];
  meanCardsHome: number;
  seconds: number;
}

export interface TrainResult {
  run: string;
  backend: BackendName;
  stopped: boolean;
  final?: FinalEval;
  net: PolicyNet;
}

function makeAdam(net: PolicyNet, o: TrainOptions): Adam {
  return new Adam(trainableVariables(net), { ...ADAM_DEFAULTS, maxGradNorm: o.maxGradNorm });
}

export interface TrainHooks {
  /** A solver to use instead of src/solver (tests). */
  solver?: SolveFn;
  /** Skip the final evaluation on all evaluation deals (tests). */
  skipFinalEval?: boolean;
  /** Write progress to train.log only. */
  quiet?: boolean;
}

/** Starts a new run in o.out (refusing a folder that already holds a checkpoint). */
export async function train(o: TrainOptions, hooks: TrainHooks = {}): Promise<TrainResult> {
  validateOptions(o);
  if (checkpointPath(join(o.out, "checkpoint")))
    throw new UsageError(
      `${o.out} already holds a run: use --resume to continue it, or choose another --out`,
    );
  const backend = await initBackend();
  const run = new RunFolder(o.out);
  run.quiet = hooks.quiet ?? false;
  const net = buildPolicyNet({
    ...netShape(o),
    hidden: o.hidden,
    seed: o.seed,
    features: o.features,
  });
  const st: TrainerState = {
    phase: o.algo === "bc" ? "bc" : "ppo",
    update: 0,
    rows: [],
    wallSeconds: 0,
  };
  run.writeConfig(o.algo, o.rules, o);
  run.writeJson("deals.json", describeDeals(o));
  run.log(
    `penguin train --algo ${o.algo} on ${rulesLabel(o.rules)}, backend ${backend}, net ${net.config.obsSize}-${o.hidden.join("-")}-${net.config.actions}, run ${o.out}`,
  );
  return continueRun(new TrainContext(o, run, net, makeAdam(net, o), st), backend, hooks);
}

/** Continues a killed run from its last checkpoint, with the options recorded in its config.json. */
export async function resume(
  dir: string,
  overrides: Partial<TrainOptions> = {},
  hooks: TrainHooks = {},
): Promise<TrainResult> {
  const run = new RunFolder(dir);
  run.quiet = hooks.quiet ?? false;
  const saved = run.readJson<TrainOptions>("config.json");
  if (!saved) throw new UsageError(`${dir} is not a run folder (no config.json)`);
  if (!checkpointPath(run.checkpointDir))
    throw new UsageError(`${dir} has no checkpoint to resume from`);
  const o: TrainOptions = { ...saved, ...overrides, out: dir };
  const backend = await initBackend();
  const cp = await loadCheckpoint<TrainerState>(run.checkpointDir);
  const opt = makeAdam(cp.net, o);
  if (!cp.optimizer)
    throw new CheckpointError(`damaged checkpoint ${run.checkpointDir}: optimizer state missing`);
  opt.restore(cp.optimizer.named, cp.optimizer.step);
  Object.values(cp.optimizer.named).forEach((t) => t.dispose());
  run.log(
    `resuming ${dir} at update ${cp.trainer.update} (phase ${cp.trainer.phase}), backend ${backend}`,
  );
  return continueRun(new TrainContext(o, run, cp.net, opt, cp.trainer), backend, hooks);
}

function netShape(o: TrainOptions): { obsSize: number; actions: number } {
  return {
    obsSize: new PolicyFeatures(o.rules, o.features).size,
    actions: new ActionCodec(o.rules).n,
  };
}

async function continueRun(
  ctx: TrainContext,
  backend: BackendName,
  hooks: TrainHooks,
): Promise<TrainResult> {
  const o = ctx.o;
  const st = ctx.st;
  ctx.run.truncate(st.rows.length, st.rows);
  let stopped = false;
  if (st.phase === "bc") {
    const solutions = await loadBcData(ctx, hooks.solver);
    stopped = await trainBc(ctx, solutions, hooks.solver);
    if (!stopped) {
      st.phase = o.thenPpoSteps > 0 ? "ppo" : "done";
      await ctx.checkpoint();
    }
  }
  if (!stopped && st.phase === "ppo") {
    stopped = await trainPpo(ctx, o.algo === "ppo" ? o.totalSteps : o.thenPpoSteps);
    if (!stopped) {
      st.phase = "done";
      await ctx.checkpoint();
    }
  }
  if (ctx.outOfTime)
    ctx.run.log(
      `time budget of ${o.maxMinutes} min used up at update ${st.update}: training stops here`,
    );
  if (stopped && !ctx.outOfTime) {
    ctx.run.log(`stopped after update ${st.update} (checkpoint written)`);
    return { run: o.out, backend, stopped, net: ctx.net };
  }
  let final: FinalEval | undefined;
  const trainWall = ctx.wall();
  if (!hooks.skipFinalEval) {
    const seeds = ctx.evalSeeds(o.evalDeals);
    const r = await playPolicy(ctx.net, ctx.rules, seeds, {
      maxSteps: o.maxSteps,
      repeatGuard: o.repeatGuard,
    });
    final = {
      deals: { start: o.evalDealStart, count: seeds.length },
      games: r.games,
      wins: r.wins,
      winRate: r.winRate,
      winRate95: wilson95(r.wins, r.games),
      meanCardsHome: r.meanCardsHome,
      seconds: r.seconds,
    };
    ctx.run.writeJson("final.json", {
      ...final,
      trainWallSeconds: trainWall,
      stoppedByTimeBudget: ctx.outOfTime,
      updates: st.update,
      backend,
    });
    ctx.run.log(
      `final: ${r.wins}/${r.games} held-out deals won (${(r.winRate * 100).toFixed(1)}%, 95% CI ${(final.winRate95[0] * 100).toFixed(1)}–${(final.winRate95[1] * 100).toFixed(1)}%), mean cards home ${r.meanCardsHome.toFixed(1)}`,
    );
  }
  return { run: o.out, backend, stopped, final, net: ctx.net };
}
