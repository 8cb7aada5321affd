/**
 * Plays tasks on W worker threads (or inline when W = 1) and hands results back in task order,
 * so the CSV is the same byte for byte whatever W is. Each task is independent and seeded by its
 * deal, so which thread plays it never changes its result.
 */
import { Worker } from "node:worker_threads";
import { cpus } from "node:os";
import { builtModuleUrl } from "../../src/eval/worker-url.js";
import type { Condition, Outcome, TaskModule } from "./types.js";

export interface Task {
  readonly condition: number;
  readonly deal: number;
}

/** Names the deal and condition a failure came from, so it can be replayed alone. */
function where(e: unknown, t: Task, conditions: readonly Condition[]): Error {
  const c = conditions[t.condition]!;
  const msg = e instanceof Error ? e.message : String(e);
  return new Error(
    `deal ${t.deal}, rules ${c.preset} ${JSON.stringify(c.overrides)}, player ${JSON.stringify(c.player)}: ${msg}`,
  );
}

export async function runTasks(
  moduleUrl: string,
  conditions: readonly Condition[],
  deck: "seed" | "ms",
  count: number,
  taskAt: (i: number) => Task,
  workers: number,
  onResult: (index: number, o: Outcome) => void,
): Promise<void> {
  if (count === 0) return;
  if (workers <= 1) {
    const mod = (await import(moduleUrl)) as TaskModule;
    for (let i = 0; i < count; i++) {
      const t = taskAt(i);
      let o: Outcome;
      try {
        o = await mod.play(conditions[t.condition]!, t.deal, deck);
      } catch (e) {
        throw where(e, t, conditions);
      }
      onResult(i, o);
      // Let signals and timers in between games (mod.play may never yield to the event loop).
      if ((i & 15) === 15) await new Promise((r) => setImmediate(r));
    }
    return;
  }
  const n = Math.min(workers, count, Math.max(1, cpus().length * 4));
  let next = 0;
  const pending = new Map<number, Outcome>();
  let delivered = 0;
  const code = builtModuleUrl(new URL("./worker.js", import.meta.url));
  // Workers load built .js only, so they get the built task module too.
  const builtTask = builtModuleUrl(moduleUrl).href;
  await new Promise<void>((resolve, reject) => {
    let live = 0;
    let failed = false;
    const pool: Worker[] = [];
    const fail = (e: unknown): void => {
      if (failed) return;
      failed = true;
      for (const w of pool) void w.terminate();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    const feed = (w: Worker): void => {
      if (next >= count) {
        void w.terminate();
        if (--live === 0 && !failed) resolve();
        return;
      }
      const i = next++;
      w.postMessage({ i, task: taskAt(i) });
    };
    for (let k = 0; k < n; k++) {
      const w = new Worker(code, { workerData: { moduleUrl: builtTask, conditions, deck } });
      pool.push(w);
      live++;
      w.on("message", (m: { i: number; outcome?: Outcome; error?: string }) => {
        if (m.error !== undefined) return fail(where(new Error(m.error), taskAt(m.i), conditions));
        pending.set(m.i, m.outcome!);
        // Deliver in order; results that finish early wait in `pending`.
        while (pending.has(delivered)) {
          const o = pending.get(delivered)!;
          pending.delete(delivered);
          try {
            onResult(delivered, o);
          } catch (e) {
            return fail(e);
          }
          delivered++;
        }
        feed(w);
      });
      w.on("error", fail);
      w.once("online", () => feed(w));
    }
  });
}
