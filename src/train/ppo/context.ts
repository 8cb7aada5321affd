/** What a PPO run's parts share: options, run folder, network, optimizer, generator and resumable state. */
import type { Rules } from "../../engine/rules.js";
import { ActionCodec } from "../../env/actions.js";
import { PolicyFeatures } from "../../players/policy/features.js";
import { Rng } from "../../util/rng.js";
import type { Adam } from "../adam.js";
import { saveResume } from "../checkpoint.js";
import { trainableVariables, type PolicyNet } from "../model.js";
import { playPolicy } from "../play.js";
import type { MetricRow, RunFolder } from "../run.js";
import { stopRequested } from "../stop.js";
import { savePolicyModel, trainables } from "../weights.js";
import type { PpoOptions } from "./options.js";
import {
  afterstateVariables,
  playAfterstate,
  saveAfterstatePolicy,
  scalingTensors,
  type AfterstateNet,
} from "./afterstate.js";
import {
  playSafetyPolicy,
  safetyPolicyVariables,
  saveSafetyPolicy,
  type SafetyPolicyNet,
} from "./safety.js";

export interface PpoProgress {
  update: number;
  envSteps: number;
  /** Each sub-env's episode (PenguinEnv.serialize()) and its seen positions ([lo, hi] hashes). */
  envs: string[];
  seen: [number, number][][];
  /** After-state policy: each game's deal and moves so far (a resume replays them). */
  games?: { seed: number; moves: number[] }[];
  /** After-state policy: the next training deal. */
  nextSeed?: number;
  /** After-state policy: the input scaling has been measured. */
  scaled?: boolean;
}

/** The JSON part of PPO's checkpoint (its weights, moments and generator are stored apart). */
export interface TrainerState {
  phase: "ppo" | "done";
  /** Metrics rows written so far. */
  update: number;
  ppo?: PpoProgress;
  rows: MetricRow[];
  wallSeconds: number;
  /** CPU seconds of the process (every thread) spent on the run so far. */
  cpuSeconds?: number;
}

export class TrainContext {
  readonly codec: ActionCodec;
  readonly encoder: PolicyFeatures;
  readonly rules: Rules;
  /** Every sampling and shuffling choice of the run. */
  readonly rng: Rng;
  #startedAt = performance.now();
  /** Set when the maxMinutes budget ran out: training ends, the final evaluation still runs. */
  outOfTime = false;
  #wallBase: number;
  #cpuBase: number;
  readonly #cpuAt = process.cpuUsage();

  constructor(
    readonly o: PpoOptions,
    readonly run: RunFolder,
    /** The observation policy (--policy observation), or the after-state policy in `after`. */
    public net: PolicyNet | undefined,
    public opt: Adam,
    public st: TrainerState,
    public after?: AfterstateNet,
    /** The safety policy (--policy safety). */
    public safety?: SafetyPolicyNet,
  ) {
    this.rules = o.rules;
    this.rng = new Rng(`${o.seed}/ppo`);
    this.codec = new ActionCodec(o.rules);
    this.encoder = new PolicyFeatures(o.rules, net?.config.features ?? "env");
    this.#wallBase = st.wallSeconds;
    this.#cpuBase = st.cpuSeconds ?? 0;
  }

