// The "penguin-gym/train" entry's declarations, checked under plain strict without skipLibCheck:
// they name no TensorFlow.js module (an optional peer, whose own .d.ts files fail a strict check).
import { resolveRules } from "penguin-gym";
import { es, ppo, safety, resume, CheckpointError } from "penguin-gym/train";

const options: ppo.PpoOptions = {
  ...ppo.PPO_DEFAULTS,
  rules: resolveRules("penguin"),
  out: "runs/ppo",
  seed: 3,
  maxSteps: 1000,
};
ppo.validateOptions(options);
const esOptions: Partial<es.EsOptions> = { ...es.ES_DEFAULTS, generations: 2 };
const safetyOptions: safety.SafetyTrainOptions = { ...safety.SAFETY_DEFAULTS, data: [], out: "-" };
const entries = [ppo.train, es.train, safety.train, ppo.resume, es.resume, safety.resume, resume];
console.log(
  options.seed,
  esOptions.generations,
  safetyOptions.batch,
  entries.length,
  CheckpointError.name,
);
