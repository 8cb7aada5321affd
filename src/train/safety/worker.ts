/** A labelling worker of `penguin dataset` (started by src/util/pool.ts). */
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
