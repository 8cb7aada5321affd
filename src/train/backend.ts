/**
 * Picks the fastest TensorFlow.js backend that loads here: tfjs-node (native TensorFlow, an
 * optional dependency that `npm run setup:native` builds where its own install cannot download)
 * when it loads, else the WebAssembly backend (its .wasm files ship inside the npm package, so it
 * works offline), else the plain JavaScript CPU backend.
 */
import * as tf from "@tensorflow/tfjs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { UsageError } from "../errors.js";

// tfjs's "install our node backend" banner (printed on the CPU backend's first use) would reach
// test and benchmark logs; backendNotice says the same once, with the command that gets native
// TensorFlow. PROD only silences tfjs's warnings.
tf.env().set("PROD", true);

export type BackendName = "tensorflow" | "wasm" | "cpu";
const BACKEND_NAMES: readonly BackendName[] = ["tensorflow", "wasm", "cpu"];

/** What a run records about the arithmetic it ran on. */
export interface BackendInfo {
  backend: BackendName;
  /** the @tensorflow/tfjs version */
  tfjs: string;
  /** the native TensorFlow library's version, on the tensorflow backend only */
  tensorflow?: string;
  /** native TensorFlow's intra-op threads (results depend on it), on the tensorflow backend only */
  threads?: number;
}

/** Intra-op threads of native TensorFlow unless TF_NUM_INTRAOP_THREADS says otherwise. */
const NATIVE_THREADS = 2;

const loaded = new Map<BackendName, Promise<boolean>>();
let chosen: Promise<BackendName> | undefined;

async function registerNode(): Promise<boolean> {
  try {
    // oneDNN's fused kernels change results in the last bits between settings and gain little
    // for these small MLPs; fixing them off keeps runs bit-reproducible from process to process
    // and silences TensorFlow's start-up banner, which says nothing a user can act on. Either
    // variable, set by the user, wins.
    process.env.TF_ENABLE_ONEDNN_OPTS ??= "0";
    process.env.TF_CPP_MIN_LOG_LEVEL ??= "2";
    // TensorFlow splits a kernel's work by its intra-op thread count, which changes the order of
    // float additions: a count fixed here, not the machine's core count, keeps a seed's weights
    // the same on every machine.
    process.env.TF_NUM_INTRAOP_THREADS ??= String(NATIVE_THREADS);
    // A string the type checker and bundlers cannot resolve statically: the package is optional.
    const name = "@tensorflow/tfjs-node";
    await import(name);
    return true;
  } catch {
    return false;
  }
}

async function registerWasm(): Promise<boolean> {
  try {
    const wasm = await import("@tensorflow/tfjs-backend-wasm");
    const req = createRequire(import.meta.url);
    const dist = `${join(dirname(req.resolve("@tensorflow/tfjs-backend-wasm/package.json")), "dist")}/`;
    wasm.setWasmPaths(dist);
    // Node has no worker-based wasm threads, so tfjs runs one thread whatever we ask; asking for
    // 1 keeps the floating-point reduction order fixed, which the resume guarantee relies on.
    wasm.setThreadsCount(1);
    return true;
  } catch {
    return false;
  }
}

/**
 * Registers one backend and checks that it initialises (once per process), leaving the current
 * backend as it was; false when it cannot load here.
 */
function loadBackend(name: BackendName): Promise<boolean> {
  let p = loaded.get(name);
  if (!p) {
    p = (async () => {
      const registered =
        name === "tensorflow"
          ? await registerNode()
          : name === "wasm"
            ? await registerWasm()
            : true;
      if (!registered) return false;
      // tfjs-node makes itself current on import, and backends initialise only when set: try it,
      // then put back whatever was current before.
      const before = tf.engine().backendName;
      let ok = false;
      try {
        ok = await tf.setBackend(name);
      } catch {
        ok = false;
      }
      if (before && before !== name) await tf.setBackend(before);
      return ok;
    })();
    loaded.set(name, p);
  }
  return p;
}

/** Makes `name` the current backend; false when it does not load here. */
export async function useBackend(name: BackendName): Promise<boolean> {
  if (!(await loadBackend(name))) return false;
  if (!(await tf.setBackend(name))) return false;
  await tf.ready();
  return true;
}

/** Every backend that loads in this process, fastest first. */
export async function availableBackends(): Promise<BackendName[]> {
  const out: BackendName[] = [];
  for (const b of BACKEND_NAMES) if (await loadBackend(b)) out.push(b);
  return out;
}

function parseBackend(v: string | undefined): BackendName | undefined {
  if (v === undefined || v === "") return undefined;
  if ((BACKEND_NAMES as readonly string[]).includes(v)) return v as BackendName;
  throw new UsageError(`PENGUIN_TF_BACKEND must be one of ${BACKEND_NAMES.join(", ")}; got "${v}"`);
}

/**
 * Initialises the backend once per process: the fastest that loads, or the one `prefer` (or the
 * PENGUIN_TF_BACKEND variable) names. A named backend that does not load falls through to the
 * next, slower one, so a run never fails for want of native TensorFlow.
 */
export function initBackend(prefer?: BackendName): Promise<BackendName> {
  if (!chosen) {
    chosen = (async () => {
      const want = prefer ?? parseBackend(process.env.PENGUIN_TF_BACKEND);
      const order = want ? BACKEND_NAMES.slice(BACKEND_NAMES.indexOf(want)) : BACKEND_NAMES;
      for (const b of order)
        if (await useBackend(b)) {
          announce?.(backendNotice(b));
          return b;
        }
      throw new Error("no TensorFlow.js backend loads (not even cpu)");
    })();
  }
  return chosen;
}

let announce: ((line: string) => void) | undefined;

/**
 * Training runs (penguin train): say which backend runs, once, when the run picks it, which is
 * after the run has checked its options and inputs (bad input stays one line).
 */
export function announceBackendTo(write: (line: string) => void): void {
  announce = write;
}

/** One line for the start of a training or benchmark run: the backend, and how to get native TensorFlow. */
export function backendNotice(name: BackendName): string {
  if (name === "tensorflow") return "TensorFlow.js backend: tensorflow (native TensorFlow)";
  return `TensorFlow.js backend: ${name}, several times slower a step than native TensorFlow; for it: npm install @tensorflow/tfjs-node (or, in a clone where its download fails, npm run setup:native)`;
}

/** The current backend and library versions, as every run records them. */
export function backendInfo(): BackendInfo {
  const backend = tf.getBackend() as BackendName;
  const info: BackendInfo = { backend, tfjs: tf.version.tfjs };
  if (backend === "tensorflow") {
    const binding = (tf.backend() as unknown as { binding?: { TF_Version?: string } }).binding;
    if (binding?.TF_Version) info.tensorflow = binding.TF_Version;
    info.threads = Number(process.env.TF_NUM_INTRAOP_THREADS ?? NATIVE_THREADS);
  }
  return info;
}

export { tf };
