/**
 * The project's one pool of worker threads (evaluation, ES, the dataset's shards): it runs
 * independent tasks and hands back each result with its task index. A worker module answers
 * `{ type: "init", init }` once and then one `{ type: "task", id, task }` at a time with
 * `{ type: "done", id, result }` or `{ type: "error", message, usage }` (see `serveTasks`).
 * Results depend only on their task, so a run gives the same data for any number of workers; a
 * worker that fails or exits breaks the pool instead of hanging it, and a worker's UsageError
 * comes back as one, so the command still prints one line and exits 2.
 *
 * A worker runs the same code as the thread that starts it: the built `.js` in the package, and
 * the TypeScript sources when the caller runs from them (tsx, vitest), loaded through tsx.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker, parentPort } from "node:worker_threads";
import { UsageError } from "../errors.js";
import { availableParallelism } from "node:os";

/**
 * The worker module `file` ("./worker.js") beside the module `caller` (its import.meta.url), in the
 * caller's own form: worker.js beside a built .js, worker.ts beside a TypeScript source.
 */
export function workerModule(file: string, caller: string): URL {
  const url = new URL(file, caller);
  return new URL(caller.endsWith(".ts") ? url.href.replace(/\.js$/, ".ts") : url.href);
}

let tsxApi: string | undefined;

/**
 * Starts a worker thread on `module`. Plain Node loads only JavaScript, so a TypeScript module
 * (development) boots through a two-line script that registers tsx's loader first; tsx is a
 * devDependency, there whenever the sources are.
 */
export function startWorker(module: URL): Worker {
  if (!module.pathname.endsWith(".ts")) return new Worker(module);
  if (tsxApi === undefined) {
    // tsx's public "./esm/api" entry, as `import` would resolve it (createRequire gives the CommonJS one).
    const pkg = createRequire(import.meta.url).resolve("tsx/package.json");
    const exp = JSON.parse(readFileSync(pkg, "utf8")).exports["./esm/api"].import.default;
    tsxApi = new URL(exp, pathToFileURL(pkg)).href;
  }
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(boot, { eval: true });
}

export type ToTaskWorker<I, T> = { type: "init"; init: I } | { type: "task"; id: number; task: T };
export type FromTaskWorker<R> =
  | { type: "done"; id: number; result: R }
  | { type: "error"; message: string; usage?: boolean };

/**
 * The most worker threads a pool starts: twice the CPUs. More only add memory and switching
 * (results never depend on the count), so a larger --workers is capped with a warning.
 */
export function maxWorkers(): number {
  return 2 * Math.max(1, availableParallelism());
}

function workerCount(asked: number, label: string): number {
  const most = maxWorkers();
  if (asked <= most) return asked;
  process.stderr.write(
    `${label}: warning: ${asked} workers asked on ${availableParallelism()} CPUs; using ${most} (at most twice the CPUs)\n`,
  );
  return most;
}

export class TaskPool<I, T, R> {
  readonly #workers: Worker[] = [];
  #broken: Error | undefined;
  #onResult: ((id: number, r: R) => void) | undefined;
  #onFail: ((e: Error) => void) | undefined;

