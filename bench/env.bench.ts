/**
 * Env throughput per preset: `envStepsPerSec` (one env) and `vecEnvStepsPerSec` (VecEnv(64),
 * counting every sub-env step). The player picks a uniformly random legal action from the mask
 * with a seeded PRNG; observation and mask encoding and the resets after each episode (default
 * settings, but maxSteps 500 as the benchmark has always used) are all included. Rates are per CPU second of the
 * process (process.cpuUsage), so that other jobs on a shared machine do not skew them; JS runs
 * on one core, so this is the one-core rate. Run alone: `npm run bench -- env`.
 */
import { ENV_IDS, ENV_SPECS, makeEnv, VecEnv } from "../src/env/index.js";

/** Episodes end here, so that rates stay comparable with earlier runs of this benchmark. */
export const BENCH_MAX_STEPS = 500;
import { Rng } from "../src/util/rng.js";

const SECONDS = Number(process.env.ENV_BENCH_SECONDS ?? 1);

/** The k-th legal action (k uniform over the legal count) of one mask row. */
function randomLegal(
  mask: Uint8Array,
  from: number,
  n: number,
  legal: number,
  rnd: () => number,
): number {
  let k = Math.floor(rnd() * legal);
  for (let a = 0; a < n; a++) if (mask[from + a] === 1 && k-- === 0) return a;
  throw new Error("no legal action in the mask");
}

/** CPU seconds of this process: on a shared machine, wall time would count other jobs' turns. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Steps per CPU second of `body` (which returns the steps it took), after `warmup` CPU seconds of it. */
function timeLoop(body: () => number, seconds: number, warmup: number): number {
  const warm = cpuSeconds();
  while (cpuSeconds() - warm < warmup) body();
  let steps = 0;
  const t0 = cpuSeconds();
  let t = t0;
  while (t - t0 < seconds) {
    steps += body();
    t = cpuSeconds();
  }
  return steps / (t - t0);
}

/** Steps per CPU second of one env, and the mean episode length of random play (resets cost a deal each). */
export function envStepsPerSec(id: string, seconds: number, warmup = 0.2): [number, number] {
  const env = makeEnv(id, { maxSteps: BENCH_MAX_STEPS });
  const rnd = new Rng(1).uniform();
  env.reset({ seed: 1 });
  const n = env.actionSpace.n;
  let steps = 0;
  let episodes = 0;
  const rate = timeLoop(
    () => {
      for (let i = 0; i < 1000; i++) {
        const r = env.step(randomLegal(env.actionMask, 0, n, env.info.legalActions, rnd));
        if (r.terminated || r.truncated) {
          env.reset();
          episodes++;
        }
      }
      steps += 1000;
      return 1000;
    },
    seconds,
    warmup,
  );
  return [rate, steps / Math.max(1, episodes)];
}

export function vecEnvStepsPerSec(id: string, seconds: number, warmup = 0.2): number {
  const v = new VecEnv(64, id, { maxSteps: BENCH_MAX_STEPS });
  const rnd = new Rng(1).uniform();
  v.reset({ seed: 1 });
  const actions = new Int32Array(64);
  const n = v.numActions;
  return timeLoop(
    () => {
      for (let k = 0; k < 16; k++) {
        for (let i = 0; i < 64; i++)
          actions[i] = randomLegal(v.masks, i * n, n, v.envs[i]!.info.legalActions, rnd);
        v.step(actions);
      }
      return 16 * 64;
    },
    seconds,
    warmup,
  );
}

export default async function envBench(): Promise<Record<string, Record<string, number | string>>> {
  const out: Record<string, Record<string, number | string>> = {};
  for (const id of ENV_IDS) {
    const [rate, episodeSteps] = envStepsPerSec(id, SECONDS);
    out[ENV_SPECS[id].preset] = {
      envId: id,
      envStepsPerSec: Math.round(rate),
      envRandomEpisodeSteps: Math.round(episodeSteps * 10) / 10,
      vecEnvStepsPerSec: Math.round(vecEnvStepsPerSec(id, SECONDS)),
    };
  }
  return out;
}
