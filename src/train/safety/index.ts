/** The move-safety network: options, spec and entry points. */
export { SAFETY_DEFAULTS, SAFETY_SPEC, safetyOptions, type SafetyTrainOptions } from "./options.js";
export { train, resume } from "./train.js";
