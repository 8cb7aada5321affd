/**
 * checkEnv: the generic check for an environment with this package's interface (after Gymnasium's
 * check_env and Pgx's API test). It plays seeded random episodes and verifies, at every step, what
 * learning code silently relies on. It returns a report, or throws an Error naming the first
 * failure (env id, seed, step and what was wrong).
 */
import { createHash } from "node:crypto";
import { UsageError } from "../errors.js";
import { CELL0, FOUNDATION, generateMoves, MAX_MOVES, moveTo, type Move } from "../engine/moves.js";
import { parseMove } from "../engine/notation.js";
import type { State } from "../engine/state.js";
import { Rng } from "../util/rng.js";
import { deserializeEnv, type ResetResult, type StepResult } from "./env.js";

/** What checkEnv needs from an environment: the members of PenguinEnv it reads. */
export interface CheckableEnv {
  readonly id: string;
  readonly actionSpace: { readonly n: number };
  readonly observationSpace: {
    readonly shape: readonly number[];
    readonly low: number;
    readonly high: number;
  };
  readonly rewardRange: readonly [number, number];
  readonly settings: { readonly maxSteps: number };
  readonly codec: {
    encode(s: State, m: Move): number;
    decode(s: State, a: number): Move;
    actionToString(a: number): string;
    parseAction(text: string): number;
  };
  readonly state: State;
  /** The current observation and mask (reset and step results are views of these). */
  readonly observation: Float32Array;
  readonly actionMask: Uint8Array;
  reset(options?: { seed?: number }): ResetResult;
  step(a: number): StepResult;
  clone(): CheckableEnv;
  serialize(): string;
}

export interface CheckEnvOptions {
  /** Episodes to play (default 8). */
  episodes?: number;
  /** Seed of the first episode's deal and of the action choices (default 1). */
  seed?: number;
  /** Turns serialize() text back into an env (default deserializeEnv, for this package's envs). */
  deserialize?: (text: string) => CheckableEnv;
}

export interface CheckEnvReport {
  id: string;
  episodes: number;
  /** Positions checked (each reset and each step). */
  positions: number;
  /** Episodes won, truncated (maxSteps) and ended with no legal move. */
  won: number;
  truncated: number;
  stuck: number;
  /** The checks that passed, in words. */
  checks: string[];
}

const CHECKS = [
  "same seed, same trajectory (actions, rewards, flags, observation bytes)",
  "mask == legal engine moves, both ways; decode(encode(m)) == m; the action text parses to the move",
  "every action id round-trips through its text",
  "observation has the declared shape, finite values within [low, high]",
  "clone and serialize round trips give the same position, mask and next step",
  "rewards within rewardRange; their sum equals info.episodeReturn",
  "episodes end (terminated or truncated) within settings.maxSteps",
];

const REQUIRED: readonly [string, string][] = [
  ["reset", "function"],
  ["step", "function"],
  ["clone", "function"],
  ["serialize", "function"],
  ["actionSpace", "object"],
  ["observationSpace", "object"],
  ["rewardRange", "object"],
  ["settings", "object"],
  ["codec", "object"],
  ["observation", "object"],
  ["actionMask", "object"],
];

/** A short hash of an observation's bytes (not of its sum, which many different tensors share). */
export function observationHash(o: Float32Array): string {
  return createHash("sha256")
    .update(new Uint8Array(o.buffer, o.byteOffset, o.byteLength))
    .digest("hex")
    .slice(0, 16);
}

function asEnv(x: unknown): CheckableEnv {
  const missing =
    x !== null && typeof x === "object"
      ? REQUIRED.filter(([k, t]) => typeof (x as Record<string, unknown>)[k] !== t).map(([k, t]) =>
          t === "function" ? `${k}()` : k,
        )
      : REQUIRED.map(([k]) => k);
  if (missing.length)
    throw new UsageError(
      `checkEnv: not an environment (missing ${missing.join(", ")}); pass one from makeEnv(id) or an object with ${REQUIRED.map(([k, t]) => (t === "function" ? `${k}()` : k)).join(", ")}`,
    );
  return x as CheckableEnv;
}

function intOption(name: string, v: unknown, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
    throw new UsageError(
      `checkEnv: ${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`,
    );
  return v;
}

/** A legal action, chosen at random but preferring foundation and column moves so games go deep. */
/** A legal action (mostly a move to a column or home), or undefined when the mask is empty. */
function pick(env: CheckableEnv, rnd: () => number): number | undefined {
  const mask = env.actionMask;
  const legal: number[] = [];
  const good: number[] = [];
  for (let a = 0; a < mask.length; a++) {
    if (!mask[a]) continue;
    legal.push(a);
    const to = moveTo(env.codec.decode(env.state, a));
    if (to === FOUNDATION || to < CELL0) good.push(a);
  }
  const from = good.length && rnd() < 0.85 ? good : legal;
  return from[Math.floor(rnd() * from.length)];
}