  /** `module` is a worker module's URL (see workerModule), which calls serveTasks. */
  constructor(
    module: URL,
    init: I,
    size: number,
    readonly label: string,
  ) {
    for (let i = 0, n = workerCount(size, label); i < n; i++) {
      const w = startWorker(module);
      w.on("message", (m: FromTaskWorker<R>) => {
        if (m.type === "done") this.#onResult?.(m.id, m.result);
        else
          this.#fail(
            m.usage ? new UsageError(m.message) : new Error(`${label} worker ${i}: ${m.message}`),
          );
      });
      w.on("error", (e) => this.#fail(new Error(`${label} worker ${i}: ${e.message}`)));
      w.on("exit", (code) => this.#fail(new Error(`${label} worker ${i} exited (code ${code})`)));
      w.postMessage({ type: "init", init } satisfies ToTaskWorker<I, T>);
      this.#workers.push(w);
    }
  }

  #fail(e: Error): void {
    if (this.#broken) return;
    this.#broken = e;
    this.#onFail?.(e);
  }

  /** Runs every task; `each(index, result)` is called as results arrive (any order). `stop()` returning true feeds no more tasks. */
  run(
    tasks: readonly T[],
    each: (index: number, r: R) => void,
    stop: () => boolean = () => false,
  ): Promise<void> {
    if (this.#broken) return Promise.reject(this.#broken);
    if (tasks.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      let next = 0;
      let running = 0;
      const owner = new Map<number, Worker>();
      const feed = (w: Worker): void => {
        if (next >= tasks.length || stop()) return;
        const id = next++;
        owner.set(id, w);
        running++;
        w.postMessage({ type: "task", id, task: tasks[id]! } satisfies ToTaskWorker<I, T>);
      };
      this.#onFail = (e) => {
        this.#onResult = this.#onFail = undefined;
        reject(e);
      };
      this.#onResult = (id, r) => {
        running--;
        try {
          each(id, r);
        } catch (e) {
          this.#onResult = this.#onFail = undefined;
          reject(e instanceof Error ? e : new Error(String(e)));
          return;
        }
        feed(owner.get(id)!);
        if (running === 0) {
          this.#onResult = this.#onFail = undefined;
          resolve();
        }
      };
      for (const w of this.#workers) feed(w);
      if (running === 0) resolve();
    });
  }

  /**
   * Runs tasks 0..count−1, made when they are sent (`taskAt`), and yields their results in task
   * order, never more than `window` tasks ahead of the consumer (so a slow task does not let the
   * rest pile up). Closing the generator early leaves the pool usable only for close().
   */
  async *ordered(count: number, taskAt: (i: number) => T, window: number): AsyncGenerator<R> {
    if (this.#broken) throw this.#broken;
    const done = new Map<number, R>();
    const idle: Worker[] = [...this.#workers];
    const owner = new Map<number, Worker>();
    let next = 0;
    let consumed = 0;
    let failure: Error | undefined;
    let wake: (() => void) | undefined;
    const notify = (): void => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    const feed = (): void => {
      while (idle.length > 0 && next < count && next - consumed < window) {
        const w = idle.pop()!;
        const id = next++;
        owner.set(id, w);
        w.postMessage({ type: "task", id, task: taskAt(id) } satisfies ToTaskWorker<I, T>);
      }
    };
    this.#onFail = (e) => {
      failure = e;
      notify();
    };
    this.#onResult = (id, r) => {
      done.set(id, r);
      idle.push(owner.get(id)!);
      owner.delete(id);
      feed();
      notify();
    };
    try {
      feed();
      for (let i = 0; i < count; i++) {
        while (!done.has(i)) {
          if (failure) throw failure;
          await new Promise<void>((r) => (wake = r));
        }
        const r = done.get(i)!;
        done.delete(i);
        consumed = i + 1;
        feed();
        yield r;
      }
    } finally {
      this.#onResult = this.#onFail = undefined;
    }
  }

  async close(): Promise<void> {
    this.#broken ??= new Error(`${this.label} pool closed`);
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }
}

/** The worker side: builds its state from the init message, then answers tasks one by one. */
export function serveTasks<I, T, R, S>(
  setup: (init: I) => S | Promise<S>,
  work: (state: S, task: T) => R | Promise<R>,
  transfer?: (r: R) => ArrayBuffer[],
): void {
  const port = parentPort;
  if (!port) throw new Error("serveTasks runs only in a worker thread");
  let state: Promise<S> | undefined;
  port.on("message", (m: ToTaskWorker<I, T>) => {
    void (async () => {
      try {
        if (m.type === "init") {
          state = Promise.resolve().then(() => setup(m.init));
          // A failed setup is reported by every task that waits for it, not as an unhandled rejection.
          state.catch(() => {});
        } else {
          if (!state) throw new Error("task before init");
          const r = await work(await state, m.task);
          port.postMessage(
            { type: "done", id: m.id, result: r } satisfies FromTaskWorker<R>,
            transfer ? transfer(r) : [],
          );
        }
      } catch (e) {
        port.postMessage({
          type: "error",
          message: e instanceof Error ? e.message : String(e),
          usage: e instanceof UsageError,
        } satisfies FromTaskWorker<R>);
      }
    })();
  });
}
