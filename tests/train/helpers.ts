import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { resolveRules } from "../../src/engine/rules.js";
import { TRAIN_DEFAULTS, type TrainOptions } from "../../src/train/config.js";

/** A fresh scratch folder under the repo's .tmp/ (git-ignored). */
export function scratchDir(prefix: string): string {
  const root = join(process.cwd(), ".tmp");
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, `${prefix}-`));
}

/** Options for runs small enough for a unit test (seconds). */
export function tinyOptions(out: string, over: Partial<TrainOptions> = {}): TrainOptions {
  return {
    ...TRAIN_DEFAULTS,
    algo: "bc",
    rules: resolveRules("penguin"),
    out,
    hidden: [32],
    trainDealStart: 1_000_001,
    trainDeals: 24,
    bcValidationDeals: 4,
    evalDealStart: 1,
    evalDeals: 6,
    evalDuring: 3,
    evalEvery: 2,
    checkpointEvery: 1,
    bcEpochs: 2,
    maxSteps: 200,
    daggerRounds: 0,
    daggerDeals: 4,
    daggerStates: 2,
    daggerEpochs: 1,
    bcBatch: 64,
    bcBatchesPerUpdate: 5,
    cacheDir: join(out, "cache"),
    envs: 4,
    rolloutSteps: 16,
    minibatches: 2,
    ppoEpochs: 2,
    totalSteps: 4 * 16 * 3,
    ...over,
  };
}
