/** The worker pool of training and the dataset is the project's one pool (src/util/pool.ts). */
export { TaskPool, serveTasks, type ToTaskWorker, type FromTaskWorker } from "../util/pool.js";
