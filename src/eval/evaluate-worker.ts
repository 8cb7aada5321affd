/**
 * A worker thread of `evaluate` on the project's worker pool: builds the agent once, then plays
 * the chunks of deals it is sent and returns their rows.
 */
import { createAgent } from "../agents/registry.js";
import { serveTasks } from "../util/pool.js";
import { DealPlayer, type ChunkTask, type EvalRow, type WorkerSpec } from "./evaluate.js";

serveTasks<WorkerSpec, ChunkTask, EvalRow[], DealPlayer>(
  async (s) =>
    new DealPlayer(
      await createAgent(s.agent, s.agentOptions ?? {}, s.rules),
      s.rules,
      s.maxSteps,
      s.timing ?? true,
    ),
  (player, t) => player.playChunk(t.deals, t.start),
);
