import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Adam, ADAM_DEFAULTS } from "../../src/train/adam.js";
import { initBackend } from "../../src/train/backend.js";
import {
  CheckpointError,
  loadCheckpoint,
  loadNet,
  saveCheckpoint,
} from "../../src/train/checkpoint.js";
import { buildPolicyNet, inferBatch, trainableVariables } from "../../src/train/model.js";
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

describe("checkpoints", () => {
  it("save → load gives bit-identical outputs, optimizer state and trainer state", async () => {
    await initBackend();
    const net = buildPolicyNet({ obsSize: 20, actions: 7, hidden: [16, 8], seed: 5 });
    const opt = new Adam(trainableVariables(net), ADAM_DEFAULTS);
    const obs = Float32Array.from({ length: 3 * 20 }, (_, i) => ((i * 37) % 11) / 11);
    const dir = join(scratchDir("ckpt"), "checkpoint");
    await saveCheckpoint(dir, net, opt, { step: 12, rng: [1, 2, 3, 4] });
    const back = await loadCheckpoint<{ step: number; rng: number[] }>(dir);
    expect(back.trainer).toEqual({ step: 12, rng: [1, 2, 3, 4] });
    expect(back.net.config).toEqual(net.config);
    const [l1, v1] = outputs(net, obs, 3);
    const [l2, v2] = outputs(back.net, obs, 3);
    expect(Buffer.from(l2.buffer).equals(Buffer.from(l1.buffer))).toBe(true);
    expect(Buffer.from(v2.buffer).equals(Buffer.from(v1.buffer))).toBe(true);
    expect(Object.keys(back.optimizer!.named).length).toBe(2 * trainableVariables(net).length);
    // The same weights as a policy for `penguin eval`: loadNet accepts the run folder or the checkpoint.
    const again = await loadNet(dir);
    expect(Buffer.from(outputs(again, obs, 3)[0].buffer).equals(Buffer.from(l1.buffer))).toBe(true);
  });

  it("refuses a damaged checkpoint with a one-line error naming the file", async () => {
    await initBackend();
    const net = buildPolicyNet({ obsSize: 10, actions: 4, hidden: [8], seed: 1 });
    const dir = join(scratchDir("ckpt-bad"), "checkpoint");
    await saveCheckpoint(dir, net, undefined, {});
    const w = readFileSync(join(dir, "weights.bin"));
    w[3] = w[3]! ^ 0xff;
    writeFileSync(join(dir, "weights.bin"), w);
    const err = await loadCheckpoint(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckpointError);
    expect((err as Error).message).toMatch(/damaged checkpoint .*weights\.bin/);
    expect((err as Error).message).not.toContain("\n");
    writeFileSync(join(dir, "state.json"), "{ truncated");
    await expect(loadCheckpoint(dir)).rejects.toThrow(/damaged checkpoint .*state\.json/);
    await expect(loadCheckpoint(join(dir, "nowhere"))).rejects.toThrow(/no checkpoint/);
  });
});
