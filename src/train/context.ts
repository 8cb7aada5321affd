/** What the training phases share: options, run folder, network, optimizer and resumable state. */
import type { Rules } from "../engine/rules.js";
import { ActionCodec } from "../env/actions.js";
import type { Adam } from "./adam.js";
import { saveCheckpoint } from "./checkpoint.js";
import type { TrainOptions } from "./config.js";
import { PolicyFeatures } from "../players/policy/features.js";
import type { PolicyNet } from "./model.js";
import { playPolicy } from "./play.js";
import type { RngState } from "../util/rng.js";
import type { MetricRow, RunFolder } from "./run.js";

export interface BcProgress {
  /** 0 = behaviour cloning on solver solutions; r ≥ 1 = training after DAgger round r. */
  stage: number;
  epoch: number;
  /** Next minibatch of the epoch. */
  batch: number;
  /** Generator state before this epoch's shuffle (the permutation is drawn again on resume). */
  epochRng: RngState;
  samples: number;
}

export interface PpoProgress {
  update: number;
  envSteps: number;
  rng: RngState;
  /** Each sub-env's episode (PenguinEnv.serialize()) and its seen positions ([lo, hi] hashes). */
  envs: string[];
  seen: [number, number][][];
}

export interface TrainerState {
  phase: "bc" | "ppo" | "done";
  /** Metrics rows written so far (= updates across phases). */
  update: number;
  bc?: BcProgress;
  ppo?: PpoProgress;
  rows: MetricRow[];
  wallSeconds: number;
}

import { stopRequested } from "./stop.js";

export class TrainContext {
  readonly codec: ActionCodec;
  readonly encoder: PolicyFeatures;
  readonly rules: Rules;
  #startedAt = performance.now();
  /** Set when the maxMinutes budget ran out: training ends, the final evaluation still runs. */
  outOfTime = false;
  #wallBase: number;

  constructor(
    readonly o: TrainOptions,
    readonly run: RunFolder,
    public net: PolicyNet,
    public opt: Adam,
    public st: TrainerState,
  ) {
    this.rules = o.rules;
    this.codec = new ActionCodec(o.rules);
    this.encoder = new PolicyFeatures(o.rules, net.config.features ?? "env");
    this.#wallBase = st.wallSeconds;
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
    const r = await playPolicy(this.net, this.rules, this.evalSeeds(this.o.evalDuring), {
      maxSteps: this.o.maxSteps,
      repeatGuard: this.o.repeatGuard,
    });
    return { winRate: r.winRate, cards: r.meanCardsHome };
  }

  shouldEval(): boolean {
    return this.o.evalEvery > 0 && this.o.evalDuring > 0 && this.st.update % this.o.evalEvery === 0;
  }

  /** Records a metrics row; checkpoints on schedule. Returns true when the run must stop (test hook). */
  async endUpdate(row: MetricRow, forceCheckpoint = false): Promise<boolean> {
    row.wall_s = this.wall();
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

  /** Saves a checkpoint; redraws the learning curve when asked (drawing takes longer than saving). */
  async checkpoint(curve = true): Promise<void> {
    this.st.wallSeconds = this.wall();
    await saveCheckpoint(this.run.checkpointDir, this.net, this.opt, this.st);
    if (curve) await this.drawCurve();
  }

  async drawCurve(): Promise<void> {
    try {
      await this.run.writeCurve(`penguin train ${this.o.algo}: ${this.run.dir}`);
    } catch (e) {
      this.run.log(`warning: could not draw curve.svg (${(e as Error).message})`);
    }
  }
}
