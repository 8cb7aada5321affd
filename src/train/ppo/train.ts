/**
 * `penguin train ppo`: a PPO run end to end, new (`train`) or continued (`resume`), then the final
 * evaluation on the held-out deals. The run folder's files are described in docs/train.md.
 */
import { join } from "node:path";
import { resolveRules, rulesLabel } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import { ActionCodec } from "../../env/actions.js";
import { defaultMaxSteps } from "../../env/registry.js";
import { PolicyFeatures } from "../../players/policy/features.js";
import { Adam, ADAM_DEFAULTS } from "../adam.js";
import { initBackend, type BackendName } from "../backend.js";
import { checkpointPath, hasResume, loadCheckpoint, RESUME_DIR, rngOf } from "../checkpoint.js";
import { buildPolicyNet, trainableVariables, type NetConfig, type PolicyNet } from "../model.js";
import { playPolicy, wilson95 } from "../play.js";
import { RunFolder } from "../run.js";
import { restoreTrainables } from "../weights.js";
import { TrainContext, type TrainerState } from "./context.js";
import { describeDeals, PPO_DEFAULTS, validateOptions, type PpoOptions } from "./options.js";
import { trainPpo } from "./update.js";
import {
  afterstateVariables,
  buildAfterstateNet,
  playAfterstate,
  restoreScaling,
  trainAfterstate,
} from "./afterstate.js";
import type { AfterstateConfig } from "../../players/policy/afterstate.js";
import {
  loadSafetyPolicy,
  playSafetyPolicy,
  rebuildSafetyPolicy,
  safetyPolicyVariables,
  trainSafetyPolicy,
  type SafetyPolicyConfig,
} from "./safety.js";

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
  /** The observation policy (undefined for the after-state policy). */
  net: PolicyNet | undefined;
}

function makeAdam(vars: ReturnType<typeof trainableVariables>, o: PpoOptions): Adam {
  return new Adam(vars, { ...ADAM_DEFAULTS, maxGradNorm: o.maxGradNorm });
}

export interface TrainHooks {
  /** Skip the final evaluation on all evaluation deals (tests). */
  skipFinalEval?: boolean;
  /** Write progress to train.log only. */
  quiet?: boolean;
}

/** The full options: PPO_DEFAULTS, Penguin's rules and their move limit where `o` gives none. */
export function ppoOptions(o: Partial<PpoOptions>, runFolder: string): PpoOptions {
  const rules = o.rules ?? resolveRules("penguin");
  return {
    ...PPO_DEFAULTS,
    ...o,
    rules,
    out: runFolder,
    maxSteps: o.maxSteps ?? defaultMaxSteps(rules),
  };
}

/** Starts a new PPO run in `runFolder` (refusing a folder that already holds one). */
export async function train(
  options: Partial<PpoOptions>,
  runFolder: string,
  hooks: TrainHooks = {},
): Promise<TrainResult> {
  const o = ppoOptions(options, runFolder);
  validateOptions(o);
  if (hasResume(o.out) || checkpointPath(join(o.out, "checkpoint")))
    throw new UsageError(
      `${o.out} already holds a run: use --resume to continue it, or choose another --out`,
    );
  const backend = await initBackend();
  const run = new RunFolder(o.out);
  run.quiet = hooks.quiet ?? false;
  const st: TrainerState = { phase: "ppo", update: 0, rows: [], wallSeconds: 0 };
  if (o.policy === "safety") {
    const pol = loadSafetyPolicy(o.init, o.hidden, o.seed, new ActionCodec(o.rules).columns);
    writeRunFiles(run, o);
    run.log(
      `penguin train ppo on ${rulesLabel(o.rules)}, backend ${backend}, safety policy from ${pol.config.from} (softmax over the guarded moves at τ ${o.policyTemperature}), value head ${pol.config.net.headHidden.at(-1)}-${o.hidden.join("-")}-1, run ${o.out}`,
    );
    const opt = makeAdam(safetyPolicyVariables(pol), o);
    return continueRun(
      new TrainContext(o, run, undefined, opt, st, undefined, pol),
      backend,
      hooks,
    );
  }
  if (o.policy === "afterstate") {
    const after = buildAfterstateNet(o.hidden, new ActionCodec(o.rules).n, o.seed);
    writeRunFiles(run, o);
    run.log(
      `penguin train ppo on ${rulesLabel(o.rules)}, backend ${backend}, after-state policy ${after.config.row}-${o.hidden.join("-")}-1 per legal move, run ${o.out}`,
    );
    const opt = makeAdam(afterstateVariables(after), o);
    return continueRun(new TrainContext(o, run, undefined, opt, st, after), backend, hooks);
  }
  const net = buildPolicyNet({
    ...netShape(o),
    hidden: o.hidden,
    seed: o.seed,
    features: o.features,
  });
  writeRunFiles(run, o);
  run.log(
    `penguin train ppo on ${rulesLabel(o.rules)}, backend ${backend}, net ${net.config.obsSize}-${o.hidden.join("-")}-${net.config.actions}, run ${o.out}`,
  );
  const opt = makeAdam(trainableVariables(net), o);
  return continueRun(new TrainContext(o, run, net, opt, st), backend, hooks);
}

