export * from "./actions.js";
