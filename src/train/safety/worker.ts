/** A labelling worker of `penguin dataset` (loaded through worker-boot.mjs). */
import { serveTasks } from "../pool.js";
import { labelShard, setupPlayers, shardTransfer, type ShardInit, type ShardTask } from "./dataset.js";

serveTasks(setupPlayers, (ctx, task: ShardTask) => labelShard(ctx, task), shardTransfer);
export type { ShardInit };
