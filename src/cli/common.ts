/**
 * Options shared by every command (rules and seeds), so `--rules penguin --cells 3 --empty any`
 * means the same thing to deal, play, solve, eval, train and the experiments.
 */
import type { Argv } from "yargs";
import {
  BASE_RULES,
  BUILD_RULES,
  DEAL_LAYOUTS,
  EMPTY_COLUMN_RULES,
  FOUNDATION_RULES,
  GROUP_MOVE_RULES,
  PRESET_NAMES,
  resolveRules,
  UsageError,
  type RuleOverrides,
  type Rules,
} from "../engine/rules.js";
import { dealMs, deal as dealSeed, MS_MAX } from "../engine/deal.js";
import type { State } from "../engine/state.js";

export interface RuleArgs {
  rules: string;
  cells?: number;
  empty?: string;
  "group-move"?: string;
  build?: string;
  base?: string;
  foundations?: string;
  deal?: string;
}

export function withRuleOptions<T>(y: Argv<T>): Argv<T & RuleArgs> {
  return y
    .option("rules", { type: "string", default: "penguin", describe: `preset: ${PRESET_NAMES.join(", ")}` })
    .option("cells", { type: "number", describe: "flippers / free cells, 0..8" })
    .option("empty", { type: "string", describe: `empty-column rule: ${EMPTY_COLUMN_RULES.join(" | ")}` })
    .option("group-move", { type: "string", describe: `group moves: ${GROUP_MOVE_RULES.join(" | ")}` })
    .option("build", { type: "string", describe: `tableau build: ${BUILD_RULES.join(" | ")}` })
    .option("base", { type: "string", describe: `foundation base: ${BASE_RULES.join(" | ")}` })
    .option("foundations", { type: "string", describe: `foundations: ${FOUNDATION_RULES.join(" | ")} (build in suit, or by rank in any suit)` })
    .option("deal", { type: "string", describe: `layout: ${DEAL_LAYOUTS.join(" | ")}` }) as unknown as Argv<T & RuleArgs>;
}

export function rulesFromArgs(a: RuleArgs): Rules {
  const o: Record<string, unknown> = {};
  if (a.cells !== undefined) {
    if (!Number.isInteger(a.cells)) throw new UsageError(`--cells must be an integer from 0 to 8, got ${a.cells}`);
    o.cells = a.cells;
  }
  if (a.empty !== undefined) o.emptyColumn = a.empty;
  if (a["group-move"] !== undefined) o.groupMove = a["group-move"];
  if (a.build !== undefined) o.build = a.build;
  if (a.base !== undefined) o.base = a.base;
  if (a.foundations !== undefined) o.foundations = a.foundations;
  if (a.deal !== undefined) o.deal = a.deal;
  return resolveRules(a.rules, o as RuleOverrides);
}

export interface DealArgs {
  seed?: string;
  ms?: number;
}

export function withDealOptions<T>(y: Argv<T>): Argv<T & DealArgs> {
  return y
    .option("seed", { type: "string", describe: "deal seed (integer or string, via seedrandom)" })
    .option("ms", { type: "number", describe: `Microsoft deal number, 1..${MS_MAX}` }) as unknown as Argv<T & DealArgs>;
}

/** `--seed` may be an integer or any string; integers are kept as numbers so 7 and "7" agree. */
export function parseSeed(text: string): number | string {
  return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
}

export function dealFromArgs(rules: Rules, a: DealArgs, required = true): State | undefined {
  if (a.seed !== undefined && a.ms !== undefined) throw new UsageError("give either --seed or --ms, not both");
  if (a.ms !== undefined) return dealMs(rules, a.ms);
  if (a.seed !== undefined) return dealSeed(rules, parseSeed(String(a.seed)));
  if (required) throw new UsageError("name a deal with --seed S or --ms N");
  return undefined;
}
