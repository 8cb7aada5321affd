/**
 * Checkpoints: a folder holding
 *   model.json + weights.bin   the network, as tf.io.withSaveHandler hands them over (tfjs format)
 *   optimizer.json + .bin      Adam moments (tf.io.encodeWeights) and step count
 *   state.json                 trainer state (step, update, RNG states, anything else the run needs)
 *                              and the SHA-256 of every other file, written last.
 * The folder is first written complete under a temporary name (each file itself written to a
 * temporary file and renamed), then swapped in by renames, so a kill at any instant leaves either
 * the old or the new checkpoint. Loading checks every hash and refuses a damaged checkpoint with
 * one line saying which file is wrong.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tf } from "./backend.js";
import type { Adam } from "./adam.js";
import { sha256, writeAtomic } from "../util/files.js";
import type { PolicyNet, NetConfig } from "./model.js";
import {
  CheckpointError,
  checkpointPath,
  readChecked,
  readState,
} from "../players/policy/model.js";

const CHECKPOINT_VERSION = 1;

export { CheckpointError, checkpointPath };

export interface SavedCheckpoint<T> {
  net: PolicyNet;
  optimizer?: { named: Record<string, tf.Tensor>; step: number };
  trainer: T;
}

interface StateFile<T> {
  version: number;
  net: NetConfig;
  optimizerStep: number;
  trainer: T;
  sha256: Record<string, string>;
}

function toBytes(data: ArrayBuffer | ArrayBuffer[] | undefined): Uint8Array {
  if (!data) return new Uint8Array(0);
  if (Array.isArray(data)) return new Uint8Array(tf.io.concatenateArrayBuffers(data));
  return new Uint8Array(data);
}

/**
 * A tfjs model as {model.json text, weights.bin bytes}. Without tfjs-node there is no file://
 * handler, so every network of the project is saved through withSaveHandler and this one layout;
 * `metadata` (given the weight bytes) goes into userDefinedMetadata.
 */
export async function modelArtifacts(
  model: tf.LayersModel,
  metadata: (weights: Uint8Array) => Record<string, unknown>,
): Promise<{ json: string; weights: Uint8Array }> {
  let json = "";
  let weights: Uint8Array = new Uint8Array(0);
  await model.save(
    tf.io.withSaveHandler(async (art) => {
      weights = toBytes(art.weightData as ArrayBuffer | ArrayBuffer[] | undefined);
      json = JSON.stringify({
        format: "layers-model",
        generatedBy: `TensorFlow.js tfjs-layers v${tf.version.tfjs}`,
        convertedBy: null,
        modelTopology: art.modelTopology,
        weightsManifest: [{ paths: ["weights.bin"], weights: art.weightSpecs }],
        userDefinedMetadata: metadata(weights),
      });
      return { modelArtifactsInfo: { dateSaved: new Date(0), modelTopologyType: "JSON" } };
    }),
  );
  return { json, weights };
}

/** The inverse of modelArtifacts: a model from its topology, weight specs and weight bytes (tf.io.fromMemory). */
export function modelFromArtifacts(
  topology: unknown,
  weightSpecs: tf.io.WeightsManifestEntry[],
  weights: Uint8Array,
): Promise<tf.LayersModel> {
  const buf = weights.buffer.slice(
    weights.byteOffset,
    weights.byteOffset + weights.byteLength,
  ) as ArrayBuffer;
  return tf.loadLayersModel(
    tf.io.fromMemory({
      modelTopology: topology as tf.io.ModelArtifacts["modelTopology"],
      weightSpecs,
      weightData: buf,
    }),
  );
}

/** The network as tfjs artifacts {model.json text, weights.bin bytes}. */
function serializeNet(net: PolicyNet): Promise<{ json: string; weights: Uint8Array }> {
  return modelArtifacts(net.model, () => ({ penguinNet: net.config }));
}

