export * from "./card.js";
export * from "./rules.js";
export * from "./state.js";
export * from "./moves.js";
export * from "./deal.js";
export * from "./notation.js";
export * from "./board.js";
export * from "./render.js";
