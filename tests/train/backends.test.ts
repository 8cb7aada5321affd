import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRules } from "../../src/engine/rules.js";
import {
  availableBackends,
  backendInfo,
  initBackend,
  useBackend,
  type BackendName,
} from "../../src/train/backend.js";
import { loadNet, savePolicyModel } from "../../src/train/weights.js";
import { PolicyFeatures } from "../../src/players/policy/features.js";
import { buildPolicyNet, inferBatch } from "../../src/train/model.js";
import { playPolicy } from "../../src/train/play.js";
import { scratchDir } from "./helpers.js";

const backends = await availableBackends();
// wasm and the plain CPU backend ship with @tensorflow/tfjs, so every machine has a pair; the
// native one appears only after `npm run setup:native`.
if (!backends.includes("tensorflow")) {
  console.log(
    "backends.test: native TensorFlow (tfjs-node) does not load here, so only wasm ↔ cpu is checked; `npm run setup:native` adds it",
  );
}
const pairs: [BackendName, BackendName][] = [];
for (const a of backends)
  for (const b of backends) if (a !== b && (a !== "cpu" || b !== "wasm")) pairs.push([a, b]);

describe("checkpoints across backends", () => {
  it("the fastest backend that loads is the default, and runs record its versions", async () => {
    const chosen = await initBackend();
    expect(chosen).toBe(backends[0]);
    const info = backendInfo();
    expect(info.backend).toBe(chosen);
    expect(info.tfjs).toMatch(/^\d+\.\d+\.\d+$/);
    if (chosen === "tensorflow") expect(info.tensorflow).toMatch(/^\d+\.\d+/);
    else expect(info.tensorflow).toBeUndefined();
  });

  it.each(pairs)("a checkpoint saved on %s loads and plays on %s", async (from, to) => {
    const rules = resolveRules("penguin");
    const size = new PolicyFeatures(rules, "env+slots").size;
    expect(await useBackend(from)).toBe(true);
    const net = buildPolicyNet({
      obsSize: size,
      actions: 126,
      hidden: [32, 16],
      seed: 3,
      features: "env+slots",
    });
    const obs = Float32Array.from({ length: 2 * size }, (_, i) => ((i * 29) % 13) / 13);
    const here = new Float32Array(2 * 126);
    inferBatch(net, obs, 2, here);
    const games = (await playPolicy(net, rules, [1, 2, 3], { maxSteps: 60, recordActions: true }))
      .results;
    const dir = join(scratchDir(`backend-${from}-${to}`), "checkpoint");
    await savePolicyModel(dir, net);

    expect(await useBackend(to)).toBe(true);
    const back = await loadNet(dir);
    const there = new Float32Array(2 * 126);
    inferBatch(back, obs, 2, there);
    // The same weights give the same outputs up to the last bits of float32 arithmetic...
    for (let i = 0; i < here.length; i++) expect(Math.abs(there[i]! - here[i]!)).toBeLessThan(1e-4);
    // ...and, with no near-ties among these logits, the same games move for move.
    const again = (await playPolicy(back, rules, [1, 2, 3], { maxSteps: 60, recordActions: true }))
      .results;
    expect(again.map((g) => g.actions)).toEqual(games.map((g) => g.actions));
    expect(games[0]!.actions!.length).toBeGreaterThan(0);
    await useBackend(backends[0]!);
  });
});
