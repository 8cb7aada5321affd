/**
 * The one checkpoint format of every trainer (PPO, evolution strategies, the safety network): a
 * folder holding
 *   tensors.bin    the named arrays (network weights, optimizer moments, evolution's θ), back to back
 *   <model files>  any files the algorithm keeps verbatim (a policy network's model.json + weights.bin)
 *   state.json     version, algorithm, step counters, every generator's state (Rng.getState), the
 *                  trainer's own JSON state, the tensors' manifest and the SHA-256 of every other file
 *   state.sha256   state.json's own SHA-256
 * The folder is first written complete under a temporary name (each file with the project's atomic
 * write), then swapped in by renames, so a kill at any instant leaves the old checkpoint or the new
 * one. Loading checks every hash and refuses a damaged checkpoint with one line naming the file.
 *
 * A run folder keeps its resume state in `resume/` (RESUME_DIR) in this format for every algorithm;
 * `checkpoint/` holds the model a player loads, in that player's own format.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sha256, writeAtomic } from "../util/files.js";
import type { RngState } from "../util/rng.js";
import { CheckpointError, checkpointPath, readChecked, readState } from "../players/checkpoint.js";

export { CheckpointError, checkpointPath };

/** Bumped whenever the layout changes: an older checkpoint is refused, never misread. */
export const CHECKPOINT_VERSION = 2;
/** Where every run folder keeps the state a resumed run continues from. */
export const RESUME_DIR = "resume";

export type TensorData = Float32Array | Float64Array | Int32Array;
type Dtype = "float32" | "float64" | "int32";

export interface Checkpoint<S> {
  /** The algorithm that wrote it (a resume of another algorithm's checkpoint is refused). */
  readonly algo: string;
  /** Step counters: updates, generations, minibatches, the optimizer's step, … */
  readonly steps: Readonly<Record<string, number>>;
  /** Every generator's state, by name. */
  readonly rngs: Readonly<Record<string, RngState>>;
  /** Named arrays: weights, optimizer moments. */
  readonly tensors: Readonly<Record<string, TensorData>>;
  /** Files kept verbatim (a model a player loads). */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Everything else the trainer needs, as JSON. */
  readonly state: S;
}

interface Manifest {
  readonly name: string;
  readonly dtype: Dtype;
  readonly length: number;
}

interface StateFile<S> {
  version: number;
  algo: string;
  steps: Record<string, number>;
  rngs: Record<string, RngState>;
  tensors: Manifest[];
  state: S;
  sha256: Record<string, string>;
}

const TENSORS = "tensors.bin";

function dtypeOf(a: TensorData): Dtype {
  return a instanceof Float64Array ? "float64" : a instanceof Int32Array ? "int32" : "float32";
}

function bytesOf(a: TensorData): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Writes the checkpoint folder `dir` atomically (see the header). */
export function saveCheckpoint<S>(dir: string, cp: Checkpoint<S>): void {
  const manifest: Manifest[] = Object.entries(cp.tensors).map(([name, a]) => ({
    name,
    dtype: dtypeOf(a),
    length: a.length,
  }));
  const total = Object.values(cp.tensors).reduce((n, a) => n + a.byteLength, 0);
  const bin = new Uint8Array(total);
  let at = 0;
  for (const a of Object.values(cp.tensors)) {
    bin.set(bytesOf(a), at);
    at += a.byteLength;
  }
  const files: Record<string, string | Uint8Array> = { ...cp.files };
  if (manifest.length) files[TENSORS] = bin;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const hashes: Record<string, string> = {};
  for (const [name, data] of Object.entries(files)) {
    writeAtomic(join(tmp, name), data);
    hashes[name] = sha256(data);
  }
  const state: StateFile<S> = {
    version: CHECKPOINT_VERSION,
    algo: cp.algo,
    steps: { ...cp.steps },
    rngs: { ...cp.rngs },
    tensors: manifest,
    state: cp.state,
    sha256: hashes,
  };
  const text = JSON.stringify(state, null, 1);
  writeAtomic(join(tmp, "state.json"), text);
  // state.json holds the other files' hashes; its own lives beside it.
  writeAtomic(join(tmp, "state.sha256"), `${sha256(text)}\n`);
  const old = `${dir}.old`;
  rmSync(old, { recursive: true, force: true });
  if (existsSync(dir)) renameSync(dir, old);
  renameSync(tmp, dir);
  rmSync(old, { recursive: true, force: true });
}

export interface LoadedCheckpoint<S> extends Checkpoint<S> {
  /** The folder read: `dir`, or `dir.old` when a kill fell between the two renames. */
  readonly dir: string;
  readonly files: Readonly<Record<string, Buffer>>;
}

