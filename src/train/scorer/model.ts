/**
 * The action-scorer network: one shared MLP applied to every action's feature row
 * ([batch, actions, ROW] → [batch, actions]), plus a linear skip path from the row to the logit.
 * The skip path can start at the tuned greedy weights (`init: "tuned"`), so the untrained network
 * already scores moves as greedy(tuned) does and the MLP (its last layer starting near zero) learns
 * corrections; with `init: "zero"` the skip starts at zero and everything is learned.
 *
 * Checkpoints are model.json + weights.bin (tfjs format via tf.io.withSaveHandler); model.json
 * records the SHA-256 of weights.bin, each file is written to a temporary name and renamed, and a
 * damaged checkpoint is refused with one line (checked by the players' readScorerCheckpoint).
 */
import { join } from "node:path";
import { HEURISTIC_PRESETS } from "../../agents/heuristic.js";
import { FEATURES } from "../../agents/move-features.js";
import { tf } from "../backend.js";
import { sha256, writeAtomic } from "../../util/files.js";
import { modelArtifacts, modelFromArtifacts } from "../weights.js";
import { CheckpointError } from "../checkpoint.js";
import {
  JsScorer,
  readScorerCheckpoint,
  scorerWeights,
  type ScorerConfig,
} from "../../players/scorer/model.js";

export type { ScorerConfig };

export interface ScorerNet {
  readonly model: tf.LayersModel;
  readonly config: ScorerConfig;
}

/** The tuned greedy weights on an action row's greedy-feature columns, 0 on the rest: the row score greedy(tuned) gives. */
export function tunedRowWeights(row: number): Float64Array {
  const w = new Float64Array(row);
  const tuned = HEURISTIC_PRESETS.tuned!;
  FEATURES.forEach((f, i) => (w[i] = tuned[f.name] ?? 0));
  return w;
}

export function buildScorer(config: ScorerConfig): ScorerNet {
  const { row, hidden, seed } = config;
  // The middle axis is free: the same per-row network scores all `actions` rows of a policy call
  // ([batch, actions, ROW]) or only the legal rows of a training batch ([batch, k, ROW]), since no
  // row sees another; the logits are the same either way.
  const input = tf.input({ shape: [null, row], name: "action_rows" });
  let x: tf.SymbolicTensor = input;
  hidden.forEach((h, i) => {
    x = tf.layers
      .dense({
        units: h,
        activation: "relu",
        name: `mlp_${i}`,
        kernelInitializer: tf.initializers.glorotUniform({ seed: seed * 16 + i }),
      })
      .apply(x) as tf.SymbolicTensor;
  });
  // Near-zero head: at the start the logits are (almost) the skip path's.
  const head = tf.layers
    .dense({
      units: 1,
      name: "head",
      kernelInitializer: tf.initializers.randomUniform({
        minval: -0.01,
        maxval: 0.01,
        seed: seed * 16 + 14,
      }),
    })
    .apply(x) as tf.SymbolicTensor;
  const skip = tf.layers
    .dense({ units: 1, useBias: false, name: "skip", kernelInitializer: "zeros" })
    .apply(input) as tf.SymbolicTensor;
  const logit = tf.layers.add({ name: "logit" }).apply([head, skip]) as tf.SymbolicTensor;
  const model = tf.model({ inputs: input, outputs: logit, name: "penguin_scorer" });
  if (config.init === "tuned") {
    const w = Float32Array.from(tunedRowWeights(row));
    const layer = model.getLayer("skip");
    const k = tf.tensor2d(w, [row, 1]);
    layer.setWeights([k]);
    k.dispose();
  }
  return { model, config };
}

/** Logits [batch, k] for rows [batch, k, ROW] (k = the action space, or any subset of rows). Caller disposes. */
export function forward(net: ScorerNet, rows: tf.Tensor3D): tf.Tensor2D {
  return tf.tidy(() => tf.squeeze(net.model.apply(rows) as tf.Tensor3D, [2]) as tf.Tensor2D);
}

/** The live network's weights in the players' plain-JS form (src/players/scorer/model.ts). */
export function jsScorerOf(net: ScorerNet): JsScorer {
  const byName = new Map<string, Float32Array>();
  for (const w of net.model.weights)
    byName.set(w.originalName, w.read().dataSync() as Float32Array);
  return new JsScorer(
    scorerWeights(net.config, (name) => {
      const t = byName.get(name);
      if (!t) throw new CheckpointError(`scorer network has no tensor ${name}`);
      return t;
    }),
  );
}

/** Writes dir/weights.bin then dir/model.json (which names the weights' SHA-256), each atomically. */
export async function saveScorer(
  dir: string,
  net: ScorerNet,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const { json, weights } = await modelArtifacts(net.model, (w) => ({
    penguinScorer: net.config,
    weightsSha256: sha256(w),
    ...extra,
  }));
  writeAtomic(join(dir, "weights.bin"), weights);
  writeAtomic(join(dir, "model.json"), json);
}

/** Loads a scorer from a checkpoint folder, or from a run folder's `checkpoint/` (checked as play checks it). */
export async function loadScorer(path: string): Promise<ScorerNet> {
  const { dir, json, config, bin } = readScorerCheckpoint(path);
  try {
    const model = await modelFromArtifacts(
      json.modelTopology ?? {},
      json.weightsManifest![0]!.weights as tf.io.WeightsManifestEntry[],
      bin,
    );
    return { model, config };
  } catch (e) {
    throw new CheckpointError(
      `${dir}: cannot load the scorer (${(e as Error).message.split("\n")[0]})`,
    );
  }
}
