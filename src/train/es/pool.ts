/**
 * Scores weight vectors on deals, in this thread or on the project's worker pool (src/util/pool.ts).
 * Every task's result depends only on its weights and seeds, and results are put back in task
 * order, so a run gives the same numbers for any number of workers.
 */
import type { Rules } from "../../engine/rules.js";
import { TaskPool, workerModule } from "../../util/pool.js";
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

export class ScorePool {
  readonly #local: LinearPlayer | undefined;
  readonly #pool: TaskPool<Rules, ScoreTask, ScoreResult> | undefined;

  constructor(rules: Rules, workers: number) {
    if (workers <= 1) this.#local = new LinearPlayer(rules);
    else
      this.#pool = new TaskPool(workerModule("./worker.js", import.meta.url), rules, workers, "ES");
  }

  /** Results of all tasks, in task order. */
  async run(tasks: readonly ScoreTask[]): Promise<ScoreResult[]> {
    if (this.#local) return tasks.map((t) => this.#local!.score(t.w, t.seeds, t.maxSteps));
    const out: ScoreResult[] = new Array(tasks.length);
    await this.#pool!.run(tasks, (i, r) => (out[i] = r));
    return out;
  }

  async close(): Promise<void> {
    await this.#pool?.close();
  }
}