function decode(bin: Buffer, at: number, m: Manifest): TensorData {
  const size = m.dtype === "float64" ? 8 : 4;
  // A copy: its own buffer, aligned for the element size.
  const bytes = Uint8Array.prototype.slice.call(bin, at, at + m.length * size).buffer;
  return m.dtype === "float64"
    ? new Float64Array(bytes)
    : m.dtype === "int32"
      ? new Int32Array(bytes)
      : new Float32Array(bytes);
}

/**
 * The checkpoint in `dir`, every file checked against its SHA-256; `algo`: the algorithm that must
 * have written it. Refuses a missing, damaged, older or other algorithm's checkpoint with a
 * CheckpointError (one line).
 */
export function loadCheckpoint<S>(dirArg: string, algo: string): LoadedCheckpoint<S> {
  const dir = checkpointPath(dirArg);
  if (!dir) throw new CheckpointError(`no checkpoint in ${dirArg} (state.json missing)`);
  const s = readState<StateFile<S>>(dir);
  if (s.version !== CHECKPOINT_VERSION || !s.sha256 || !Array.isArray(s.tensors))
    throw new CheckpointError(
      `damaged checkpoint ${dir}: state.json has version ${String(s.version)}, expected ${CHECKPOINT_VERSION}; start a new run`,
    );
  if (s.algo !== algo)
    throw new CheckpointError(`${dir} is a checkpoint of ${String(s.algo)}, not of ${algo}`);
  const files: Record<string, Buffer> = {};
  for (const name of Object.keys(s.sha256)) files[name] = readChecked(dir, name, s.sha256);
  const tensors: Record<string, TensorData> = {};
  const bin = files[TENSORS] ?? Buffer.alloc(0);
  let at = 0;
  for (const m of s.tensors) {
    const size = m.dtype === "float64" ? 8 : 4;
    if (!Number.isInteger(m.length) || at + m.length * size > bin.length)
      throw new CheckpointError(
        `damaged checkpoint ${dir}: ${TENSORS} is shorter than its manifest`,
      );
    tensors[m.name] = decode(bin, at, m);
    at += m.length * size;
  }
  delete files[TENSORS];
  return {
    dir,
    algo: s.algo,
    steps: s.steps ?? {},
    rngs: s.rngs ?? {},
    tensors,
    files,
    state: s.state,
  };
}

/** Whether the run folder `runDir` holds a state to resume from (resume/). */
export function hasResume(runDir: string): boolean {
  return checkpointPath(join(runDir, RESUME_DIR)) !== undefined;
}

/** Saves the state the run in `runDir` resumes from (resume/), replacing the last one. */
export function saveResume<S>(runDir: string, cp: Checkpoint<S>): void {
  saveCheckpoint(join(runDir, RESUME_DIR), cp);
}

/**
 * The resume state `algo` saved in the run folder `runDir`, checked as loadCheckpoint checks it;
 * undefined when the run has none (never saved, or finished).
 */
export function loadResume<S>(runDir: string, algo: string): LoadedCheckpoint<S> | undefined {
  return hasResume(runDir) ? loadCheckpoint<S>(join(runDir, RESUME_DIR), algo) : undefined;
}

/** Removes the resume state: a finished run has nothing to continue. */
export function dropResume(runDir: string): void {
  rmSync(join(runDir, RESUME_DIR), { recursive: true, force: true });
}

/** A tensor of the checkpoint that must be there with `length` entries (CheckpointError otherwise). */
export function tensorOf(cp: LoadedCheckpoint<unknown>, name: string, length: number): TensorData {
  const t = cp.tensors[name];
  if (!t || t.length !== length)
    throw new CheckpointError(
      `${cp.dir} does not match this run: tensor ${name} ${t ? `has ${t.length} entries, expected ${length}` : "is missing"}`,
    );
  return t;
}

/** A step counter of the checkpoint (CheckpointError when missing). */
export function stepOf(cp: LoadedCheckpoint<unknown>, name: string): number {
  const v = cp.steps[name];
  if (typeof v !== "number" || !Number.isFinite(v))
    throw new CheckpointError(`damaged checkpoint ${cp.dir}: step counter ${name} is missing`);
  return v;
}

/** A generator state of the checkpoint (CheckpointError when missing or malformed). */
export function rngOf(cp: LoadedCheckpoint<unknown>, name: string): RngState {
  const s = cp.rngs[name];
  if (
    !Array.isArray(s) ||
    s.length !== 4 ||
    s.some((v) => !Number.isInteger(v) || v < 0 || v > 0xffffffff)
  )
    throw new CheckpointError(`damaged checkpoint ${cp.dir}: generator state ${name} is missing`);
  return s;
}
