import { Worker } from "node:worker_threads";

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

/**
 * The heartbeat's own thread: it writes straight to stderr's file descriptor, so its lines come
 * on time even while the main thread runs a long synchronous loop (a PPO rollout, a benchmark).
 */
const HEARTBEAT_THREAD = `
const { workerData: w } = require("node:worker_threads");
const { readFileSync, writeSync } = require("node:fs");
const t0 = Date.now();
setInterval(() => {
  let status = "";
  if (w.rowsOf) {
    try {
      const rows = readFileSync(w.rowsOf, "utf8").trim().split("\\n").length - 1;
      status = ": " + rows + (rows === 1 ? " row" : " rows") + " in " + w.rowsOf;
    } catch {
      status = ": no row in " + w.rowsOf + " yet";
    }
  }
  const s = Math.round((Date.now() - t0) / 1000);
  try { writeSync(2, w.label + ": still running after " + s + " s" + status + "\\n"); } catch {}
}, w.every);
`;

/**
 * A line on stderr every `everySeconds` while a long step runs whose own reports are further
 * apart (a training run logs only at its evaluations; a benchmark section not at all): the time
 * so far and, with `rowsOf`, how many rows that CSV holds. Returns the stop.
 */
export function heartbeat(
  label: string,
  o: { rowsOf?: string; everySeconds?: number } = {},
): () => void {
  const worker = new Worker(HEARTBEAT_THREAD, {
    eval: true,
    workerData: { label, rowsOf: o.rowsOf, every: (o.everySeconds ?? 10) * 1000 },
    // Plain CommonJS whatever flags started this process (--input-type=module, --import tsx).
    execArgv: [],
    stdout: false,
    stderr: false,
  });
  // Progress lines are a courtesy: a failing heartbeat never stops the command.
  worker.on("error", () => {});
  worker.unref();
  return () => void worker.terminate();
}
