/**
 * A worker thread of an experiment, on the project's pool (src/util/pool.ts): loads the task
 * module once, then plays the (condition, deal) tasks it is sent.
 */
import { serveTasks } from "../../src/util/pool.js";
import { failedTask, type Outcome, type PlayInit, type Task, type TaskModule } from "./types.js";

serveTasks<PlayInit, Task, Outcome, PlayInit & { mod: TaskModule }>(
  async (init) => ({ ...init, mod: (await import(init.moduleUrl)) as TaskModule }),
  async (s, t) => {
    try {
      return await s.mod.play(s.conditions[t.condition]!, t.deal, s.deck);
    } catch (e) {
      throw failedTask(e, t, s.conditions);
    }
  },
);
