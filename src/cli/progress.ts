/**
 * Progress of a long batch on stderr: a bar redrawn in place on a terminal; otherwise (CI logs,
 * job arrays, `2> log`) one plain line every ~10 s, so a log shows the run is alive and how far.
 */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressOptions {
  readonly stream?: ProgressStream;
  /** Seconds between lines when the stream is not a terminal. */
  readonly everySeconds?: number;
  /** Milliseconds clock (tests pass a fake one). */
  readonly now?: () => number;
  /** What is counted, e.g. "deals". */
  readonly unit?: string;
}

export type ProgressFn = (won: boolean, done: number, total: number) => void;

export function progressReporter(o: ProgressOptions = {}): ProgressFn {
  const stream = o.stream ?? process.stderr;
  const now = o.now ?? (() => performance.now());
  const unit = o.unit ?? "deals";
  const t0 = now();
  let wins = 0;
  let last = t0;
  if (stream.isTTY) {
    last = -Infinity;
    return (won, done, total) => {
      if (won) wins++;
      const t = now();
      if (t - last < 100 && done < total) return;
      last = t;
      const width = 30;
      const filled = Math.round((width * done) / total);
      stream.write(
        `\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} ${unit}, ${wins} wins in this run`,
      );
      if (done === total) stream.write("\n");
    };
  }
  const every = (o.everySeconds ?? 10) * 1000;
  let started = 0;
  return (won, done, total) => {
    if (won) wins++;
    if (started === 0) started = done;
    const t = now();
    if (t - last < every || done >= total) return;
    last = t;
    const seconds = (t - t0) / 1000;
    const rate = (done - started + 1) / seconds;
    const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
    stream.write(
      `progress: ${done}/${total} ${unit} (${((100 * done) / total).toFixed(1)}%), ${wins} wins in this run, ${rate.toFixed(1)} ${unit}/s, about ${eta} s left\n`,
    );
  };
}
