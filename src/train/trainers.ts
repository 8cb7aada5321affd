/**
 * The one dispatch table of `penguin train <algo>` and `penguin train --resume DIR`: for each
 * algorithm of src/train/algos.ts, how a run starts from the options its spec parsed and how a
 * stopped run continues. Each entry loads its trainer only when used (TensorFlow.js included),
 * and returns the one-line JSON summary the command prints. `resume(dir)` continues any run.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import { MAX_RUN_FILE_BYTES, readTextFile } from "../util/read.js";
import type { EsOptions } from "./es/options.js";
import type { PpoOptions } from "./ppo/options.js";
import { safetyOptions } from "./safety/options.js";

type Summary = Record<string, unknown> | undefined;

export interface Trainer {
  /** A new run in `out` from the spec's values (optionsFrom); `rules()` reads the rule flags. */
  train(values: Record<string, unknown>, out: string, rules: () => Rules): Promise<Summary>;
  /** Continues the run in `dir`; `changes`: the few values a resumed run may change. */
  resume(dir: string, changes: Record<string, unknown>): Promise<Summary>;
}

function ppoSummary(r: {
  run: string;
  backend: string;
  final?: Record<string, unknown> | object;
}): Summary {
  return r.final ? { run: r.run, backend: r.backend, ...r.final } : undefined;
}

function esSummary(run: string, r: import("./es/es.js").EsResult): Summary {
  return {
    run,
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

const safetySummary = (run: string, r: { best: number; dir: string }): Summary => ({
  run,
  algo: "safety",
  bestValidationWins: r.best,
  checkpoint: r.dir,
});

export const TRAINERS: Readonly<Record<string, Trainer>> = {
  ppo: {
    async train(values, out, rules) {
      const { train } = await import("./ppo/train.js");
      return ppoSummary(await train({ ...(values as Partial<PpoOptions>), rules: rules() }, out));
    },
    async resume(dir) {
      const { resume } = await import("./ppo/train.js");
      return ppoSummary(await resume(dir));
    },
  },
  es: {
    async train(values, out, rules) {
      const { train } = await import("./es/es.js");
      return esSummary(out, await train({ ...esValues(values), rules: rules() }, out));
    },
    async resume(dir, changes) {
      const { resume } = await import("./es/es.js");
      return esSummary(dir, await resume(dir, esValues(changes)));
    },
  },
  safety: {
    async train(values, out) {
      const { train } = await import("./safety/train.js");
      return safetySummary(out, await train(safetyOptions(values, out), out));
    },
    async resume(dir) {
      const { resume } = await import("./safety/train.js");
      return safetySummary(dir, await resume(dir));
    },
  },
};

/** The algorithm a run folder was started with (its config.json), or undefined. */
export function runAlgo(dir: string): string | undefined {
  const file = join(dir, "config.json");
  if (!existsSync(file)) return undefined;
  // Never a FIFO (it would block) nor a device or huge file (read whole): refused, named.
  const text = readTextFile(file, { maxBytes: MAX_RUN_FILE_BYTES, what: "run config" });
  try {
    return (JSON.parse(text) as { algo?: string }).algo;
  } catch {
    throw new UsageError(`${file} is damaged (not valid JSON); restore it or start a new run`);
  }
}

/** Continues the run in `dir`, whichever algorithm started it (the one resume path). */
export function resume(dir: string, changes: Record<string, unknown> = {}): Promise<Summary> {
  const algo = runAlgo(dir);
  const t = algo === undefined ? undefined : TRAINERS[algo];
  if (!t)
    throw new UsageError(
      algo === undefined
        ? `${dir} is not a run folder (no config.json)`
        : `${dir} was trained by ${algo}, which this version does not train (known: ${Object.keys(TRAINERS).join(", ")})`,
    );
  return t.resume(dir, changes);
}
