// The "penguin-gym/train" entry's declarations, checked under plain strict without skipLibCheck:
// they name no TensorFlow.js module (an optional peer, whose own .d.ts files fail a strict check).
import { resolveRules } from "penguin-gym";
import { TRAIN_DEFAULTS, validateOptions, type TrainOptions } from "penguin-gym/train";

const options: TrainOptions = {
  ...TRAIN_DEFAULTS,
  algo: "ppo",
  rules: resolveRules("penguin"),
  out: "runs/ppo",
  seed: 3,
  maxSteps: 1000,
};
validateOptions(options);
console.log(options.seed);
