/**
 * Scores weight vectors on deals, in this thread or spread over worker threads. Every task's
 * result depends only on its weights and seeds, and results come back in task order, so a run
 * gives the same numbers for any number of workers.
 */
import { Worker } from "node:worker_threads";
import type { Rules } from "../../engine/rules.js";
import { builtModuleUrl } from "../../eval/worker-url.js";
import { LinearPlayer } from "./fitness.js";

export interface ScoreTask {
  w: Float64Array;
  seeds: number[];
  maxSteps: number;
}
export interface ScoreResult {
  fitness: number;
  wins: number;
}
export type ToEsWorker = { type: "init"; rules: Rules } | { type: "score"; id: number; task: ScoreTask };
export type FromEsWorker = { type: "done"; id: number; result: ScoreResult } | { type: "error"; message: string };

export class ScorePool {
  private readonly local: LinearPlayer | undefined;
  private readonly workers: Worker[] = [];
  /** Set once a worker fails or exits: the pool is then unusable and every run rejects with it. */
  private broken: Error | undefined;
  /** The run in flight: called with each result, or with the error that broke the pool. */
  private onResult: ((id: number, r: ScoreResult) => void) | undefined;
  private onFail: ((e: Error) => void) | undefined;

  constructor(rules: Rules, workers: number) {
    if (workers <= 1) {
      this.local = new LinearPlayer(rules);
      return;
    }
    for (let i = 0; i < workers; i++) {
      const w = new Worker(builtModuleUrl(new URL("./worker.js", import.meta.url)));
      // Permanent listeners: a worker that throws, or exits, breaks the pool instead of hanging a run.
      w.on("message", (m: FromEsWorker) => {
        if (m.type === "done") this.onResult?.(m.id, m.result);
        else this.fail(new Error(`ES worker ${i}: ${m.message}`));
      });
      w.on("error", (e) => this.fail(new Error(`ES worker ${i}: ${e.message}`)));
      w.on("exit", (code) => this.fail(new Error(`ES worker ${i} exited (code ${code})`)));
      w.postMessage({ type: "init", rules } satisfies ToEsWorker);
      this.workers.push(w);
    }
  }

  private fail(e: Error): void {
    if (this.broken) return;
    this.broken = e;
    this.onFail?.(e);
  }

  /** Results of all tasks, in task order. */
  async run(tasks: readonly ScoreTask[]): Promise<ScoreResult[]> {
    if (this.local) return tasks.map((t) => this.local!.score(t.w, t.seeds, t.maxSteps));
    if (this.broken) throw this.broken;
    const out: ScoreResult[] = new Array(tasks.length);
    if (tasks.length === 0) return out;
    return new Promise<ScoreResult[]>((resolve, reject) => {
      let next = 0;
      let received = 0;
      const owner = new Map<number, Worker>();
      const feed = (w: Worker): void => {
        if (next >= tasks.length) return;
        const id = next++;
        owner.set(id, w);
        w.postMessage({ type: "score", id, task: tasks[id]! } satisfies ToEsWorker);
      };
      this.onFail = (e) => {
        this.onResult = this.onFail = undefined;
        reject(e);
      };
      this.onResult = (id, r) => {
        out[id] = r;
        received++;
        if (received === tasks.length) {
          this.onResult = this.onFail = undefined;
          resolve(out);
        } else feed(owner.get(id)!);
      };
      for (const w of this.workers) feed(w);
    });
  }

  async close(): Promise<void> {
    // Terminating is not a failure.
    this.broken ??= new Error("ES pool closed");
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
