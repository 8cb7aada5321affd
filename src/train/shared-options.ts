/** The flags every `penguin train <algo>` takes, and the learning-rate schedule PPO and ES share. */
import { spec } from "../options/registry.js";
import type { OptionSpecs, StringSpec } from "../options/spec.js";

/** The default of every flag of `specs` that has one, by the key of its options object. */
export function specDefaults(specs: OptionSpecs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [flag, s] of Object.entries(specs))
    if (s.default !== undefined)
      out[s.key ?? flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = s.default;
  return out;
}

export const COMMON_OPTIONS: OptionSpecs = {
  "weights-seed": spec("weights-seed", { default: 1, key: "seed" }),
  "max-minutes": {
    describe: "wall-clock budget (0 = none); the run then stops and evaluates",
    default: 0,
    min: 0,
    max: 1e6,
  },
};

/** A learning-rate schedule flag with default `d` (linear falls to 0 over the run). */
export const lrSchedule = (d: string, key?: string): StringSpec => ({
  type: "string",
  describe: "learning-rate schedule (linear falls to 0 over the run)",
  default: d,
  choices: ["linear", "constant"],
  ...(key ? { key } : {}),
});
