/**
 * penguin-gym: the public API. Each area keeps its own index so the areas stay independent:
 * engine (rules, deals, moves), env (Gym-style environment), agents, solver, eval, train.
 */
export { UsageError, IllegalMoveError } from "./errors.js";
export * from "./engine/index.js";
export * from "./env/index.js";
export * from "./agents/index.js";
export * from "./solver/index.js";
export * from "./eval/index.js";
export * from "./train/index.js";
