/** A worker thread of the experiment pool: loads the task module once, plays what it is sent. */
import { parentPort, workerData } from "node:worker_threads";
import type { Condition, TaskModule } from "./types.js";
import type { Task } from "./pool.js";

const { moduleUrl, conditions, deck } = workerData as {
  moduleUrl: string;
  conditions: Condition[];
  deck: "seed" | "ms";
};
const mod = (await import(moduleUrl)) as TaskModule;

parentPort!.on("message", async (m: { i: number; task: Task }) => {
  try {
    const outcome = await mod.play(conditions[m.task.condition]!, m.task.deal, deck);
    parentPort!.postMessage({ i: m.i, outcome });
  } catch (e) {
    parentPort!.postMessage({ i: m.i, error: e instanceof Error ? e.message : String(e) });
  }
});
