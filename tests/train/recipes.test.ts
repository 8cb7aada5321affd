// The defaults of each algorithm are the recipe of the model it documents: the options that the
// shipped runs recorded in their config.json, field by field.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSeeds } from "../../src/train/splits.js";
import { ES_DEFAULTS } from "../../src/train/es/options.js";
import { SAFETY_DEFAULTS } from "../../src/train/safety/options.js";
import { PPO_DEFAULTS } from "../../src/train/ppo/options.js";
import { defaultMaxSteps } from "../../src/env/registry.js";

const recorded = (run: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join("results", run, "config.json"), "utf8")).options;

describe("the defaults are the recipes of the documented models", () => {
  it("safety: every option of the shipped network's run", () => {
    const {
      data: _d,
      out: _o,
      criticalWeight,
      ...shipped
    } = recorded("train-safety/run-links-scratch");
    // Its --critical-weight 1 was, in that version, the neutral weight of every position (the
    // training log names no fatal-move term); today's fatal-move term is off by default.
    expect(criticalWeight).toBe(1);
    expect(SAFETY_DEFAULTS.criticalWeight ?? 0).toBe(0);
    expect(JSON.parse(JSON.stringify(SAFETY_DEFAULTS))).toEqual(shipped);
  });

  it("es: every option of the measured run but where it lived, its budget and validation seeds", () => {
    const { out: _o, minutes, workers, valStart, rules, ...measured } = recorded("train-es");
    // 330 generations ended it within its 28-minute budget; workers do not change the weights.
    expect([minutes, workers]).toEqual([28, 2]);
    // It validated on seeds that are now training seeds; the defaults validate in the validation split.
    expect(valStart).toBe(1_500_000);
    expect(() => checkSeeds("validation", "validation", ES_DEFAULTS.valStart, 500)).not.toThrow();
    const { out: _p, minutes: m, workers: w, valStart: _v, rules: r, ...defaults } = ES_DEFAULTS;
    expect([m, w]).toEqual([0, 1]);
    expect((r as { preset: string }).preset).toBe((rules as { preset: string }).preset);
    expect(defaults).toEqual(measured);
  });
  it("ppo: every option of the documented default run (results/learn/ppo-default)", () => {
    const run = JSON.parse(
      readFileSync(join("results", "learn", "ppo-default", "config.json"), "utf8"),
    ) as Record<string, unknown> & { rules: { preset: string } };
    expect(run.algo).toBe("ppo");
    expect(run.rules.preset).toBe("penguin");
    expect(run.maxSteps).toBe(defaultMaxSteps(run.rules));
    // Options added since, which only --policy safety reads: an after-state run did not record them.
    const safetyOnly = ["policyTemperature", "vfLrScale", "valueWarmup"];
    expect(run.policy).toBe("afterstate");
    for (const [key, value] of Object.entries(PPO_DEFAULTS))
      if (!safetyOnly.includes(key) || key in run) expect(run[key], key).toEqual(value);
  });
});
