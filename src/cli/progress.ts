import { Worker } from "node:worker_threads";
import { UsageError } from "../errors.js";

/**
 * Progress on stderr for every command that can run past a few seconds. One mechanism: a
 * heartbeat thread writes a line at least every 10 s, with the counts the main thread last gave it
 * (shared memory, so a line comes on time even while the main thread runs a synchronous loop: a
 * solver search, a PPO rollout, a benchmark section, a slow deal). On a terminal, batches of deals
 * draw a bar instead, redrawn in place at each finished deal and, by the same thread, every second.
 */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Seconds between heartbeat lines: 10, or PENGUIN_PROGRESS_SECONDS (0.05 to 3600). */
export function progressSeconds(): number {
  const v = process.env.PENGUIN_PROGRESS_SECONDS;
  if (v === undefined || v === "") return 10;
  const s = Number(v);
  if (!(s >= 0.05 && s <= 3600))
    throw new UsageError(
      `PENGUIN_PROGRESS_SECONDS must be a number of seconds from 0.05 to 3600, got "${v}"`,
    );
  return s;
}

export interface HeartbeatOptions {
  /** Also say how many data rows this CSV holds (experiments, training metrics). */
  readonly rowsOf?: string;
  /** Seconds between lines (default: progressSeconds()). */
  readonly everySeconds?: number;
  /** What `count` counts, e.g. "deals": lines then give done/total, the rate and the time left. */
  readonly unit?: string;
  /** Redraw a terminal's bar (from the counts) instead of writing lines. */
  readonly bar?: boolean;
}

/** Stops the heartbeat when called; `count` gives it the counts for its next line. */
export interface Heartbeat {
  (): void;
  /** `done` of `total` (0: not known) so far; `wins`, when given, is shown too. */
  count(done: number, total?: number, wins?: number): void;
}

// Slots of the shared counts: set (0/1), done, total, wins (-1: not shown), and the first count
// given with its time (ms after the start).
const SET = 0;
const DONE = 1;
const TOTAL = 2;
const WINS = 3;
const FIRST = 4;
const FIRST_MS = 5;
/** 1 once stopped: terminate() takes a moment, and no line may follow the command's own output. */
const STOPPED = 6;
/** 1 while the thread writes a line: stop() waits for it, so a stop is never overtaken. */
const WRITING = 7;
const SLOTS = 8;

/**
 * A terminal's progress bar, `[#########     ] 30/100 deals, 12 wins in this run, 20 s`. It is
 * self-contained: the heartbeat's thread runs its source too, so the bar is drawn one way.
 */
function barText(done: number, total: number, unit: string, wins: number, secs: number): string {
  const width = 30;
  const filled = total > 0 ? Math.max(0, Math.min(width, Math.round((width * done) / total))) : 0;
  const won = wins >= 0 ? `, ${wins} wins in this run` : "";
  return `\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} ${unit}${won}, ${Math.round(secs)} s`;
}

const HEARTBEAT_THREAD = `
const { workerData: w } = require("node:worker_threads");
const { readFileSync, writeSync } = require("node:fs");
const c = new Int32Array(w.counts);
setInterval(() => {
  const ms = Date.now() - w.t0;
  const parts = [];
  if (Atomics.load(c, ${SET})) {
    const done = Atomics.load(c, ${DONE}), total = Atomics.load(c, ${TOTAL});
    const wins = Atomics.load(c, ${WINS}), first = Atomics.load(c, ${FIRST});
    let p = done + (total > 0 ? "/" + total : "") + " " + w.unit;
    if (total > 0) p += " (" + ((100 * done) / total).toFixed(1) + "%)";
    if (wins >= 0) p += ", " + wins + " wins in this run";
    // The rate runs from the first count: items read back from an earlier run do not inflate it.
    const since = (ms - Atomics.load(c, ${FIRST_MS})) / 1000;
    const rate = since > 0 ? (done - first) / since : 0;
    if (rate > 0) {
      p += ", " + (rate >= 100 ? Math.round(rate) : rate.toFixed(1)) + " " + w.unit + "/s";
      if (total > done) p += ", about " + Math.round((total - done) / rate) + " s left";
    }
    parts.push(p);
  }
  if (w.rowsOf) {
    try {
      const rows = readFileSync(w.rowsOf, "utf8").trim().split("\\n").length - 1;
      parts.push(rows + (rows === 1 ? " row" : " rows") + " in " + w.rowsOf);
    } catch {
      parts.push("no row in " + w.rowsOf + " yet");
    }
  }
  const after = w.every < 1000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000);
  let line = w.label + ": still running after " + after + " s" + (parts.length ? ": " + parts.join("; ") : "") + "\\n";
  // A terminal: the bar again, its time moving even while one slow item runs.
  if (w.bar) line = Atomics.load(c, ${SET}) ? barText(Atomics.load(c, ${DONE}), Atomics.load(c, ${TOTAL}), w.unit, Atomics.load(c, ${WINS}), ms / 1000) : "";
  if (line && Atomics.compareExchange(c, ${WRITING}, 0, 1) === 0) {
    if (!Atomics.load(c, ${STOPPED})) try { writeSync(2, line); } catch {}
    Atomics.store(c, ${WRITING}, 0);
  }
}, w.every);
// Under its own name: a minified build renames the declaration.
const barText = (${barText.toString()});
`;

