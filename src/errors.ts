/**
 * The project's error classes, in one place below every layer that throws them.
 *
 * - `UsageError`: bad input from a user (an option, a file, a board). The `penguin` command and
 *   the experiment scripts print its message on one line and exit with code 2.
 * - `InvalidArgumentError`, `InvalidStateError` (UsageErrors): a library call given an argument
 *   or a state it cannot take.
 * - `IllegalMoveError`: a move or action that is not legal in the position it was tried in,
 *   whether typed by a person or chosen by an agent. `reason` says why, without the move's text.
 */
export class UsageError extends Error {
  override name = "UsageError";
}

export class IllegalMoveError extends Error {
  override name = "IllegalMoveError";
  /** Why the move is not legal (the message without the part naming the move). */
  readonly reason: string;

  constructor(message: string, reason?: string) {
    super(message);
    this.reason = reason ?? message;
  }
}

/**
 * A library function called with an argument it cannot take: the wrong type, a value out of its
 * range, or an option key it does not know. The message names the argument and what is allowed.
 */
export class InvalidArgumentError extends UsageError {
  override name = "InvalidArgumentError";
}

/**
 * A position or saved state that cannot arise in play: a card missing or twice, a foundation
 * count out of range, a base rank the rules cannot have, a state of another rule set.
 */
export class InvalidStateError extends UsageError {
  override name = "InvalidStateError";
}

/** What `value` is, for messages: `"3"` (a string), 5n (a bigint), null, an object, NaN. */
export function describeValue(value: unknown): string {
  if (typeof value === "bigint") return `${value}n (a bigint)`;
  if (typeof value === "number") return Number.isSafeInteger(value) ? String(value) : `${value}`;
  if (typeof value === "string") return `${JSON.stringify(value.slice(0, 40))} (a string)`;
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return "an object";
  return String(value);
}

/**
 * A write that failed for a reason outside the input: a full disk, an I/O error. The message
 * names the file and says what was kept; the command exits with code 1.
 */
export class OutputError extends Error {
  override name = "OutputError";
}

/** An fs error's code with its meaning: "ENOSPC (no space left on device)". */
export function describeCode(e: unknown): string {
  const code = (e as { code?: string }).code;
  if (!code) return e instanceof Error ? e.message : String(e);
  const meaning: Record<string, string> = {
    ENOSPC: "no space left on device",
    EDQUOT: "disk quota exceeded",
    EROFS: "read-only file system",
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EIO: "input/output error",
    ENOTDIR: "a part of the path is not a folder",
    EEXIST: "it already exists",
    ENOENT: "no such file or folder",
  };
  return meaning[code] ? `${code} (${meaning[code]})` : code;
}
