import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Adam, ADAM_DEFAULTS } from "../../src/train/adam.js";
import { initBackend } from "../../src/train/backend.js";
import { CheckpointError, loadCheckpoint, saveCheckpoint } from "../../src/train/checkpoint.js";
import { buildPolicyNet, inferBatch, trainableVariables } from "../../src/train/model.js";
import {
  loadNet,
  restoreTrainables,
  savePolicyModel,
  trainables,
} from "../../src/train/weights.js";
import { Rng } from "../../src/util/rng.js";
import { scratchDir } from "./helpers.js";

function outputs(
  net: ReturnType<typeof buildPolicyNet>,
  obs: Float32Array,
  batch: number,
): [Float32Array, Float32Array] {
  const logits = new Float32Array(batch * net.config.actions);
  const values = new Float32Array(batch);
  inferBatch(net, obs, batch, logits, values);
  return [logits, values];
}

const bytes = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe("the one checkpoint format", () => {
  it("round-trips tensors of every type, step counters, generator states, files and state", () => {
    const dir = join(scratchDir("ckpt-any"), "resume");
    const rng = new Rng("ckpt");
    rng.next();
    const theta = Float64Array.from([0.1, -2.5e-300, Math.PI]);
    const w = Float32Array.from([1.5, -0, 3e-38]);
    const perm = Int32Array.from([2, 0, 1]);
    saveCheckpoint(dir, {
      algo: "es",
      steps: { generation: 7 },
      rngs: { es: rng.getState() },
      tensors: { theta, w, perm },
      files: { "model.json": "{}" },
      state: { best: 0.5 },
    });
    const back = loadCheckpoint<{ best: number }>(dir, "es");
    expect(back.steps).toEqual({ generation: 7 });
    expect(back.state).toEqual({ best: 0.5 });
    expect(back.files["model.json"]!.toString()).toBe("{}");
    expect(back.tensors.theta).toBeInstanceOf(Float64Array);
    expect(bytes(back.tensors.theta!).equals(bytes(theta))).toBe(true);
    expect(bytes(back.tensors.w!).equals(bytes(w))).toBe(true);
    expect(Array.from(back.tensors.perm!)).toEqual([2, 0, 1]);
    const again = new Rng(0);
    again.setState(back.rngs.es!);
    expect(again.nextU32()).toBe(rng.nextU32());
    expect(() => loadCheckpoint(dir, "ppo")).toThrow(/is a checkpoint of es, not of ppo/);
  });

  it("a network and Adam restored from a checkpoint give bit-identical outputs and moments", async () => {
    await initBackend();
    const net = buildPolicyNet({ obsSize: 20, actions: 7, hidden: [16, 8], seed: 5 });
    const opt = new Adam(trainableVariables(net), ADAM_DEFAULTS);
    opt.step = 3;
    const dir = join(scratchDir("ckpt"), "resume");
    saveCheckpoint(dir, {
      algo: "ppo",
      rngs: {},
      state: {},
      ...trainables(trainableVariables(net), opt),
    });
    const other = buildPolicyNet({ obsSize: 20, actions: 7, hidden: [16, 8], seed: 6 });
    const opt2 = new Adam(trainableVariables(other), ADAM_DEFAULTS);
    restoreTrainables(loadCheckpoint(dir, "ppo"), trainableVariables(other), opt2);
    expect(opt2.step).toBe(3);
    const obs = Float32Array.from({ length: 3 * 20 }, (_, i) => ((i * 37) % 11) / 11);
    const [l1, v1] = outputs(net, obs, 3);
    const [l2, v2] = outputs(other, obs, 3);
    expect(bytes(l2).equals(bytes(l1))).toBe(true);
    expect(bytes(v2).equals(bytes(v1))).toBe(true);
    // The policy player's model folder: loadNet accepts the run folder or the checkpoint.
    const run = scratchDir("ckpt-model");
    await savePolicyModel(join(run, "checkpoint"), net);
    for (const path of [run, join(run, "checkpoint")])
      expect(bytes(outputs(await loadNet(path), obs, 3)[0]).equals(bytes(l1))).toBe(true);
  });

  it("refuses a damaged checkpoint with a one-line error naming the file", () => {
    const dir = join(scratchDir("ckpt-bad"), "resume");
    saveCheckpoint(dir, {
      algo: "safety",
      steps: {},
      rngs: {},
      tensors: { w: new Float32Array(8).fill(1) },
      state: {},
    });
    const bin = join(dir, "tensors.bin");
    const w = readFileSync(bin);
    w[3] = w[3]! ^ 0xff;
    writeFileSync(bin, w);
    let err: unknown;
    try {
      loadCheckpoint(dir, "safety");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CheckpointError);
    expect((err as Error).message).toMatch(/damaged checkpoint .*tensors\.bin/);
    expect((err as Error).message).not.toContain("\n");
    writeFileSync(join(dir, "state.json"), "{ truncated");
    expect(() => loadCheckpoint(dir, "safety")).toThrow(/damaged checkpoint .*state\.json/);
    expect(() => loadCheckpoint(join(dir, "nowhere"), "safety")).toThrow(/no checkpoint/);
  });
});
