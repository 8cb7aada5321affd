/** A labelling worker of `penguin dataset` (always the built .js; see src/eval/worker-url.ts). */
import { serveTasks } from "../../util/pool.js";
import {
  labelShard,
  setupPlayers,
  shardTransfer,
  type ShardInit,
  type ShardTask,
} from "./dataset.js";

serveTasks(setupPlayers, (ctx, task: ShardTask) => labelShard(ctx, task), shardTransfer);
export type { ShardInit };
