/**
 * TensorFlow.js networks to and from files: their variables and Adam's moments as a checkpoint's
 * tensors (checkpoint.ts), and a tfjs model as the model.json + weights.bin that the policy and
 * scorer players read without TensorFlow.js.
 */
import { join } from "node:path";
import type { Adam } from "./adam.js";
import { tf } from "./backend.js";
import {
  CheckpointError,
  checkpointPath,
  loadCheckpoint,
  saveCheckpoint,
  stepOf,
  tensorOf,
  type LoadedCheckpoint,
  type TensorData,
} from "./checkpoint.js";
import type { NetConfig, PolicyNet } from "./model.js";

/** The variables' values (w0, w1, …), Adam's moments (m0, v0, …) and step, for a checkpoint. */
export function trainables(
  vars: readonly tf.Variable[],
  adam: Adam,
): { tensors: Record<string, TensorData>; steps: Record<string, number> } {
  const tensors: Record<string, TensorData> = {};
  vars.forEach((v, i) => (tensors[`w${i}`] = Float32Array.from(v.dataSync() as Float32Array)));
  for (const n of adam.namedState())
    tensors[n.name] = Float32Array.from(n.tensor.dataSync() as Float32Array);
  return { tensors, steps: { adam: adam.step } };
}

/** Puts a checkpoint's trainables (see trainables) back into `vars` and `adam`. */
export function restoreTrainables(
  cp: LoadedCheckpoint<unknown>,
  vars: readonly tf.Variable[],
  adam: Adam,
): void {
  vars.forEach((v, i) => {
    const t = tf.tensor(tensorOf(cp, `w${i}`, v.size) as Float32Array, v.shape);
    v.assign(t);
    t.dispose();
  });
  const moments: Record<string, tf.Tensor> = {};
  for (const n of adam.namedState())
    moments[n.name] = tf.tensor(
      tensorOf(cp, n.name, n.tensor.size) as Float32Array,
      n.tensor.shape,
    );
  adam.restore(moments, stepOf(cp, "adam"));
  Object.values(moments).forEach((t) => t.dispose());
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

/**
 * Writes the policy network to `dir` as the policy player loads it (src/players/policy/model.ts):
 * model.json + weights.bin in a checkpoint folder (checkpoint.ts) whose state names the network.
 */
export async function savePolicyModel(
  dir: string,
  net: PolicyNet,
  steps: Record<string, number> = {},
): Promise<void> {
  const { json, weights } = await modelArtifacts(net.model, () => ({ penguinNet: net.config }));
  saveCheckpoint(dir, {
    algo: "ppo",
    steps,
    rngs: {},
    tensors: {},
    files: { "model.json": json, "weights.bin": weights },
    state: { net: net.config },
  });
}

/** Loads the policy network from a run folder (its `checkpoint/`) or a checkpoint folder. */
export async function loadNet(path: string): Promise<PolicyNet> {
  const dir = checkpointPath(join(path, "checkpoint")) ?? checkpointPath(path);
  if (!dir)
    throw new CheckpointError(
      `no trained policy in ${path}: expected ${join(path, "checkpoint", "state.json")}`,
    );
  const cp = loadCheckpoint<{ net?: NetConfig }>(dir, "ppo");
  const json = cp.files["model.json"];
  const weights = cp.files["weights.bin"];
  if (!json || !weights) throw new CheckpointError(`${dir} holds no policy network`);
  let parsed: {
    modelTopology: object;
    weightsManifest: { weights: tf.io.WeightsManifestEntry[] }[];
    userDefinedMetadata?: { penguinNet?: NetConfig };
  };
  try {
    parsed = JSON.parse(json.toString("utf8"));
  } catch {
    throw new CheckpointError(`${dir}/model.json is not valid JSON`);
  }
  const config = parsed.userDefinedMetadata?.penguinNet;
  if (!config || !parsed.weightsManifest?.[0])
    throw new CheckpointError(`${dir}/model.json is not a penguin policy network`);
  try {
    const model = await modelFromArtifacts(
      parsed.modelTopology,
      parsed.weightsManifest[0].weights,
      new Uint8Array(weights),
    );
    return { model, config };
  } catch (e) {
    throw new CheckpointError(
      `${dir}: cannot load the network (${(e as Error).message.split("\n")[0]})`,
    );
  }
}
