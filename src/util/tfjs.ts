/**
 * TensorFlow.js is an optional peer of the package: only training and the network players that
 * run on it (policy, scorer) load it. This turns its absence into one line naming what to install.
 */
import { UsageError } from "../errors.js";

export const TFJS_INSTALL =
  "npm install @tensorflow/tfjs @tensorflow/tfjs-backend-wasm (and @tensorflow/tfjs-node for native speed)";

/** A UsageError naming the packages when `e` is the failure to find TensorFlow.js; else undefined. */
export function tfjsMissing(e: unknown, what: string): UsageError | undefined {
  const code = (e as { code?: string }).code;
  const msg = e instanceof Error ? e.message : String(e);
  if (code === "ERR_MODULE_NOT_FOUND" && /@tensorflow\/tfjs(-backend-wasm)?['"]/.test(msg))
    return new UsageError(`${what} needs TensorFlow.js, which is not installed: ${TFJS_INSTALL}`);
  return undefined;
}

/** `load()`, with a missing TensorFlow.js reported as one line (UsageError). */
export async function withTfjs<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    throw tfjsMissing(e, what) ?? e;
  }
}
