/**
 * "penguin-gym/train": training and the trained agents. Importing it loads TensorFlow.js (the
 * main entry does not).
 */
export { initBackend, type BackendName } from "./backend.js";
export { buildPolicyNet, type NetConfig, type PolicyNet } from "./model.js";
export { saveCheckpoint, loadCheckpoint, loadNet, CheckpointError } from "./checkpoint.js";
export { TRAIN_DEFAULTS, validateOptions, type TrainOptions, type Algo } from "./config.js";
export { playPolicy, type PlayOptions, type PlaySummary } from "./play.js";
export { train, resume, type TrainResult, type FinalEval } from "./trainer.js";
export { createPolicyAgent } from "../players/policy/agent.js";
export { createScorerAgent } from "../players/scorer/agent.js";
export { createSafetyAgent } from "../players/safety/agent.js";
export { trainEs, type EsOptions, type EsResult } from "./es/es.js";
export { trainSafety, resumeSafety, type SafetyTrainOptions } from "./safety/train.js";
export { TRAINERS, type Trainer } from "./trainers.js";
export { checkSeeds, checkSplit, SPLITS, splitsRecord } from "./splits.js";
