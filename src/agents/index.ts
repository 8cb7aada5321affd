export * from "./agent.js";
export * from "./features.js";
export * from "./heuristic.js";
export * from "./position-set.js";
export * from "./random.js";
export * from "./greedy.js";
export * from "./lookahead.js";
export * from "./registry.js";
