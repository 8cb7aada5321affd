/** Gym-style environment: ids, makeEnv, VecEnv, the action codec and the observation encoder. */
export * from "./actions.js";
export * from "./observation.js";
export * from "./registry.js";
export * from "./env.js";
export * from "./vec.js";
export { renderState } from "./render.js";
