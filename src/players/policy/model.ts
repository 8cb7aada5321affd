/**
 * The policy network for play: an MLP from the input (features.ts) to one logit per action id,
 * read from a training checkpoint without TensorFlow.js and run in plain JavaScript over a batch
 * of positions. Training (src/train/model.ts) builds and trains the same network, with a value
 * head that play does not need.
 */
import { join } from "node:path";
import { CheckpointError, checkpointPath, readChecked, readState } from "../checkpoint.js";
import { readTensors, tensor, type WeightsManifest } from "../tfjs-weights.js";

export { CheckpointError, checkpointPath, readChecked, readState };
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