export function checkEnv(envLike: unknown, options: CheckEnvOptions = {}): CheckEnvReport {
  const env = asEnv(envLike);
  if (options === null || typeof options !== "object")
    throw new UsageError("checkEnv: options must be an object { episodes?, seed?, deserialize? }");
  const episodes = intOption("episodes", options.episodes, 8, 1, 100_000);
  const seed0 = intOption("seed", options.seed, 1, 1, 2 ** 31 - 1);
  const deserialize = options.deserialize ?? ((t: string) => deserializeEnv(t) as CheckableEnv);
  const report: CheckEnvReport = {
    id: env.id,
    episodes,
    positions: 0,
    won: 0,
    truncated: 0,
    stuck: 0,
    checks: CHECKS,
  };
  const moves = new Int32Array(MAX_MOVES);
  let where = "";
  const fail = (why: string): never => {
    throw new Error(`checkEnv(${env.id}) ${where}: ${why}`);
  };
  const n = env.actionSpace.n;
  const size = env.observationSpace.shape.reduce((a, b) => a * b, 1);
  const [rLow, rHigh] = env.rewardRange;
  const maxSteps = env.settings.maxSteps;

  where = "action codec";
  for (let a = 0; a < n; a++) {
    const t = env.codec.actionToString(a);
    if (env.codec.parseAction(t) !== a)
      fail(`action ${a} prints as "${t}", which parses to ${env.codec.parseAction(t)}`);
  }

  const checkPosition = (o: Float32Array): void => {
    report.positions++;
    if (o.length !== size)
      fail(`observation has ${o.length} values, observationSpace.shape says ${size}`);
    for (let i = 0; i < o.length; i++) {
      const v = o[i]!;
      if (!Number.isFinite(v) || v < env.observationSpace.low || v > env.observationSpace.high)
        fail(
          `observation[${i}] = ${v}, outside [${env.observationSpace.low}, ${env.observationSpace.high}]`,
        );
    }
    const s = env.state;
    const mask = env.actionMask;
    if (mask.length !== n) fail(`mask has ${mask.length} entries, actionSpace.n is ${n}`);
    const k = generateMoves(s, moves);
    let ones = 0;
    for (let a = 0; a < n; a++) ones += mask[a] === 1 ? 1 : 0;
    if (ones !== k) fail(`mask has ${ones} legal actions, the engine has ${k} legal moves`);
    for (let i = 0; i < k; i++) {
      const m = moves[i]!;
      const a = env.codec.encode(s, m);
      if (a < 0 || mask[a] !== 1)
        fail(`legal move ${m} encodes to action ${a}, which the mask does not allow`);
      if (env.codec.decode(s, a) !== m)
        fail(`decode(encode(move ${m})) is ${env.codec.decode(s, a)}`);
      const text = env.codec.actionToString(a);
      if (parseMove(text, s) !== m) fail(`action ${a} ("${text}") does not parse to its move ${m}`);
    }
  };

  /** One episode; returns its trace (for the determinism check). */
  const play = (ep: number, seed: number, trace: boolean, count = true): string[] => {
    const rnd = new Rng(seed0 * 7919 + ep).uniform();
    where = `seed ${seed} step 0`;
    const first = env.reset({ seed });
    const out: string[] = trace ? [observationHash(first.observation)] : [];
    checkPosition(first.observation);
    let sum = 0;
    for (let t = 1; ; t++) {
      if (t % 23 === 7) roundTrips(rnd);
      const a = pick(env, rnd);
      if (a === undefined)
        return fail(
          "no action is legal (the mask is all zeros) but the last step set neither terminated nor truncated: an episode with no legal move must end",
        );
      let r: StepResult;
      try {
        r = env.step(a);
      } catch (e) {
        return fail(
          `step(${a}) of an action the mask allows threw: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      where = `seed ${seed} step ${t}`;
      if (!(r.reward >= rLow && r.reward <= rHigh))
        fail(`reward ${r.reward} outside rewardRange [${rLow}, ${rHigh}]`);
      sum += r.reward;
      if (Math.abs(sum - r.info.episodeReturn) > 1e-9)
        fail(`rewards sum to ${sum}, info.episodeReturn is ${r.info.episodeReturn}`);
      if (trace)
        out.push(
          `${a} ${r.reward} ${r.terminated} ${r.truncated} ${observationHash(r.observation)}`,
        );
      checkPosition(r.observation);
      if (r.terminated || r.truncated) {
        if (!count) report.positions -= t + 1;
        else if (r.info.won) report.won++;
        else if (r.truncated) report.truncated++;
        else report.stuck++;
        return out;
      }
      if (t >= maxSteps) fail(`the episode is still running after maxSteps = ${maxSteps} steps`);
    }
  };

  const roundTrips = (rnd: () => number): void => {
    const text = env.serialize();
    const back = deserialize(text);
    if (back.serialize() !== text)
      fail("serialize() of the deserialized env differs from the original text");
    const twin = env.clone();
    for (const [name, other] of [
      ["deserialized", back],
      ["clone", twin],
    ] as const) {
      if (!other.state.equals(env.state)) fail(`the ${name} env is in another position`);
      if (observationHash(other.observation) !== observationHash(env.observation))
        fail(`the ${name} env has another observation`);
      if (other.actionMask.join("") !== env.actionMask.join(""))
        fail(`the ${name} env has another mask`);
    }
    const a = pick(env, rnd);
    if (a === undefined) return;
    const before = env.serialize();
    const r1 = twin.step(a);
    const r1s = `${r1.reward} ${r1.terminated} ${r1.truncated} ${observationHash(r1.observation)}`;
    if (env.serialize() !== before) fail("stepping a clone changed the original env");
    const r2 = back.step(a);
    if (`${r2.reward} ${r2.terminated} ${r2.truncated} ${observationHash(r2.observation)}` !== r1s)
      fail(`action ${a}: the clone and the deserialized env step differently`);
  };

  where = "determinism";
  const a = play(0, seed0, true);
  const b = play(0, seed0, true, false);
  const i = a.findIndex((x, k) => x !== b[k]);
  if (i >= 0 || a.length !== b.length) {
    where = `seed ${seed0} step ${i < 0 ? Math.min(a.length, b.length) : i}`;
    fail("the same seed gave a different trajectory");
  }
  for (let ep = 1; ep < episodes; ep++) play(ep, seed0 + ep, false);
  return report;
}
