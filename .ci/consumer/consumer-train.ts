// The "penguin-gym/train" entry's declarations. Checked with skipLibCheck, because TensorFlow.js's
// own .d.ts files do not pass a strict check.
import { resolveRules } from "penguin-gym";
import { TRAIN_DEFAULTS, validateOptions, type TrainOptions } from "penguin-gym/train";

const options: TrainOptions = {
  ...TRAIN_DEFAULTS,
  algo: "ppo",
  rules: resolveRules("penguin"),
  out: "runs/ppo",
  seed: 3,
};
validateOptions(options);
console.log(options.seed);
