/**
 * A worker thread of the atlas on the project's pool (src/util/pool.ts): plays one block of
 * deals of one row with one player and returns the counts and the seeds the player did not win.
 */
import { serveTasks } from "../../src/util/pool.js";
import { playBlock, type BlockResult, type BlockTask } from "./atlas-play.js";

serveTasks<null, BlockTask, BlockResult, null>(
  () => null,
  (_s, task) => playBlock(task),
);
