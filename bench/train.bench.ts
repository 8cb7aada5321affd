/**
 * Training throughput: network forward and training-step time for a batch of 256 (default net)
 * on every TensorFlow.js backend that loads here, side by side in one run, with their ratios to
 * the slowest; then policy play speed and a short PPO run (env steps/s, samples/s) on each of the
 * fast backends. Times are wall milliseconds per call and CPU milliseconds per call (native
 * TensorFlow runs its kernels on both cores, so its CPU time exceeds its wall time).
 */
import { join } from "node:path";
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { resolveRules } from "../src/engine/rules.js";
import { defaultMaxSteps } from "../src/env/registry.js";
import { Adam, ADAM_DEFAULTS } from "../src/train/adam.js";
import {
  availableBackends,
  backendInfo,
  backendNotice,
  initBackend,
  tf,
  useBackend,
  type BackendName,
} from "../src/train/backend.js";
import { PPO_DEFAULTS as TRAIN_DEFAULTS } from "../src/train/ppo/options.js";
import { PolicyFeatures } from "../src/players/policy/features.js";
import { maskedLogSoftmax } from "../src/train/masked.js";
import { buildPolicyNet, forward, trainableVariables } from "../src/train/model.js";
import { playPolicy } from "../src/train/play.js";
import { train } from "../src/train/ppo/train.js";

type Figures = Record<string, number | string>;
const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

/** Mean wall and CPU ms per call of f, after one warm-up call. */
function time(n: number, f: () => void): { wall: number; cpu: number } {
  f();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  const wall = (performance.now() - t0) / n;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 / n };
}

async function netTimes(
  backend: BackendName,
  size: number,
): Promise<{ fwd: { wall: number; cpu: number }; step: { wall: number; cpu: number } }> {
  await useBackend(backend);
  const net = buildPolicyNet({
    obsSize: size,
    actions: 126,
    hidden: TRAIN_DEFAULTS.hidden,
    seed: 1,
    features: TRAIN_DEFAULTS.features,
  });
  const opt = new Adam(trainableVariables(net), ADAM_DEFAULTS);
  const B = 256;
  const x = tf.randomUniform([B, size], 0, 1, "float32", 1) as tf.Tensor2D;
  const mask = tf.ones([B, 126]) as tf.Tensor2D;
  const y = tf.oneHot(tf.randomUniform([B], 0, 126, "int32", 2) as tf.Tensor1D, 126);
  // The plain JavaScript backend is ~100x slower than native: fewer repetitions keep the bench short.
  const reps = backend === "cpu" ? 2 : 10;
  const fwd = time(reps, () => tf.tidy(() => forward(net, x)[0].dataSync()));
  const step = time(Math.max(2, reps >> 1), () =>
    opt.minimize(
      () => ({
        loss: tf.neg(
          tf.mean(tf.sum(tf.mul(maskedLogSoftmax(forward(net, x)[0], mask), y), 1)),
        ) as tf.Scalar,
        extras: [],
      }),
      1e-3,
    ),
  );
  tf.dispose([x, mask, y]);
  net.model.dispose();
  return { fwd, step };
}

async function ppoThroughput(): Promise<Figures> {
  const rules = resolveRules("penguin");
  mkdirSync(join(process.cwd(), ".tmp"), { recursive: true });
  const out = mkdtempSync(join(process.cwd(), ".tmp", "bench-ppo-"));
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    await train(
      {
        ...TRAIN_DEFAULTS,
        maxSteps: defaultMaxSteps(rules),
        rules,
        evalEvery: 0,
        evalDuring: 0,
        totalSteps: 32 * 128 * 2,
        checkpointEvery: 1000,
      },
      out,
      { skipFinalEval: true, quiet: true },
    );
    const c = process.cpuUsage(c0);
    const rows = readFileSync(join(out, "metrics.csv"), "utf8").trim().split("\n");
    const head = rows[0]!.split(",");
    const last = rows[rows.length - 1]!.split(",");
    return {
      ppoEnvStepsPerSec: Math.round(Number(last[head.indexOf("env_steps_per_s")])),
      ppoSamplesPerSec: Math.round(Number(last[head.indexOf("samples_per_s")])),
      ppoTwoUpdatesSec: round((performance.now() - t0) / 1000),
      ppoTwoUpdatesCpuSec: round((c.user + c.system) / 1e6),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export default async function (): Promise<Record<string, Figures>> {
  const preferred = await initBackend();
  process.stderr.write(`bench: ${backendNotice(preferred)}\n`);
  const backends = await availableBackends();
  const rules = resolveRules("penguin");
  const size = new PolicyFeatures(rules, TRAIN_DEFAULTS.features).size;
  const fig: Figures = {
    trainBackend: preferred,
    trainBackends: backends.join(","),
    trainNet: `${size}-${TRAIN_DEFAULTS.hidden.join("-")}-126`,
  };
  const tfVersion = backends.includes("tensorflow")
    ? (await useBackend("tensorflow"), backendInfo().tensorflow)
    : undefined;
  if (tfVersion) fig.tensorflowVersion = tfVersion;
  const times = new Map<BackendName, Awaited<ReturnType<typeof netTimes>>>();
  for (const b of backends) {
    const t = await netTimes(b, size);
    times.set(b, t);
    fig[`${b}ForwardMsBatch256`] = round(t.fwd.wall);
    fig[`${b}ForwardCpuMsBatch256`] = round(t.fwd.cpu);
    fig[`${b}StepMsBatch256`] = round(t.step.wall);
    fig[`${b}StepCpuMsBatch256`] = round(t.step.cpu);
    fig[`${b}TrainSamplesPerSec`] = Math.round((256 * 1000) / t.step.wall);
  }
  // Speed-ups against wasm, the backend every machine has.
  const base = times.get("wasm");
  if (base) {
    for (const [b, t] of times) {
      if (b === "wasm") continue;
      fig[`${b}VsWasmStepSpeedup`] = round(base.step.wall / t.step.wall, 2);
      fig[`${b}VsWasmForwardSpeedup`] = round(base.fwd.wall / t.fwd.wall, 2);
    }
  }
  for (const b of backends.filter((b) => b !== "cpu")) {
    await useBackend(b);
    const net = buildPolicyNet({
      obsSize: size,
      actions: 126,
      hidden: TRAIN_DEFAULTS.hidden,
      seed: 1,
      features: TRAIN_DEFAULTS.features,
    });
    const play = await playPolicy(
      net,
      rules,
      Array.from({ length: 100 }, (_, i) => i + 1),
      { maxSteps: 200 },
    );
    net.model.dispose();
    fig[`${b}PolicyPlayMovesPerSec`] = Math.round(
      play.results.reduce((n, r) => n + r.moves, 0) / play.seconds,
    );
    for (const [k, v] of Object.entries(await ppoThroughput()))
      fig[`${b}${k[0]!.toUpperCase()}${k.slice(1)}`] = v;
  }
  await useBackend(preferred);
  return { penguin: fig };
}
