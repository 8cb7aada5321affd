import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { resolveRules } from "../../src/engine/rules.js";
import { PPO_DEFAULTS, type PpoOptions } from "../../src/train/ppo/options.js";

/** A fresh scratch folder under the repo's .tmp/ (git-ignored). */
export function scratchDir(prefix: string): string {
  const root = join(process.cwd(), ".tmp");
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, `${prefix}-`));
}

/** PPO options for runs small enough for a unit test (seconds). */
export function tinyOptions(out: string, over: Partial<PpoOptions> = {}): PpoOptions {
  return {
    ...PPO_DEFAULTS,
    rules: resolveRules("penguin"),
    out,
    hidden: [32],
    trainDealStart: 1_000_001,
    evalDealStart: 1,
    evalDeals: 6,
    evalDuring: 3,
    evalEvery: 2,
    checkpointEvery: 1,
    maxSteps: 200,
    envs: 4,
    rolloutSteps: 16,
    minibatches: 2,
    ppoEpochs: 2,
    totalSteps: 4 * 16 * 3,
    ...over,
  };
}
