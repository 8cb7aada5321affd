import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deal } from "../../src/engine/deal.js";
import { resolveRules } from "../../src/engine/rules.js";
import { ObservationEncoder } from "../../src/env/observation.js";
import { initBackend } from "../../src/train/backend.js";
import {
  buildSamples,
  loadSolver,
  packState,
  PACK_STRIDE,
  solveDeals,
  unpackState,
  Unpacker,
} from "../../src/train/dataset.js";
import { buildPolicyNet } from "../../src/train/model.js";
import { PolicyFeatures } from "../../src/players/policy/features.js";
import { playPolicy } from "../../src/train/play.js";
import { resume, train } from "../../src/train/trainer.js";
import { METRIC_COLUMNS, TIMING_COLUMNS } from "../../src/train/run.js";
import { scratchDir, tinyOptions } from "./helpers.js";

const rules = resolveRules("penguin");

function weightsOf(run: string): Buffer {
  return readFileSync(join(run, "checkpoint", "weights.bin"));
}

/** metrics.csv without the columns that measure the machine's speed. */
function metricsSansTiming(run: string): string[] {
  const drop = new Set(TIMING_COLUMNS.map((c) => METRIC_COLUMNS.indexOf(c)));
  return readFileSync(join(run, "metrics.csv"), "utf8")
    .trim()
    .split("\n")
    .map((l) =>
      l
        .split(",")
        .filter((_, i) => !drop.has(i))
        .join(","),
    );
}

describe("behaviour-cloning data", () => {
  it("packs positions losslessly and caches solver solutions", async () => {
    const s = deal(rules, 1_000_123);
    const enc = new ObservationEncoder(rules);
    const packed = new Uint8Array(PACK_STRIDE);
    packState(s, packed, 0);
    const u = new Unpacker(rules).state(s.base);
    unpackState(packed, 0, u);
    const a = new Float32Array(enc.size);
    const b = new Float32Array(enc.size);
    enc.encode(s, a);
    enc.encode(u, b);
    expect(Array.from(b)).toEqual(Array.from(a));

    const cache = scratchDir("bc-cache");
    const seeds = [1_000_001, 1_000_002, 1_000_003];
    const solve = await loadSolver();
    const first = await solveDeals(
      rules,
      seeds,
      solve,
      { maxStates: 200_000, timeoutMs: 10_000 },
      cache,
    );
    let calls = 0;
    const again = await solveDeals(
      rules,
      seeds,
      () => (calls++, { result: "unknown" }),
      { maxStates: 200_000, timeoutMs: 10_000 },
      cache,
    );
    expect(calls).toBe(0);
    expect(again).toEqual(first);
    const samples = buildSamples(rules, first);
    expect(samples.count).toBe(first.reduce((n, d) => n + d.actions.length, 0));
    for (let i = 0; i < samples.count; i++)
      expect(samples.masks[i * samples.actions + samples.labels[i]!]).toBe(1);
  });
});

describe("training runs", () => {
  it("behaviour cloning improves play on its training deals", async () => {
    await initBackend();
    const out = scratchDir("bc-improve");
    const o = tinyOptions(out, {
      hidden: [64],
      trainDeals: 16,
      bcValidationDeals: 1,
      bcEpochs: 8,
      bcBatch: 64,
      bcLr: 3e-3,
      evalEvery: 0,
      checkpointEvery: 1000,
    });
    const seeds = Array.from({ length: 15 }, (_, i) => o.trainDealStart + i);
    const untrained = await playPolicy(
      buildPolicyNet({
        obsSize: new PolicyFeatures(rules, o.features).size,
        actions: 126,
        hidden: o.hidden,
        seed: o.seed,
        features: o.features,
      }),
      rules,
      seeds,
      { maxSteps: 200 },
    );
    const r = await train(o, { skipFinalEval: true, quiet: true });
    const trained = await playPolicy(r.net, rules, seeds, { maxSteps: 200 });
    const rows = readFileSync(join(out, "metrics.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));
    const loss = (row: string[]): number => Number(row[METRIC_COLUMNS.indexOf("loss")]);
    expect(loss(rows[rows.length - 1]!)).toBeLessThan(loss(rows[0]!) * 0.7);
    expect(trained.meanCardsHome).toBeGreaterThan(untrained.meanCardsHome + 5);
    expect(trained.wins).toBeGreaterThanOrEqual(untrained.wins);
    const cfg = JSON.parse(readFileSync(join(out, "deals.json"), "utf8"));
    expect(cfg.training).toBe(
      `${o.trainDealStart}–${o.trainDealStart + o.trainDeals + o.daggerRounds * o.daggerDeals - 1}`,
    );
    expect(cfg.evaluation).toBe(`1–${o.evalDeals}`);
    expect(readFileSync(join(out, "curve.svg"), "utf8")).toMatch(/^<svg/);
  });

  it("a behaviour-cloning + DAgger run killed twice and resumed ends bit-identical to an uninterrupted one", async () => {
    await initBackend();
    const base = scratchDir("bc-resume");
    const straight = join(base, "straight");
    const killed = join(base, "killed");
    const opts = (out: string, over = {}) =>
      tinyOptions(out, { bcEpochs: 1, daggerRounds: 1, cacheDir: join(base, "cache"), ...over });
    await train(opts(straight), { skipFinalEval: true, quiet: true });
    const rows = metricsSansTiming(straight);
    expect(rows.some((r) => r.startsWith("dagger1,"))).toBe(true);
    // First kill inside plain cloning, second inside the DAgger stage.
    const firstStop = 3;
    const secondStop = rows.findIndex((r) => r.startsWith("dagger1,")) + 1;
    expect(
      (
        await train(opts(killed, { stopAfterUpdates: firstStop }), {
          skipFinalEval: true,
          quiet: true,
        })
      ).stopped,
    ).toBe(true);
    expect(
      (await resume(killed, { stopAfterUpdates: secondStop }, { skipFinalEval: true, quiet: true }))
        .stopped,
    ).toBe(true);
    await resume(killed, { stopAfterUpdates: undefined }, { skipFinalEval: true, quiet: true });
    expect(weightsOf(killed).equals(weightsOf(straight))).toBe(true);
    expect(metricsSansTiming(killed)).toEqual(rows);
  });

  it("a resumed PPO run ends bit-identical to an uninterrupted one", async () => {
    await initBackend();
    const base = scratchDir("ppo-resume");
    const opts = (out: string, over = {}) =>
      tinyOptions(out, { algo: "ppo", evalEvery: 2, ...over });
    const straight = join(base, "straight");
    const killed = join(base, "killed");
    const r = await train(opts(straight), { skipFinalEval: true, quiet: true });
    expect(r.stopped).toBe(false);
    await train(opts(killed, { stopAfterUpdates: 1 }), { skipFinalEval: true, quiet: true });
    await resume(killed, { stopAfterUpdates: undefined }, { skipFinalEval: true, quiet: true });
    expect(weightsOf(killed).equals(weightsOf(straight))).toBe(true);
    const rows = metricsSansTiming(straight);
    expect(rows.length).toBe(4); // header + 3 updates
    expect(metricsSansTiming(killed)).toEqual(rows);
    for (const row of rows.slice(1)) expect(row).toMatch(/^ppo,/);
  });
});
