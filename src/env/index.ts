/**
 * The Gym-style environment: ids and specs, makeEnv, VecEnv, the action codec, the observation
 * encoder and checkEnv, the checker for any environment with this interface.
 */
export { ActionCodec } from "./actions.js";
export { ObservationEncoder, observationSize } from "./observation.js";
export {
  type RewardMode,
  type ShuffleSource,
  type EnvSettings,
  type EnvOptions,
  type EnvId,
  type EnvSpec,
  ENV_IDS,
  PREVIOUS_ENV_IDS,
  ENV_SPECS,
  isEnvId,
  envSpec,
  envIdForPreset,
  defaultMaxSteps,
} from "./registry.js";
export {
  type EnvInfo,
  type ResetResult,
  type StepResult,
  type ResetOptions,
  type SerializedEnv,
  InvalidActionError,
  PenguinEnv,
  DEFAULT_SEED,
  makeEnv,
  deserializeEnv,
} from "./env.js";
export { type AutoresetMode, type VecStepResult, VecEnv } from "./vec.js";
export { renderState } from "./render.js";
export { type CheckEnvOptions, type CheckEnvReport, checkEnv } from "./check.js";
