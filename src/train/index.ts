/**
 * "penguin-gym/train": every training algorithm, the one checkpoint format and resume path, and
 * the trained agents. Importing it loads TensorFlow.js (the main entry does not).
 *
 * Each algorithm is one namespace with the same contract: a typed options object whose defaults
 * are its documented recipe (`ppo.PPO_DEFAULTS`, `es.ES_DEFAULTS`, `safety.SAFETY_DEFAULTS`), its
 * flags' spec (`PPO_SPEC`, …), `train(options, runFolder)` and `resume(runFolder)`. Every
 * failure a user can cause is a UsageError; a missing, damaged or mismatched checkpoint or model
 * file is its subclass CheckpointError.
 */
export { initBackend, type BackendName } from "./backend.js";
export { buildPolicyNet, type NetConfig, type PolicyNet } from "./model.js";
export {
  saveCheckpoint,
  loadCheckpoint,
  CheckpointError,
  RESUME_DIR,
  type Checkpoint,
  type LoadedCheckpoint,
  type TensorData,
} from "./checkpoint.js";
export { loadNet, savePolicyModel } from "./weights.js";
export { playPolicy, type PlayOptions, type PlaySummary } from "./play.js";
export { createPolicyAgent } from "../players/policy/agent.js";
export { createScorerAgent } from "../players/scorer/agent.js";
export { createSafetyAgent } from "../players/safety/agent.js";
export { TRAINERS, resume, type Trainer } from "./trainers.js";
export { ALGOS, type AlgoName, type AlgoSpec } from "./algos.js";
export { checkSeeds, checkSplit, SPLITS, splitsRecord } from "./splits.js";
export * as ppo from "./ppo/index.js";
export * as es from "./es/index.js";
export * as safety from "./safety/index.js";
