/**
 * The shipped move-safety network: the one `penguin eval --agent safety` (and guided's network
 * orders) play when no model is named, or with model=default. The package carries its two files
 * in models/safety (scripts/ship-safety.ts writes them from a training run).
 */
import { join } from "node:path";
import { packageRoot } from "../../env/provenance.js";

/** Its folder inside the package. */
export const SHIPPED_SAFETY = "models/safety";

/** `model` when a folder is named, else (nothing, or `default`) the shipped network's folder. */
export function safetyModel(model: unknown): unknown {
  return model === undefined || model === "default"
    ? join(packageRoot().dir, SHIPPED_SAFETY)
    : model;
}