function writeRunFiles(run: RunFolder, o: PpoOptions): void {
  // The test hook is not a setting of the run: a resume must not inherit it.
  const { out: _out, stopAfterUpdates: _stop, ...recorded } = o;
  run.writeConfig("ppo", o.rules, { ...recorded, algo: "ppo" });
  run.writeJson("deals.json", describeDeals(o));
}

/** Continues a stopped or killed run from its last checkpoint, with the options recorded in its config.json. */
export async function resume(
  runFolder: string,
  overrides: Partial<PpoOptions> = {},
  hooks: TrainHooks = {},
): Promise<TrainResult> {
  const run = new RunFolder(runFolder);
  run.quiet = hooks.quiet ?? false;
  const saved = run.readJson<PpoOptions>("config.json");
  if (!saved) throw new UsageError(`${runFolder} is not a run folder (no config.json)`);
  if (!hasResume(runFolder)) throw new UsageError(`${runFolder} has no checkpoint to resume from`);
  // Runs recorded before the after-state policy existed trained the observation policy.
  const o: PpoOptions = {
    ...saved,
    policy: saved.policy ?? "observation",
    ...overrides,
    out: runFolder,
  };
  const backend = await initBackend();
  const dir = join(runFolder, RESUME_DIR);
  const cp = loadCheckpoint<
    TrainerState & { net?: NetConfig; afterstate?: AfterstateConfig; safety?: SafetyPolicyConfig }
  >(dir, "ppo");
  const { net: config, afterstate, safety, ...st } = cp.state;
  if (safety) {
    const pol = rebuildSafetyPolicy(safety, o.seed);
    const opt = makeAdam(safetyPolicyVariables(pol), o);
    restoreTrainables(cp, safetyPolicyVariables(pol), opt);
    run.log(`resuming ${runFolder} at update ${st.update}, backend ${backend}`);
    const ctx = new TrainContext(o, run, undefined, opt, st, undefined, pol);
    ctx.rng.setState(rngOf(cp, "ppo"));
    return continueRun(ctx, backend, hooks);
  }
  if (afterstate) {
    const after = buildAfterstateNet(afterstate.hidden, afterstate.actions, o.seed);
    const opt = makeAdam(afterstateVariables(after), o);
    restoreTrainables(cp, afterstateVariables(after), opt);
    restoreScaling(cp, after);
    run.log(`resuming ${runFolder} at update ${st.update}, backend ${backend}`);
    const ctx = new TrainContext(o, run, undefined, opt, st, after);
    ctx.rng.setState(rngOf(cp, "ppo"));
    return continueRun(ctx, backend, hooks);
  }
  if (!config) throw new UsageError(`${dir} holds no PPO network; start a new run`);
  const net = buildPolicyNet(config);
  const opt = makeAdam(trainableVariables(net), o);
  restoreTrainables(cp, trainableVariables(net), opt);
  run.log(`resuming ${runFolder} at update ${st.update}, backend ${backend}`);
  const ctx = new TrainContext(o, run, net, opt, st);
  ctx.rng.setState(rngOf(cp, "ppo"));
  return continueRun(ctx, backend, hooks);
}

function netShape(o: PpoOptions): { obsSize: number; actions: number } {
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
  if (st.phase === "ppo") {
    stopped = ctx.safety
      ? await trainSafetyPolicy(ctx, o.totalSteps)
      : ctx.after
        ? await trainAfterstate(ctx, o.totalSteps)
        : await trainPpo(ctx, o.totalSteps);
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
    const r = ctx.safety
      ? playSafetyPolicy(ctx.safety, ctx.rules, seeds, o.maxSteps)
      : ctx.after
        ? playAfterstate(ctx.after, ctx.rules, ctx.codec, seeds, o.maxSteps)
        : await playPolicy(ctx.net!, ctx.rules, seeds, {
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
