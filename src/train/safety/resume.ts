/**
 * The state a stopped safety run continues from (`penguin train --resume DIR`): the step and the
 * place in the epoch, the network's current weights and Adam's moments (which checkpoint/, the
 * best network so far, does not hold), the running loss and the metrics rows. One file,
 * safety-state.json, written atomically with its own SHA-256, so a kill leaves the old state or
 * the new one and an edited state is refused.
 */
import { CheckpointError } from "../../players/checkpoint.js";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Adam } from "../adam.js";
import { tf } from "../backend.js";
import type { RunFolder } from "../run.js";

export const STATE_FILE = "safety-state.json";

/** Where the loop stands: everything a resumed run needs besides the weights and moments. */
export interface SafetyProgress {
  readonly step: number;
  /** Epochs begun (their shuffles are replayed from the seed on resume). */
  readonly epoch: number;
  /** Index in the epoch's permutation of the next minibatch. */
  readonly next: number;
  readonly best: number;
  readonly lastEval: number;
  readonly lossAcc: number;
  readonly lossN: number;
  readonly samples0: number;
  readonly wallSeconds: number;
  /** Training moves of the data when the run stopped: a resumed run must see the same data. */
  readonly trainMoves: number;
  readonly rows: Record<string, number | string>[];
}

interface SavedState extends SafetyProgress {
  readonly vars: string[];
  readonly moments: string[];
  readonly adamStep: number;
}

const encode = (a: Float32Array | Int32Array | Uint8Array): string =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("base64");
function decode(text: string): Float32Array {
  const bytes = Buffer.from(text, "base64");
  return new Float32Array(Uint8Array.from(bytes).buffer);
}

export function saveProgress(
  run: RunFolder<string>,
  p: SafetyProgress,
  vars: readonly tf.Variable[],
  adam: Adam,
): void {
  const state: SavedState = {
    ...p,
    vars: vars.map((v) => encode(v.dataSync() as Float32Array)),
    moments: adam.namedState().map((n) => encode(n.tensor.dataSync() as Float32Array)),
    adamStep: adam.step,
  };
  run.writeHashed(STATE_FILE, state);
}

/** The saved progress, after putting the weights into `vars` and the moments into `adam`; undefined when the run has no state. */
export function loadProgress(
  run: RunFolder<string>,
  vars: readonly tf.Variable[],
  adam: Adam,
): SafetyProgress | undefined {
  const s = run.readHashed<SavedState>(STATE_FILE);
  if (!s) return undefined;
  const named = adam.namedState();
  if (s.vars.length !== vars.length || s.moments.length !== named.length)
    throw new CheckpointError(
      `${join(run.dir, STATE_FILE)} does not match the network in config.json`,
    );
  vars.forEach((v, i) => {
    const a = decode(s.vars[i]!);
    if (a.length !== v.size)
      throw new CheckpointError(
        `${join(run.dir, STATE_FILE)} does not match the network in config.json`,
      );
    const t = tf.tensor(a, v.shape);
    v.assign(t);
    t.dispose();
  });
  const moments: Record<string, tf.Tensor> = {};
  named.forEach((n, i) => (moments[n.name] = tf.tensor(decode(s.moments[i]!), n.tensor.shape)));
  adam.restore(moments, s.adamStep);
  Object.values(moments).forEach((t) => t.dispose());
  const { vars: _v, moments: _m, adamStep: _s, ...progress } = s;
  return progress;
}

/** A finished run keeps no resume state. */
export function dropProgress(run: RunFolder<string>): void {
  rmSync(join(run.dir, STATE_FILE), { force: true });
}
