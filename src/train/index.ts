/** Training: policy network, masked PPO, behaviour cloning from the solver, checkpoints, runs. */
export { initBackend, type BackendName } from "./backend.js";
export { Rng, type RngState } from "./rng.js";
export { buildPolicyNet, inferBatch, type NetConfig, type PolicyNet } from "./model.js";
export { chooseMasked, maskedLogSoftmax, maskedEntropy, MASKED_LOGIT } from "./masked.js";
export { computeGae, scheduledLr } from "./gae.js";
export { saveCheckpoint, loadCheckpoint, loadNet, CheckpointError } from "./checkpoint.js";
export { TRAIN_DEFAULTS, validateOptions, type TrainOptions, type Algo } from "./config.js";
export { playPolicy, wilson95, guardMask, positionKey, type PlayOptions, type PlaySummary } from "./play.js";
export { train, resume, type TrainResult, type FinalEval } from "./trainer.js";
export { createPolicyAgent } from "./policy-agent.js";
