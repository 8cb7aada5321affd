/**
 * Training throughput on this machine: network forward and training-step time for a batch of 256
 * (default net), evaluation play speed, and PPO env steps/s and samples/s over a short run.
 */
import { join } from "node:path";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { resolveRules } from "../src/engine/rules.js";
import { Adam, ADAM_DEFAULTS } from "../src/train/adam.js";
import { initBackend, tf } from "../src/train/backend.js";
import { TRAIN_DEFAULTS } from "../src/train/config.js";
import { PolicyFeatures } from "../src/train/features.js";
import { maskedLogSoftmax } from "../src/train/masked.js";
import { buildPolicyNet, forward, trainableVariables } from "../src/train/model.js";
import { playPolicy } from "../src/train/play.js";
import { train } from "../src/train/trainer.js";

export default async function (): Promise<Record<string, Record<string, number | string>>> {
  const backend = await initBackend();
  const rules = resolveRules("penguin");
  const size = new PolicyFeatures(rules, TRAIN_DEFAULTS.features).size;
  const net = buildPolicyNet({ obsSize: size, actions: 126, hidden: TRAIN_DEFAULTS.hidden, seed: 1, features: TRAIN_DEFAULTS.features });
  const opt = new Adam(trainableVariables(net), ADAM_DEFAULTS);
  const B = 256;
  const x = tf.randomUniform([B, size], 0, 1, "float32", 1) as tf.Tensor2D;
  const mask = tf.ones([B, 126]) as tf.Tensor2D;
  const y = tf.oneHot(tf.randomUniform([B], 0, 126, "int32", 2) as tf.Tensor1D, 126);
  const time = (n: number, f: () => void): number => {
    f();
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    return (performance.now() - t) / n;
  };
  const fwd = time(10, () => tf.tidy(() => forward(net, x)[0].dataSync()));
  const step = time(5, () => opt.minimize(() => ({ loss: tf.neg(tf.mean(tf.sum(tf.mul(maskedLogSoftmax(forward(net, x)[0], mask), y), 1))) as tf.Scalar, extras: [] }), 1e-3));
  const seeds = Array.from({ length: 100 }, (_, i) => i + 1);
  const play = playPolicy(net, rules, seeds, { maxSteps: 200 });
  const moves = play.results.reduce((n, r) => n + r.moves, 0);

  mkdirSync(join(process.cwd(), ".tmp"), { recursive: true });
  const out = mkdtempSync(join(process.cwd(), ".tmp", "bench-ppo-"));
  const t0 = performance.now();
  await train(
    { ...TRAIN_DEFAULTS, algo: "ppo", rules, out, evalEvery: 0, evalDuring: 0, totalSteps: 32 * 128 * 2, checkpointEvery: 1000 },
    { skipFinalEval: true, quiet: true },
  );
  const ppoSecs = (performance.now() - t0) / 1000;
  const { readFileSync } = await import("node:fs");
  const rows = readFileSync(join(out, "metrics.csv"), "utf8").trim().split("\n");
  const head = rows[0]!.split(",");
  const last = rows[rows.length - 1]!.split(",");
  rmSync(out, { recursive: true, force: true });
  return {
    penguin: {
      trainBackend: backend,
      trainNet: `${size}-${TRAIN_DEFAULTS.hidden.join("-")}-126`,
      trainForwardMsBatch256: Math.round(fwd * 10) / 10,
      trainStepMsBatch256: Math.round(step * 10) / 10,
      trainSamplesPerSec: Math.round((B * 1000) / step),
      policyPlayMovesPerSec: Math.round(moves / play.seconds),
      ppoEnvStepsPerSec: Math.round(Number(last[head.indexOf("env_steps_per_s")])),
      ppoSamplesPerSec: Math.round(Number(last[head.indexOf("samples_per_s")])),
      ppoTwoUpdatesSec: Math.round(ppoSecs * 10) / 10,
    },
  };
}
