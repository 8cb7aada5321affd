/** PPO (after-state policy by default, or the observation MLP): options, spec and entry points. */
export { PPO_DEFAULTS, PPO_SPEC, validateOptions, type PpoOptions } from "./options.js";
export {
  train,
  resume,
  ppoOptions,
  type FinalEval,
  type TrainHooks,
  type TrainResult,
} from "./train.js";
