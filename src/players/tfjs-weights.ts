/**
 * Reads the weights of a network saved in TensorFlow.js's layers format (model.json, whose
 * weightsManifest names each tensor, and weights.bin, the float32 tensors back to back) without
 * loading TensorFlow.js: players run the arithmetic in plain JavaScript.
 */
import { UsageError } from "../errors.js";

export interface WeightsManifest {
  readonly weightsManifest?: { readonly weights: readonly ManifestEntry[] }[];
}
interface ManifestEntry {
  readonly name: string;
  readonly shape: readonly number[];
  readonly dtype?: string;
}

/** Each tensor of the manifest by name ("layer/kernel", "layer/bias"), as a copy of its floats. */
export function readTensors(
  json: WeightsManifest,
  bin: Uint8Array,
  where: string,
): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  const entries = (json.weightsManifest ?? []).flatMap((g) => g.weights);
  let at = 0;
  for (const e of entries) {
    if ((e.dtype ?? "float32") !== "float32")
      throw new UsageError(`${where}: tensor ${e.name} is ${e.dtype}, only float32 is read`);
    const n = e.shape.reduce((a, b) => a * b, 1);
    if (at + 4 * n > bin.byteLength)
      throw new UsageError(`damaged checkpoint ${where}: weights.bin is shorter than its manifest`);
    out.set(
      e.name,
      new Float32Array(bin.buffer.slice(bin.byteOffset + at, bin.byteOffset + at + 4 * n)),
    );
    at += 4 * n;
  }
  if (at !== bin.byteLength)
    throw new UsageError(`damaged checkpoint ${where}: weights.bin is longer than its manifest`);
  return out;
}

/** The named tensor, or a one-line error naming the checkpoint. */
export function tensor(t: Map<string, Float32Array>, name: string, where: string): Float32Array {
  const w = t.get(name);
  if (!w) throw new UsageError(`${where}: the checkpoint has no tensor ${name}`);
  return w;
}
