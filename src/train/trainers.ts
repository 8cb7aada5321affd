/**
 * The one dispatch table of `penguin train <algo>` and `penguin train --resume DIR`: for each
 * algorithm of src/train/algos.ts, how a run starts from the options its spec parsed and how a
 * stopped run continues. Each entry loads its trainer only when used (TensorFlow.js included),
 * and returns the one-line JSON summary the command prints.
 */
import type { Rules } from "../engine/rules.js";
import { defaultMaxSteps } from "../env/registry.js";
import { TRAIN_DEFAULTS, type Algo, type TrainOptions } from "./config.js";
import type { EsOptions } from "./es/options.js";
import { safetyOptions } from "./safety/options.js";

type Summary = Record<string, unknown> | undefined;

export interface Trainer {
  /** A new run in `out` from the spec's values (optionsFrom); `rules()` reads the rule flags. */
  train(values: Record<string, unknown>, out: string, rules: () => Rules): Promise<Summary>;
  /** Continues the run in `dir`; `changes`: the few values a resumed run may change. */
  resume(dir: string, changes: Record<string, unknown>): Promise<Summary>;
}

/** PPO and behaviour cloning share the policy trainer (src/train/trainer.ts). */
function policyTrainer(algo: Algo): Trainer {
  return {
    async train(values, out, rules) {
      const { train } = await import("./trainer.js");
      const r0 = rules();
      const r = await train({
        ...TRAIN_DEFAULTS,
        ...(values as Partial<TrainOptions>),
        algo,
        rules: r0,
        out,
        maxSteps: (values as Partial<TrainOptions>).maxSteps ?? defaultMaxSteps(r0),
      });
      return r.final ? { run: r.run, backend: r.backend, ...r.final } : undefined;
    },
    async resume(dir) {
      const { resume } = await import("./trainer.js");
      const r = await resume(dir);
      return r.final ? { run: r.run, backend: r.backend, ...r.final } : undefined;
    },
  };
}

async function es(partial: Partial<EsOptions>, resume: boolean): Promise<Summary> {
  const { trainEs } = await import("./es/es.js");
  const r = await trainEs(partial, resume);
  return {
    run: partial.out,
    algo: "es",
    generations: r.generations,
    bestGeneration: r.bestGeneration,
    bestValidationWinRate: r.bestValidationWinRate,
    seconds: Math.round(r.seconds),
  };
}

/** ES calls its time limit `minutes`; the shared flag is --max-minutes. */
function esValues(values: Record<string, unknown>): Partial<EsOptions> {
  const { maxMinutes, ...rest } = values;
  return {
    ...(rest as Partial<EsOptions>),
    ...(maxMinutes !== undefined ? { minutes: maxMinutes as number } : {}),
  };
}

export const TRAINERS: Readonly<Record<string, Trainer>> = {
  ppo: policyTrainer("ppo"),
  bc: policyTrainer("bc"),
  es: {
    train: (values, out, rules) => es({ ...esValues(values), out, rules: rules() }, false),
    resume: (dir, changes) => es({ out: dir, ...esValues(changes) }, true),
  },
  safety: {
    async train(values, out) {
      const { trainSafety } = await import("./safety/train.js");
      const r = await trainSafety(safetyOptions(values, out));
      return { run: out, algo: "safety", bestValidationWins: r.best, checkpoint: r.dir };
    },
    async resume(dir) {
      const { resumeSafety } = await import("./safety/train.js");
      const r = await resumeSafety(dir);
      return { run: dir, algo: "safety", bestValidationWins: r.best, checkpoint: r.dir };
    },
  },
};
