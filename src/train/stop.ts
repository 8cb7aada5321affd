/**
 * Stopping a training run by signal: the first SIGINT/SIGTERM asks the run to finish its current
 * update and write a checkpoint (the loops poll `stopRequested()`); a second one exits at once.
 */
let requested = false;
let signal: NodeJS.Signals | undefined;

export function stopRequested(): boolean {
  return requested;
}

/**
 * The exit code of a run a signal stopped (130 for SIGINT, 143 for SIGTERM, as every command
 * here exits when interrupted), or undefined when none did.
 */
export function stoppedExitCode(): number | undefined {
  return signal === undefined ? undefined : signal === "SIGINT" ? 130 : 143;
}

/** Installs the handlers; returns a function that removes them. */
export function stopOnSignals(say: (line: string) => void): () => void {
  const handler = (sig: NodeJS.Signals): void => {
    if (requested) process.exit(sig === "SIGINT" ? 130 : 143);
    requested = true;
    signal = sig;
    say(`${sig}: finishing the current update and writing a checkpoint (again to quit at once)`);
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}
