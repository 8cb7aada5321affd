/**
 * The policy network for play: an MLP from the input (features.ts) to one logit per action id,
 * read from a training checkpoint without TensorFlow.js and run in plain JavaScript over a batch
 * of positions. Training (src/train/model.ts) builds and trains the same network, with a value
 * head that play does not need.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import { sha256 } from "../../util/files.js";
import {
  MAX_CHECKPOINT_BYTES,
  MAX_RUN_FILE_BYTES,
  readBytesFile,
  readTextFile,
} from "../../util/read.js";
import { readTensors, tensor, type WeightsManifest } from "../tfjs-weights.js";
import type { FeatureKind } from "./features.js";

export interface NetConfig {
  obsSize: number;
  actions: number;
  /** Hidden layer sizes, e.g. [256, 256]. */
  hidden: number[];
  seed: number;
  /** Input layout (features.ts); absent in nets saved before it existed, meaning "env". */
  features?: FeatureKind;
}

interface Dense {
  readonly w: Float32Array;
  readonly b: Float32Array;
  readonly nIn: number;
  readonly nOut: number;
}

export interface PolicyWeights {
  readonly config: NetConfig;
  /** The ReLU layers, then the policy layer (no activation). */
  readonly layers: readonly Dense[];
}

/** A missing or damaged checkpoint: bad input for the CLI (one line, exit 2). */
export class CheckpointError extends UsageError {
  override name = "CheckpointError";
}

/** The checkpoint folder at dir, or the one a kill left at dir.old; undefined when neither holds one. */
export function checkpointPath(dir: string): string | undefined {
  if (existsSync(join(dir, "state.json"))) return dir;
  if (existsSync(join(`${dir}.old`, "state.json"))) return `${dir}.old`;
  return undefined;
}

/** A checkpoint file, checked against the SHA-256 that state.json records for it. */
export function readChecked(dir: string, name: string, hashes: Record<string, string>): Buffer {
  const p = join(dir, name);
  if (!existsSync(p)) throw new CheckpointError(`damaged checkpoint ${dir}: ${name} is missing`);
  const data = readBytesFile(p, { maxBytes: MAX_CHECKPOINT_BYTES, what: "checkpoint file" });
  if (hashes[name] !== undefined && sha256(data) !== hashes[name])
    throw new CheckpointError(
      `damaged checkpoint ${dir}: ${name} does not match its recorded SHA-256 (truncated or modified); start a new run or restore the file`,
    );
  return data;
}

/** state.json of a checkpoint folder, checked against state.sha256. */
export function readState<T>(dir: string): T {
  // Bounded and type-checked: a FIFO or device named state.json is refused, not waited on.
  const stateText = readTextFile(join(dir, "state.json"), {
    maxBytes: MAX_RUN_FILE_BYTES,
    what: "checkpoint state",
  });
  const stateHash = join(dir, "state.sha256");
  if (!existsSync(stateHash))
    throw new CheckpointError(`damaged checkpoint ${dir}: state.sha256 is missing`);
  if (
    readTextFile(stateHash, { maxBytes: 1024, what: "checkpoint hash" }).trim() !==
    sha256(stateText)
  )
    throw new CheckpointError(
      `damaged checkpoint ${dir}: state.json does not match its recorded SHA-256 (truncated or modified); start a new run or restore the file`,
    );
  try {
    return JSON.parse(stateText) as T;
  } catch {
    throw new CheckpointError(`damaged checkpoint ${dir}: state.json is not valid JSON`);
  }
}

/** The policy's weights from a run folder (its `checkpoint/`) or a checkpoint folder. */
export function readPolicy(path: string): PolicyWeights {
  const dir = checkpointPath(join(path, "checkpoint")) ?? checkpointPath(path);
  if (!dir)
    throw new CheckpointError(
      `no trained policy in ${path}: expected ${join(path, "checkpoint", "state.json")}`,
    );
  const state = readState<{ sha256?: Record<string, string> }>(dir);
  if (!state.sha256)
    throw new CheckpointError(`damaged checkpoint ${dir}: no hashes in state.json`);
  let parsed: WeightsManifest & { userDefinedMetadata?: { penguinNet?: NetConfig } };
  try {
    parsed = JSON.parse(readChecked(dir, "model.json", state.sha256).toString("utf8"));
  } catch (e) {
    if (e instanceof CheckpointError) throw e;
    throw new CheckpointError(`${dir}/model.json is not valid JSON`);
  }
  const config = parsed.userDefinedMetadata?.penguinNet;
  if (!config || !parsed.weightsManifest?.[0])
    throw new CheckpointError(`${dir}/model.json is not a penguin policy network`);
  const t = readTensors(parsed, new Uint8Array(readChecked(dir, "weights.bin", state.sha256)), dir);
  const layers: Dense[] = [];
  let nIn = config.obsSize;
  const names = [...config.hidden.map((_, i) => `trunk_${i}`), "policy"];
  const sizes = [...config.hidden, config.actions];
  names.forEach((name, i) => {
    const w = tensor(t, `${name}/kernel`, dir);
    const b = tensor(t, `${name}/bias`, dir);
    if (w.length !== nIn * sizes[i]! || b.length !== sizes[i])
      throw new CheckpointError(`damaged checkpoint ${dir}: ${name} has the wrong shape`);
    layers.push({ w, b, nIn, nOut: sizes[i]! });
    nIn = sizes[i]!;
  });
  return { config, layers };
}

/** Logits (batch × actions) for a batch of inputs (batch × obsSize), in plain JavaScript. */
export class JsPolicy {
  #bufs: Float32Array[] = [];

  readonly config: NetConfig;

  constructor(readonly w: PolicyWeights) {
    this.config = w.config;
  }

  infer(obs: Float32Array, batch: number, logitsOut: Float32Array): void {
    const L = this.w.layers;
    if ((this.#bufs[0]?.length ?? 0) < batch * L[0]!.nOut)
      this.#bufs = L.map((l) => new Float32Array(batch * l.nOut));
    let x = obs;
    L.forEach((l, k) => {
      const out = k === L.length - 1 ? logitsOut : this.#bufs[k]!;
      const { w, b, nIn, nOut } = l;
      for (let r = 0; r < batch; r++) {
        const at = r * nOut;
        out.set(b, at);
        for (let i = 0; i < nIn; i++) {
          const v = x[r * nIn + i]!;
          if (v === 0) continue;
          const row = i * nOut;
          for (let j = 0; j < nOut; j++) out[at + j] = out[at + j]! + v * w[row + j]!;
        }
        if (k < L.length - 1) for (let j = at; j < at + nOut; j++) if (out[j]! < 0) out[j] = 0;
      }
      x = out;
    });
  }
}