  /** CPU seconds of the run so far, every thread of the process (TensorFlow's too). */
  cpu(): number {
    const u = process.cpuUsage(this.#cpuAt);
    return this.#cpuBase + (u.user + u.system) / 1e6;
  }

  wall(): number {
    return this.#wallBase + (performance.now() - this.#startedAt) / 1000;
  }

  evalSeeds(count: number): number[] {
    return Array.from(
      { length: Math.min(count, this.o.evalDeals) },
      (_, i) => this.o.evalDealStart + i,
    );
  }

  /** Win rate and cards home on the first evalDuring evaluation deals (the learning curve). */
  async evaluateDuring(): Promise<{ winRate: number; cards: number }> {
    if (this.safety) {
      const r = playSafetyPolicy(
        this.safety,
        this.rules,
        this.evalSeeds(this.o.evalDuring),
        this.o.maxSteps,
      );
      return { winRate: r.winRate, cards: r.meanCardsHome };
    }
    if (this.after) {
      const r = playAfterstate(
        this.after,
        this.rules,
        this.codec,
        this.evalSeeds(this.o.evalDuring),
        this.o.maxSteps,
      );
      return { winRate: r.winRate, cards: r.meanCardsHome };
    }
    const r = await playPolicy(this.net!, this.rules, this.evalSeeds(this.o.evalDuring), {
      maxSteps: this.o.maxSteps,
      repeatGuard: this.o.repeatGuard,
    });
    return { winRate: r.winRate, cards: r.meanCardsHome };
  }

  shouldEval(): boolean {
    return this.o.evalEvery > 0 && this.o.evalDuring > 0 && this.st.update % this.o.evalEvery === 0;
  }

  /**
   * The metrics row of one finished update (either policy): losses averaged over its minibatches,
   * rollout figures and speeds, and at evaluation updates (and the last) the learning curve's point
   * and a log line. `update`, `envSteps` are the counts after it; `positions` per rollout.
   */
  async updateRow(u: {
    update: number;
    updates: number;
    envSteps: number;
    positions: number;
    sums: Float64Array;
    episodes: number;
    wins: number;
    meanReward: number | "";
    lr: number;
    rollSecs: number;
    updSecs: number;
    last: boolean;
  }): Promise<MetricRow> {
    const k = this.o.ppoEpochs * this.o.minibatches;
    const stepsPerS = Math.round(u.positions / u.rollSecs);
    const samplesPerS = Math.round((u.positions * this.o.ppoEpochs) / u.updSecs);
    const row: MetricRow = {
      phase: "ppo",
      update: this.st.update,
      env_steps: u.envSteps,
      samples: u.update * u.positions * this.o.ppoEpochs,
      loss: u.sums[0]! / k,
      policy_loss: u.sums[1]! / k,
      value_loss: u.sums[2]! / k,
      entropy: u.sums[3]! / k,
      approx_kl: u.sums[4]! / k,
      clip_frac: u.sums[5]! / k,
      mean_reward: u.meanReward,
      episodes: u.episodes,
      rollout_win_rate: u.episodes ? u.wins / u.episodes : "",
      lr: u.lr,
      env_steps_per_s: u.positions / u.rollSecs,
      samples_per_s: (u.positions * this.o.ppoEpochs) / u.updSecs,
    };
    if (this.shouldEval() || u.last) {
      const e = await this.evaluateDuring();
      Object.assign(row, { eval_win_rate: e.winRate, eval_cards_home: e.cards });
      const ret = u.meanReward === "" ? "-" : u.meanReward.toFixed(3);
      this.run.log(
        `ppo update ${u.update}/${u.updates} steps ${u.envSteps}: episodes ${u.episodes} won ${u.wins} return ${ret} entropy ${(u.sums[3]! / k).toFixed(3)} eval win ${(e.winRate * 100).toFixed(1)}% ${stepsPerS} env steps/s ${samplesPerS} samples/s`,
      );
    }
    return row;
  }

  /**
   * Closes one update of any policy: counts it, writes its metrics row (evaluating on schedule),
   * lets `keep` store what a resume replays, then checkpoints on schedule. True when the run
   * must stop.
   */
  async finishUpdate(
    p: PpoProgress,
    u: Omit<Parameters<TrainContext["updateRow"]>[0], "update" | "envSteps" | "last">,
    keep: () => void,
  ): Promise<boolean> {
    p.update++;
    p.envSteps += u.positions;
    this.st.update++;
    const last = p.update === u.updates;
    const row = await this.updateRow({ ...u, update: p.update, envSteps: p.envSteps, last });
    keep();
    return this.endUpdate(row, last);
  }

  /** Records a metrics row; checkpoints on schedule. Returns true when the run must stop (test hook). */
  async endUpdate(row: MetricRow, forceCheckpoint = false): Promise<boolean> {
    row.wall_s = this.wall();
    row.cpu_s = this.cpu();
    this.st.rows.push(row);
    this.run.rows = this.st.rows.slice();
    this.run.writeMetrics();
    if (this.o.maxMinutes > 0 && this.wall() > this.o.maxMinutes * 60) this.outOfTime = true;
    // One event-loop turn per update, so a SIGINT/SIGTERM handler gets to run.
    await new Promise((r) => setImmediate(r));
    const stop =
      this.outOfTime ||
      stopRequested() ||
      (this.o.stopAfterUpdates !== undefined && this.st.update >= this.o.stopAfterUpdates);
    if (forceCheckpoint || stop || this.st.update % this.o.checkpointEvery === 0)
      await this.checkpoint(row.eval_win_rate !== undefined || forceCheckpoint);
    else if (row.eval_win_rate !== undefined) await this.drawCurve();
    return stop;
  }

  /**
   * Saves the network a player loads (checkpoint/) and the state a resume continues from
   * (resume/); redraws the learning curve when asked (drawing takes longer than saving).
   */
  async checkpoint(curve = true): Promise<void> {
    this.st.wallSeconds = this.wall();
    this.st.cpuSeconds = this.cpu();
    const after = this.after;
    const safety = this.safety;
    const vars = safety
      ? safetyPolicyVariables(safety)
      : after
        ? afterstateVariables(after)
        : trainableVariables(this.net!);
    const { tensors, steps } = trainables(vars, this.opt);
    if (safety) saveSafetyPolicy(this.run.checkpointDir, safety, { update: this.st.update });
    else if (after) saveAfterstatePolicy(this.run.checkpointDir, after, { update: this.st.update });
    else await savePolicyModel(this.run.checkpointDir, this.net!, { update: this.st.update });
    saveResume(this.run.dir, {
      algo: "ppo",
      steps: { ...steps, update: this.st.update },
      rngs: { ppo: this.rng.getState() },
      tensors: after ? { ...tensors, ...scalingTensors(after) } : tensors,
      state: safety
        ? { ...this.st, safety: safety.config }
        : after
          ? { ...this.st, afterstate: after.config }
          : { ...this.st, net: this.net!.config },
    });
    if (curve) await this.drawCurve();
  }

  async drawCurve(): Promise<void> {
    try {
      await this.run.writeCurve(`penguin train ppo: ${this.run.dir}`);
    } catch (e) {
      this.run.log(`warning: could not draw curve.svg (${(e as Error).message})`);
    }
  }
}
