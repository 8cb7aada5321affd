/**
 * The project's error classes, in one place below every layer that throws them.
 *
 * - `UsageError`: bad input from a user (an option, a file, a board). The `penguin` command and
 *   the experiment scripts print its message on one line and exit with code 2.
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
