/** The options of `penguin train --algo safety`, one spec that builds the flags, the help and the checks. */
import { UsageError } from "../../errors.js";
import type { NumberSpec } from "../options.js";
import type { SafetyTrainOptions } from "./train.js";

export const SAFETY_NUMBERS: Readonly<Record<string, NumberSpec>> = {
  "safety-epochs": { describe: "safety: passes over the training moves", default: 3, min: 0.001, max: 1000 },
  "safety-batch": { describe: "safety: minibatch size", default: 256, min: 1, max: 65536, int: true },
  "safety-lr": { describe: "safety: Adam learning rate (annealed to a tenth)", default: 1e-3, min: 0, max: 1, minExclusive: true },
  "lost-weight": { describe: "safety: loss weight of a losing move (a safe one weighs 1)", default: 20, min: 0, max: 1e6, minExclusive: true },
  "keep-safe": { describe: "safety: share of positions with no losing move kept", default: 0.3, min: 0, max: 1 },
  "safety-val-deals": { describe: "safety: validation deals per half epoch (seeds 500,000 up)", default: 200, min: 1, max: 100_000, int: true },
  "attention-heads": { describe: "safety: attention heads over columns and flippers (0: none)", default: 0, min: 0, max: 64, int: true },
  "safety-shuffle": { describe: "safety: share of moves played at random among the safe ones", default: 0.2, min: 0, max: 1 },
};
export const SAFETY_STRINGS = {
  data: { type: "string", describe: "safety: dataset folders of penguin dataset, comma-separated" },
  thresholds: { type: "string", default: "0.1,0.2,0.3,0.5", describe: "safety: risk cut-offs tried on validation deals (best kept)" },
  "column-hidden": { type: "string", default: "64,64", describe: "safety: per-column layer sizes" },
  "head-hidden": { type: "string", default: "128,64", describe: "safety: head layer sizes" },
  "safety-features": { type: "string", default: "structure", describe: "safety: structure (digging costs, blockers) or basic" },
  init: { type: "string", describe: "safety: start from this network (run or checkpoint folder)" },
} as const;
export const SAFETY_FLAGS = [...Object.keys(SAFETY_NUMBERS), ...Object.keys(SAFETY_STRINGS)];

function sizes(flag: string, text: string): number[] {
  const v = text.split(",").map((t) => Number(t.trim()));
  if (v.length === 0 || v.some((n) => !Number.isInteger(n) || n < 1 || n > 4096)) throw new UsageError(`--${flag} must be layer sizes from 1 to 4096, comma-separated, got ${text}`);
  return v;
}

export function safetyOptions(a: Readonly<Record<string, unknown>>, out: string, seed: number, maxMinutes: number): SafetyTrainOptions {
  const data = String(a.data ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  if (data.length === 0) throw new UsageError("--algo safety needs --data DIR[,DIR…] (folders written by penguin dataset)");
  const thresholds = String(a.thresholds).split(",").map((t) => Number(t.trim()));
  if (thresholds.some((t) => !(t >= 0 && t <= 1))) throw new UsageError(`--thresholds must be numbers from 0 to 1, got ${String(a.thresholds)}`);
  const features = String(a["safety-features"] ?? "structure");
  if (features !== "structure" && features !== "basic") throw new UsageError(`--safety-features must be structure or basic, got ${features}`);
  return {
    data,
    structure: features === "structure",
    attentionHeads: (a["attention-heads"] as number | undefined) ?? 0,
    out,
    seed,
    epochs: a["safety-epochs"] as number,
    batch: a["safety-batch"] as number,
    lr: a["safety-lr"] as number,
    lostWeight: a["lost-weight"] as number,
    keepSafe: a["keep-safe"] as number,
    valDeals: a["safety-val-deals"] as number,
    shuffle: a["safety-shuffle"] as number,
    thresholds,
    columnHidden: sizes("column-hidden", String(a["column-hidden"])),
    headHidden: sizes("head-hidden", String(a["head-hidden"])),
    maxMinutes,
    ...(a.init ? { init: String(a.init) } : {}),
  };
}
