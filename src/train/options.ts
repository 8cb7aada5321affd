/** The option spec format now lives with the options registry (src/options); kept here for the trainers' imports. */
export * from "../options/spec.js";
