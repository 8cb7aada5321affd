/**
 * The one error class of every model file and training checkpoint (policy, scorer, safety
 * network, trainers' states): a missing or damaged file is bad input, one line, exit code 2.
 * And the checked reading of a checkpoint folder (state.json naming the SHA-256 of every file).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../errors.js";
import { sha256 } from "../util/files.js";
import {
  MAX_CHECKPOINT_BYTES,
  MAX_RUN_FILE_BYTES,
  readBytesFile,
  readTextFile,
} from "../util/read.js";

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
