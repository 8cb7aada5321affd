/**
 * n environments of one id stepped together, with every tensor in one typed array (row i is
 * sub-environment i): observations n × obsSize floats, masks n × actions bytes, rewards and
 * end flags n each. step() allocates nothing except a new deal when an episode ends.
 *
 * Seeds: `reset({ seed })` deals sub-env i from seed + i; its k-th following episode uses
 * seed + i + k × n. So the batch plays seed, seed + 1, seed + 2, … with no deal played twice, and
 * the same seed gives the same trajectories on every machine. `reset()` without a seed the first
 * time uses seed 1. A deal with no legal action at all (possible only in tiny rule variants) is
 * skipped for the next seed of its sub-env.
 *
 * Autoreset mode: "same-step" (Gymnasium's SAME_STEP). When sub-env i's episode ends on a step,
 * that step's rewards[i], terminated[i], truncated[i] belong to the ending episode; its last
 * observation, mask and info go to finalObservations / finalMasks / final* row i, and
 * observations[i] / masks[i] already show the first position of the next episode, so the next
 * action for i is chosen from the new deal. The final* rows are valid only where terminated[i]
 * or truncated[i] is 1 on that step.
 */
import { UsageError } from "../errors.js";
import { DEFAULT_SEED, PenguinEnv } from "./env.js";
import { resolveEnvOptions, type EnvOptions } from "./registry.js";

export type AutoresetMode = "same-step";

export interface VecStepResult {
  observations: Float32Array;
  masks: Uint8Array;
  rewards: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
}

const MAX_DEAD_DEALS = 1000;

export class VecEnv {
  readonly autoresetMode: AutoresetMode = "same-step";
  readonly envs: readonly PenguinEnv[];
  readonly obsSize: number;
  /** Actions per sub-env (actionSpace.n). */
  readonly numActions: number;
  readonly observations: Float32Array;
  readonly masks: Uint8Array;
  readonly rewards: Float32Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  /** Last observation, mask and info of episodes that ended on the latest step (rows where ended). */
  readonly finalObservations: Float32Array;
  readonly finalMasks: Uint8Array;
  readonly finalCardsHome: Uint8Array;
  readonly finalSteps: Int32Array;
  readonly finalWon: Uint8Array;
  readonly finalReturns: Float32Array;
  readonly finalSeeds: Float64Array;
  /** Seed of each sub-env's current episode (refreshed by reset and step). */
  readonly seeds: Float64Array;
  #started = false;
  readonly #result: VecStepResult;

  constructor(
    readonly n: number,
    readonly id: string,
    readonly options: EnvOptions = {},
  ) {
    if (!Number.isInteger(n) || n < 1 || n > 65536)
      throw new UsageError(`VecEnv size must be an integer from 1 to 65536, got ${n}`);
    const { spec, rules, settings } = resolveEnvOptions(id, options);
    const probe = new PenguinEnv(spec, rules, settings);
    this.obsSize = probe.encoder.size;
    this.numActions = probe.codec.n;
    this.observations = new Float32Array(n * this.obsSize);
    this.masks = new Uint8Array(n * this.numActions);
    this.rewards = new Float32Array(n);
    this.terminated = new Uint8Array(n);
    this.truncated = new Uint8Array(n);
    this.finalObservations = new Float32Array(n * this.obsSize);
    this.finalMasks = new Uint8Array(n * this.numActions);
    this.finalCardsHome = new Uint8Array(n);
    this.finalSteps = new Int32Array(n);
    this.finalWon = new Uint8Array(n);
    this.finalReturns = new Float32Array(n);
    this.finalSeeds = new Float64Array(n);
    this.seeds = new Float64Array(n);
    const envs: PenguinEnv[] = [];
    for (let i = 0; i < n; i++) {
      const env = new PenguinEnv(spec, rules, settings, {
        observation: this.observations.subarray(i * this.obsSize, (i + 1) * this.obsSize),
        actionMask: this.masks.subarray(i * this.numActions, (i + 1) * this.numActions),
      });
      env.seedStride = n;
      envs.push(env);
    }
    this.envs = envs;
    this.#result = {
      observations: this.observations,
      masks: this.masks,
      rewards: this.rewards,
      terminated: this.terminated,
      truncated: this.truncated,
    };
  }

  get observationSpace(): PenguinEnv["observationSpace"] {
    return this.envs[0]!.observationSpace;
  }
  get actionSpace(): PenguinEnv["actionSpace"] {
    return this.envs[0]!.actionSpace;
  }

  /** Deals sub-env i from seed + i (see the file comment). */
  reset(options: { seed?: number } = {}): { observations: Float32Array; masks: Uint8Array } {
    const seed = options.seed ?? (this.#started ? undefined : DEFAULT_SEED);
    for (let i = 0; i < this.n; i++) this.#resetOne(i, seed === undefined ? undefined : seed + i);
    this.rewards.fill(0);
    this.terminated.fill(0);
    this.truncated.fill(0);
    this.#started = true;
    return { observations: this.observations, masks: this.masks };
  }

  #resetOne(i: number, seed: number | undefined): void {
    const env = this.envs[i]!;
    env.reset(seed === undefined ? {} : { seed });
    for (let k = 0; env.done; k++) {
      if (k >= MAX_DEAD_DEALS)
        throw new UsageError(
          `${MAX_DEAD_DEALS} deals in a row have no legal action under these rules`,
        );
      env.reset();
    }
    this.seeds[i] = env.info.seed;
  }

  /** Steps sub-env i with actions[i]; ended episodes restart at once (autoreset "same-step"). */
  step(actions: ArrayLike<number>): VecStepResult {
    if (!this.#started) throw new UsageError("call reset() before step()");
    if (actions.length < this.n)
      throw new UsageError(`step needs ${this.n} actions, got ${actions.length}`);
    const size = this.obsSize;
    const na = this.numActions;
    // Check every action first, so a bad one throws before any sub-env has moved.
    for (let i = 0; i < this.n; i++) {
      const a = actions[i]!;
      if (a >= 0 && a < na && this.masks[i * na + a] === 1) continue;
      try {
        this.envs[i]!.step(a);
      } catch (e) {
        if (e instanceof Error) e.message = `sub-env ${i}: ${e.message}`;
        throw e;
      }
    }
    for (let i = 0; i < this.n; i++) {
      const env = this.envs[i]!;
      const r = env.step(actions[i]!);
      this.rewards[i] = r.reward;
      this.terminated[i] = r.terminated ? 1 : 0;
      this.truncated[i] = r.truncated ? 1 : 0;
      if (r.terminated || r.truncated) {
        this.finalObservations.set(env.observation, i * size);
        this.finalMasks.set(env.actionMask, i * na);
        const info = env.info;
        this.finalCardsHome[i] = info.cardsHome;
        this.finalSteps[i] = info.steps;
        this.finalWon[i] = info.won ? 1 : 0;
        this.finalReturns[i] = info.episodeReturn;
        this.finalSeeds[i] = info.seed;
        this.#resetOne(i, undefined);
      }
      this.seeds[i] = env.info.seed; // also right after an env.restore() of a checkpoint
    }
    return this.#result;
  }
}
