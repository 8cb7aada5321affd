/** A worker thread of ScorePool (started by src/util/pool.ts). */
import type { Rules } from "../../engine/rules.js";
import { serveTasks } from "../../util/pool.js";
import { LinearPlayer } from "./fitness.js";
import type { ScoreResult, ScoreTask } from "./pool.js";

serveTasks<Rules, ScoreTask, ScoreResult, LinearPlayer>(
  (rules) => new LinearPlayer(rules),
  (player, t) => player.score(t.w, t.seeds, t.maxSteps),
);
