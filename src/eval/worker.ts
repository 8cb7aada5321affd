/**
 * A worker thread of `evaluate`: builds the agent once, then plays the chunks of deals it is sent
 * and posts their rows back. Loaded through worker-boot.mjs, which registers tsx first.
 */
import { parentPort } from "node:worker_threads";
import { UsageError } from "../errors.js";
import { createAgent } from "../agents/registry.js";
import { DealPlayer, type FromWorker, type ToWorker } from "./evaluate.js";

const port = parentPort;
if (!port) throw new Error("src/eval/worker.ts runs only as a worker thread");
let player: DealPlayer | undefined;
const post = (m: FromWorker): void => port.postMessage(m);

port.on("message", async (m: ToWorker) => {
  try {
    if (m.type === "init") {
      const s = m.spec;
      const agent = await createAgent(s.agent, s.agentOptions ?? {}, s.rules);
      player = new DealPlayer(agent, s.rules, s.maxSteps, s.timing ?? true);
      post({ type: "ready" });
    } else {
      if (!player) throw new Error("worker asked to play before init");
      post({ type: "rows", rows: m.deals.map((d, i) => player!.play(d, m.start + i)) });
    }
  } catch (e) {
    post({ type: "error", message: e instanceof Error ? e.message : String(e), usage: e instanceof UsageError });
  }
});
