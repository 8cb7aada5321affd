/**
 * Picks the fastest TensorFlow.js backend that loads here: tfjs-node (native, optional
 * dependency) when installed, else the WebAssembly backend (its .wasm files ship inside the npm
 * package, so it works offline), else the plain JavaScript CPU backend.
 */
import * as tf from "@tensorflow/tfjs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export type BackendName = "tensorflow" | "wasm" | "cpu";
let chosen: Promise<BackendName> | undefined;

async function tryNode(): Promise<boolean> {
  try {
    // A string the bundler cannot resolve statically: the package is optional.
    const name = "@tensorflow/tfjs-node";
    await import(name);
    return (await tf.setBackend("tensorflow")) === true;
  } catch {
    return false;
  }
}

async function tryWasm(): Promise<boolean> {
  try {
    const wasm = await import("@tensorflow/tfjs-backend-wasm");
    const req = createRequire(import.meta.url);
    const dist = join(dirname(req.resolve("@tensorflow/tfjs-backend-wasm/package.json")), "dist") + "/";
    wasm.setWasmPaths(dist);
    // Node has no worker-based wasm threads, so tfjs runs one thread whatever we ask; asking for
    // 1 keeps the floating-point reduction order fixed, which the resume guarantee relies on.
    wasm.setThreadsCount(1);
    return (await tf.setBackend("wasm")) === true;
  } catch {
    return false;
  }
}

/**
 * Initialises the backend once per process. `prefer` forces one (e.g. "cpu" for a check);
 * PENGUIN_TF_BACKEND does the same from the environment.
 */
export function initBackend(prefer?: BackendName): Promise<BackendName> {
  if (!chosen) {
    chosen = (async () => {
      const want = prefer ?? (process.env.PENGUIN_TF_BACKEND as BackendName | undefined);
      let name: BackendName = "cpu";
      if ((want === undefined || want === "tensorflow") && (await tryNode())) name = "tensorflow";
      else if ((want === undefined || want === "wasm") && (await tryWasm())) name = "wasm";
      else await tf.setBackend("cpu");
      await tf.ready();
      return name;
    })();
  }
  return chosen;
}

export { tf };
