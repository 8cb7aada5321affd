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
