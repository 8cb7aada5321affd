/**
 * Trains the action-scorer: `npx tsx src/train/scorer/main.ts --out runs/scorer --minutes 25 --seed 1`.
 * Every option of ScorerTrainOptions is a flag of the same name in kebab case
 * (`--deals-round0 150 --deals-per-round 100 --hidden 64,64 --init tuned|zero ...`).
 */
import { parseArgs } from "node:util";
import { UsageError } from "../../errors.js";
import { SCORER_DEFAULTS, trainScorer, type ScorerTrainOptions } from "./dagger.js";

const kebab = (k: string): string => k.replace(/[A-Z0-9]+/g, (m) => `-${m.toLowerCase()}`).replace(/-(\d)/g, "$1");

export function parseScorerArgs(argv: string[]): Partial<ScorerTrainOptions> {
  const keys = Object.keys(SCORER_DEFAULTS) as (keyof ScorerTrainOptions)[];
  const spec: Record<string, { type: "string" | "boolean" }> = {};
  for (const k of keys) spec[kebab(k)] = { type: typeof SCORER_DEFAULTS[k] === "boolean" ? "boolean" : "string" };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options: spec, strict: true }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split("\n")[0]}; allowed: ${Object.keys(spec).map((k) => `--${k}`).join(" ")}`);
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = values[kebab(k)];
    if (v === undefined) continue;
    const d = SCORER_DEFAULTS[k];
    if (typeof d === "boolean") out[k] = v;
    else if (typeof d === "number") {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${kebab(k)} must be a non-negative number, got ${String(v)}`);
      out[k] = n;
    } else if (Array.isArray(d)) {
      const list = String(v).split(",").map(Number);
      if (list.some((n) => !Number.isInteger(n) || n < 1)) throw new UsageError(`--${kebab(k)} must be a comma list of positive integers, got ${String(v)}`);
      out[k] = list;
    } else if (k === "init") {
      if (v !== "tuned" && v !== "zero") throw new UsageError(`--init must be tuned or zero, got ${String(v)}`);
      out[k] = v;
    } else if (k === "teacher") {
      if (v !== "lookahead" && v !== "rollout") throw new UsageError(`--teacher must be lookahead or rollout, got ${String(v)}`);
      out[k] = v;
    } else out[k] = String(v);
  }
  return out as Partial<ScorerTrainOptions>;
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, "/").split("/").slice(-4).join("/"));
if (isMain) {
  try {
    await trainScorer(parseScorerArgs(process.argv.slice(2)));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`penguin: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
}
