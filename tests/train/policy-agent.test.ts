import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRules } from "../../src/engine/rules.js";
import { evaluate, type EvalRow } from "../../src/eval/evaluate.js";
import { seedRange } from "../../src/eval/deals.js";
import { initBackend } from "../../src/train/backend.js";
import { savePolicyModel } from "../../src/train/weights.js";
import { PolicyFeatures } from "../../src/players/policy/features.js";
import { buildPolicyNet, inferBatch } from "../../src/train/model.js";
import { JsPolicy, readPolicy } from "../../src/players/policy/model.js";
import { playPolicy } from "../../src/train/play.js";
import { createPolicyAgent } from "../../src/players/policy/agent.js";
import { scratchDir } from "./helpers.js";
import { tf } from "../../src/train/backend.js";
import { ActionCodec } from "../../src/env/actions.js";
import { deal } from "../../src/engine/deal.js";
import { EpisodeRunner } from "../../src/eval/game-loop.js";
import { readState } from "../../src/players/checkpoint.js";
import { readAfterstate } from "../../src/players/policy/afterstate.js";
import { ROW } from "../../src/players/scorer/features.js";
import {
  afterstateAgent,
  buildAfterstateNet,
  mlpT,
  saveAfterstatePolicy,
} from "../../src/train/ppo/afterstate.js";

const rules = resolveRules("penguin");

describe("policy agent", () => {
  it("plays through the eval library exactly as the trainer's own evaluation does", async () => {
    await initBackend();
    const run = scratchDir("policy-agent");
    const net = buildPolicyNet({
      obsSize: new PolicyFeatures(rules, "env+slots").size,
      actions: 126,
      hidden: [32],
      seed: 3,
      features: "env+slots",
    });
    await savePolicyModel(join(run, "checkpoint"), net);
    const rows: EvalRow[] = [];
    for await (const r of evaluate({
      agent: "policy",
      agentOptions: { model: run },
      rules,
      deals: seedRange(1, 12),
      maxSteps: 500,
      timing: false,
    }))
      rows.push(r);
    const mine = await playPolicy(
      net,
      rules,
      Array.from({ length: 12 }, (_, i) => i + 1),
      { maxSteps: 500 },
    );
    expect(rows.map((r) => r.cardsHome)).toEqual(mine.results.map((r) => r.cardsHome));
    expect(rows.map((r) => r.won)).toEqual(mine.results.map((r) => r.won));
    expect(rows[0]!.agent).toMatch(/^policy\(/);
    // The player reads the checkpoint without TensorFlow.js; its logits are TensorFlow's.
    const js = new JsPolicy(readPolicy(run));
    const obs = Float32Array.from({ length: 3 * net.config.obsSize }, (_, i) => ((i * 7) % 5) / 4);
    const a = new Float32Array(3 * 126);
    const b = new Float32Array(3 * 126);
    js.infer(obs, 3, a);
    inferBatch(net, obs, 3, b);
    for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 4);
  });

  it("plays each game the same alone or side by side with others (playMany), sampling included", async () => {
    await initBackend();
    const net = buildPolicyNet({
      obsSize: new PolicyFeatures(rules, "env").size,
      actions: 126,
      hidden: [16],
      seed: 5,
      features: "env",
    });
    const seeds = Array.from({ length: 9 }, (_, i) => 1_000_001 + i);
    for (const sample of [false, true]) {
      const one = await playPolicy(net, rules, seeds, {
        maxSteps: 120,
        sample,
        batch: 1,
        recordActions: true,
      });
      const many = await playPolicy(net, rules, seeds, {
        maxSteps: 120,
        sample,
        batch: 4,
        recordActions: true,
      });
      expect(many.results).toEqual(one.results);
      // Each game's actions replay through the engine to its recorded outcome.
      expect(one.results.every((g) => g.actions!.length === g.moves)).toBe(true);
    }
    net.model.dispose();
  });

  it("refuses a model trained for other rules, and a missing model", async () => {
    await initBackend();
    const run = scratchDir("policy-agent-rules");
    const net = buildPolicyNet({
      obsSize: new PolicyFeatures(rules, "env").size,
      actions: 126,
      hidden: [8],
      seed: 1,
      features: "env",
    });
    await savePolicyModel(join(run, "checkpoint"), net);
    await expect(createPolicyAgent({ model: run }, resolveRules("freecell"))).rejects.toThrow(
      /trained for observations of 693 and 126 actions/,
    );
    await expect(createPolicyAgent({}, rules)).rejects.toThrow(/--model/);
    await expect(createPolicyAgent({ model: join(run, "none") }, rules)).rejects.toThrow(
      /no trained policy/,
    );
  });
  it("plays an after-state policy (PPO's default) from its checkpoint as the trainer does, with TensorFlow's scores", async () => {
    await initBackend();
    const run = scratchDir("policy-afterstate");
    const codec = new ActionCodec(rules);
    const net = buildAfterstateNet([16, 8], codec.n, 5);
    // A scaling that is not the identity, so the checkpoint's mean and scale are exercised.
    for (let i = 0; i < ROW; i++) {
      net.mean[i] = ((i % 7) - 3) / 10;
      net.scale[i] = 0.5 + (i % 5) / 4;
    }
    saveAfterstatePolicy(join(run, "checkpoint"), net, {});
    const rows: EvalRow[] = [];
    for await (const r of evaluate({
      agent: "policy",
      agentOptions: { model: run },
      rules,
      deals: seedRange(1, 8),
      maxSteps: 300,
      timing: false,
    }))
      rows.push(r);
    const runner = new EpisodeRunner(rules, afterstateAgent(net, codec));
    const mine = rows.map((_, i) => runner.play(deal(rules, i + 1), i + 1, 300));
    expect(rows.map((r) => r.cardsHome)).toEqual(mine.map((g) => g.cardsHome));
    expect(rows.map((r) => r.moves)).toEqual(mine.map((g) => g.moves));
    expect(rows[0]!.agent).toMatch(/^policy\(/);
    // Its scores, read without TensorFlow.js, are the trained network's.
    const dir = join(run, "checkpoint");
    const js = readAfterstate(dir, readState(dir));
    const raw = Float32Array.from({ length: 3 * ROW }, (_, i) => ((i * 7) % 5) / 2 - 1);
    const scaled = raw.map((x, i) => (x - net.mean[i % ROW]!) / net.scale[i % ROW]!);
    const want = tf.tidy(() => mlpT(tf.tensor2d(scaled, [3, ROW]), net.policy).dataSync());
    for (let k = 0; k < 3; k++) expect(js.logit(raw, k * ROW)).toBeCloseTo(want[k]!, 4);
    await expect(createPolicyAgent({ model: run, sample: true }, rules)).rejects.toThrow(
      /sample is not available/,
    );
  });
});
