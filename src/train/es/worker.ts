/** A worker thread of ScorePool (always the built .js; see src/eval/worker-url.ts). */
import { parentPort } from "node:worker_threads";
import { LinearPlayer } from "./fitness.js";
import type { FromEsWorker, ToEsWorker } from "./pool.js";

const port = parentPort;
if (!port) throw new Error("src/train/es/worker.ts runs only as a worker thread");
let player: LinearPlayer | undefined;
port.on("message", (m: ToEsWorker) => {
  try {
    if (m.type === "init") player = new LinearPlayer(m.rules);
    else {
      if (!player) throw new Error("ES worker asked to score before init");
      const t = m.task;
      port.postMessage({ type: "done", id: m.id, result: player.score(t.w, t.seeds, t.maxSteps) } satisfies FromEsWorker);
    }
  } catch (e) {
    port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) } satisfies FromEsWorker);
  }
});
