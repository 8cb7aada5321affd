/**
 * The action-scorer network for play: its checkpoint read without TensorFlow.js
 * (src/players/tfjs-weights.ts) and run in plain JavaScript, one legal row at a time. Training
 * (src/train/scorer/model.ts) builds, trains and saves the same network with TensorFlow.js; its
 * test checks the two give the same logits.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import { CheckpointError } from "../checkpoint.js";
import { sha256 } from "../../util/files.js";
import {
  MAX_CHECKPOINT_BYTES,
  MAX_RUN_FILE_BYTES,
  readBytesFile,
  readTextFile,
} from "../../util/read.js";
import { ROW } from "./features.js";
import { readTensors, tensor, type WeightsManifest } from "../tfjs-weights.js";

export interface ScorerConfig {
  actions: number;
  row: number;
  hidden: number[];
  seed: number;
  /** Skip path start: the tuned greedy weights, or zero. */
  init: "tuned" | "zero";
}

/** The scorer's numbers: hidden layers ([in, out] row-major kernels), the 1-unit head, the linear skip path. */
export interface ScorerWeights {
  readonly config: ScorerConfig;
  readonly layers: readonly { w: Float32Array; b: Float32Array; nIn: number; nOut: number }[];
  readonly head: Float32Array;
  readonly headBias: number;
  readonly skip: Float32Array;
}

/** A damaged or missing scorer checkpoint: the one checkpoint error class. */
export const ScorerCheckpointError = CheckpointError;

/** The weights from named tensors (a checkpoint's, or a live network's). */
export function scorerWeights(
  config: ScorerConfig,
  get: (name: string) => Float32Array,
): ScorerWeights {
  let nIn = config.row;
  const layers = config.hidden.map((h, i) => {
    const l = { w: get(`mlp_${i}/kernel`), b: get(`mlp_${i}/bias`), nIn, nOut: h };
    nIn = h;
    return l;
  });
  return {
    config,
    layers,
    head: get("head/kernel"),
    headBias: get("head/bias")[0]!,
    skip: get("skip/kernel"),
  };
}

/** The network in plain JS for play (one row at a time, only the legal rows). */
export class JsScorer {
  readonly #buf: Float32Array[];

  constructor(readonly w: ScorerWeights) {
    this.#buf = [
      new Float32Array(w.config.row),
      ...w.config.hidden.map((h) => new Float32Array(h)),
    ];
  }

  /** The logit of one row rows[offset .. offset + ROW). */
  logit(rows: Float32Array, offset: number): number {
    const { layers, skip, head } = this.w;
    let v = this.w.headBias;
    const input = this.#buf[0]!;
    for (let j = 0; j < input.length; j++) {
      input[j] = rows[offset + j]!;
      v += input[j]! * skip[j]!;
    }
    let cur = input;
    layers.forEach((l, k) => {
      const next = this.#buf[k + 1]!;
      for (let o = 0; o < l.nOut; o++) {
        let z = l.b[o]!;
        for (let i = 0; i < l.nIn; i++) z += cur[i]! * l.w[i * l.nOut + o]!;
        next[o] = Math.max(z, 0);
      }
      cur = next;
    });
    for (let i = 0; i < cur.length; i++) v += cur[i]! * head[i]!;
    return v;
  }
}

/** A scorer checkpoint's files, read and checked: its folder, model.json, config and weights.bin. */
export interface ScorerCheckpoint {
  readonly dir: string;
  readonly json: WeightsManifest & {
    readonly modelTopology?: object;
    readonly userDefinedMetadata?: { penguinScorer?: ScorerConfig; weightsSha256?: string };
  };
  readonly config: ScorerConfig;
  readonly bin: Uint8Array;
}

/**
 * Reads and checks a scorer checkpoint (a checkpoint folder, or a run folder's `checkpoint/`):
 * model.json bounded and parsed, a scorer config whose row width this build computes, weights.bin
 * present and matching its recorded SHA-256. Play and training both load through here.
 */
export function readScorerCheckpoint(path: string): ScorerCheckpoint {
  const dir = existsSync(join(path, "checkpoint", "model.json")) ? join(path, "checkpoint") : path;
  const mj = join(dir, "model.json");
  if (!existsSync(mj))
    throw new ScorerCheckpointError(
      `no trained scorer in ${path}: expected ${join(path, "checkpoint", "model.json")}`,
    );
  let json: ScorerCheckpoint["json"];
  try {
    // Bounded and type-checked: a FIFO or device named model.json is refused, not waited on.
    json = JSON.parse(
      readTextFile(mj, { maxBytes: MAX_RUN_FILE_BYTES, what: "network description" }),
    );
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new ScorerCheckpointError(`damaged checkpoint ${dir}: model.json is not valid JSON`);
  }
  const config = json.userDefinedMetadata?.penguinScorer;
  if (!config || !json.weightsManifest?.[0])
    throw new ScorerCheckpointError(`${mj} is not a penguin action-scorer network`);
  if (config.row !== ROW)
    throw new ScorerCheckpointError(
      `the scorer in ${dir} reads rows of ${config.row} features; this build computes ${ROW}`,
    );
  const wp = join(dir, "weights.bin");
  if (!existsSync(wp))
    throw new ScorerCheckpointError(`damaged checkpoint ${dir}: weights.bin is missing`);
  const bin = readBytesFile(wp, { maxBytes: MAX_CHECKPOINT_BYTES, what: "checkpoint file" });
  if (sha256(bin) !== json.userDefinedMetadata?.weightsSha256)
    throw new ScorerCheckpointError(
      `damaged checkpoint ${dir}: weights.bin does not match its recorded SHA-256 (truncated or modified)`,
    );
  return { dir, json, config, bin };
}

/** Reads a scorer from a checkpoint folder, or from a run folder's `checkpoint/` (SHA-256 checked). */
export function readScorer(path: string): ScorerWeights {
  const { dir, json, config, bin } = readScorerCheckpoint(path);
  const t = readTensors(json, bin, dir);
  return scorerWeights(config, (name) => tensor(t, name, dir));
}