async function deserializeNet(
  json: string,
  weights: Uint8Array,
  where: string,
): Promise<PolicyNet> {
  let parsed: {
    modelTopology: object;
    weightsManifest: { weights: tf.io.WeightsManifestEntry[] }[];
    userDefinedMetadata?: { penguinNet?: NetConfig };
  };
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new CheckpointError(`${where}/model.json is not valid JSON`);
  }
  const config = parsed.userDefinedMetadata?.penguinNet;
  if (!config || !parsed.weightsManifest?.[0])
    throw new CheckpointError(`${where}/model.json is not a penguin policy network`);
  try {
    return {
      model: await modelFromArtifacts(
        parsed.modelTopology,
        parsed.weightsManifest[0].weights,
        weights,
      ),
      config,
    };
  } catch (e) {
    throw new CheckpointError(
      `${where}: cannot load the network (${(e as Error).message.split("\n")[0]})`,
    );
  }
}

export async function saveCheckpoint<T>(
  dir: string,
  net: PolicyNet,
  optimizer: Adam | undefined,
  trainer: T,
): Promise<void> {
  const { json, weights } = await serializeNet(net);
  const files: Record<string, string | Uint8Array> = { "model.json": json, "weights.bin": weights };
  if (optimizer) {
    const enc = await tf.io.encodeWeights(optimizer.namedState());
    files["optimizer.json"] = JSON.stringify({ specs: enc.specs });
    files["optimizer.bin"] = toBytes(enc.data);
  }
  const hashes: Record<string, string> = {};
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  for (const [name, data] of Object.entries(files)) {
    writeAtomic(join(tmp, name), data);
    hashes[name] = sha256(data);
  }
  const state: StateFile<T> = {
    version: CHECKPOINT_VERSION,
    net: net.config,
    optimizerStep: optimizer?.step ?? 0,
    trainer,
    sha256: hashes,
  };
  const stateText = JSON.stringify(state, null, 1);
  writeAtomic(join(tmp, "state.json"), stateText);
  // state.json holds the other files' hashes; its own lives beside it.
  writeAtomic(join(tmp, "state.sha256"), `${sha256(stateText)}\n`);
  const old = `${dir}.old`;
  rmSync(old, { recursive: true, force: true });
  if (existsSync(dir)) renameSync(dir, old);
  renameSync(tmp, dir);
  rmSync(old, { recursive: true, force: true });
}

/** The checkpoint folder to read: `dir`, or `dir.old` when a kill fell between the two renames. */
export async function loadCheckpoint<T>(dirArg: string): Promise<SavedCheckpoint<T>> {
  const dir = checkpointPath(dirArg);
  if (!dir) throw new CheckpointError(`no checkpoint in ${dirArg} (state.json missing)`);
  const state = readState<StateFile<T>>(dir);
  if (state.version !== CHECKPOINT_VERSION || !state.sha256 || !state.net)
    throw new CheckpointError(
      `damaged checkpoint ${dir}: state.json has version ${String(state.version)}, expected ${CHECKPOINT_VERSION}`,
    );
  const json = readChecked(dir, "model.json", state.sha256).toString("utf8");
  const weights = readChecked(dir, "weights.bin", state.sha256);
  const net = await deserializeNet(json, new Uint8Array(weights), dir);
  let optimizer: SavedCheckpoint<T>["optimizer"];
  if (state.sha256["optimizer.bin"]) {
    const specs = JSON.parse(readChecked(dir, "optimizer.json", state.sha256).toString("utf8"))
      .specs as tf.io.WeightsManifestEntry[];
    const bin = readChecked(dir, "optimizer.bin", state.sha256);
    const buf = bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer;
    optimizer = { named: tf.io.decodeWeights(buf, specs), step: state.optimizerStep };
  }
  return { net, optimizer, trainer: state.trainer };
}

/** Loads just the network from a run folder (its `checkpoint/`) or a checkpoint folder. */
export async function loadNet(path: string): Promise<PolicyNet> {
  const dir = checkpointPath(join(path, "checkpoint")) ?? checkpointPath(path);
  if (!dir)
    throw new CheckpointError(
      `no trained policy in ${path}: expected ${join(path, "checkpoint", "state.json")}`,
    );
  return (await loadCheckpoint(dir)).net;
}