/**
 * A line on stderr every `everySeconds` until stopped: the time so far, the counts last given to
 * `count` and, with `rowsOf`, how many rows that CSV holds. Its thread writes straight to stderr's
 * file descriptor and does not keep the process alive.
 */
export function heartbeat(label: string, o: HeartbeatOptions = {}): Heartbeat {
  const counts = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  const t0 = Date.now();
  const worker = new Worker(HEARTBEAT_THREAD, {
    eval: true,
    workerData: {
      label,
      rowsOf: o.rowsOf,
      unit: o.unit ?? "done",
      bar: o.bar === true,
      every: (o.everySeconds ?? progressSeconds()) * 1000,
      counts: counts.buffer,
      t0,
    },
    // Plain CommonJS whatever flags started this process (--input-type=module, --import tsx).
    execArgv: [],
    stdout: false,
    stderr: false,
  });
  // Progress lines are a courtesy: a failing heartbeat never stops the command.
  worker.on("error", () => {});
  worker.unref();
  const clamp = (n: number): number => Math.max(-1, Math.min(2 ** 31 - 1, Math.round(n)));
  const stop = (() => {
    Atomics.store(counts, STOPPED, 1);
    // A line being written finishes first (a few microseconds); none starts after this.
    while (Atomics.load(counts, WRITING) === 1) {}
    void worker.terminate();
  }) as Heartbeat;
  stop.count = (done, total = 0, wins = -1) => {
    if (!Atomics.load(counts, SET)) {
      Atomics.store(counts, FIRST, clamp(done));
      Atomics.store(counts, FIRST_MS, clamp(Date.now() - t0));
    }
    Atomics.store(counts, DONE, clamp(done));
    Atomics.store(counts, TOTAL, clamp(total));
    Atomics.store(counts, WINS, clamp(wins));
    Atomics.store(counts, SET, 1);
  };
  return stop;
}

export interface ProgressOptions {
  /** Where the bar goes (stderr). A stream of a test's own gets the bar from rows alone. */
  readonly stream?: ProgressStream;
  /** Seconds between lines off a terminal (default: progressSeconds()). */
  readonly everySeconds?: number;
  /** Milliseconds clock of the bar (tests pass a fake one). */
  readonly now?: () => number;
  /** What is counted, e.g. "deals". */
  readonly unit?: string;
  /** The label of the lines off a terminal, e.g. "penguin eval". */
  readonly label?: string;
  /** Count wins ("… wins in this run"); off for items that are not games won or lost. */
  readonly wins?: boolean;
}

/** Called once per finished item; `stop()` ends the heartbeat. */
export interface ProgressFn {
  (won: boolean, done: number, total: number): void;
  stop(): void;
}

/**
 * Progress of a batch: on a terminal a bar, redrawn at each finished item (at most every 100 ms)
 * and every second between them; otherwise (CI logs, job arrays, `2> log`) the heartbeat's plain
 * line at least every 10 s, counts included.
 */
export function progressReporter(o: ProgressOptions = {}): ProgressFn {
  const stream = o.stream ?? process.stderr;
  const now = o.now ?? (() => performance.now());
  const unit = o.unit ?? "deals";
  const countWins = o.wins ?? true;
  const tty = stream.isTTY === true;
  const beat =
    o.stream === undefined
      ? heartbeat(o.label ?? "progress", {
          unit,
          bar: tty,
          ...(tty
            ? { everySeconds: 1 }
            : o.everySeconds === undefined
              ? {}
              : { everySeconds: o.everySeconds }),
        })
      : undefined;
  const t0 = now();
  let wins = 0;
  let last = -Infinity;
  let ended = false;
  const fn = ((won, done, total) => {
    if (won) wins++;
    beat?.count(done, total, countWins ? wins : -1);
    if (!tty || ended) return;
    const t = now();
    if (t - last < 100 && done < total) return;
    last = t;
    if (done >= total) {
      ended = true;
      beat?.();
    }
    stream.write(barText(done, total, unit, countWins ? wins : -1, (t - t0) / 1000));
    if (done >= total) stream.write("\n");
  }) as ProgressFn;
  fn.stop = () => {
    beat?.();
    // A bar cut short (an error, a stop) ends its line, so the next message starts on its own.
    if (tty && last > -Infinity && !ended) stream.write("\n");
    ended = true;
  };
  return fn;
}
