/**
 * Rules and a deal from option values (`--rules penguin --cells 3 --empty any`, `--seed 7` or
 * `--ms 617`), for the command line, the viewer's server and anything else that takes them as
 * named values. Bad values throw one-line UsageErrors naming what is allowed.
 */
import { UsageError } from "../errors.js";
import { checkRange } from "../util/range.js";
import { dealMs, deal as dealSeed, MS_MAX } from "./deal.js";
import { resolveRules, type RuleOverrides, type Rules } from "./rules.js";
import type { State } from "./state.js";

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

export function rulesFromArgs(a: RuleArgs): Rules {
  const o: Record<string, unknown> = {};
  if (a.cells !== undefined)
    o.cells = checkRange("cells", a.cells, { min: 0, max: 8, integer: true });
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

/** `--seed` may be an integer or any string; integers are kept as numbers so 7 and "7" agree. */
export function parseSeed(text: string): number | string {
  return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
}

export function dealFromArgs(rules: Rules, a: DealArgs, required = true): State | undefined {
  if (a.seed !== undefined && a.ms !== undefined)
    throw new UsageError("give either --seed or --ms, not both");
  if (a.ms !== undefined)
    return dealMs(rules, checkRange("ms", a.ms, { min: 1, max: MS_MAX, integer: true }));
  if (a.seed !== undefined) return dealSeed(rules, parseSeed(String(a.seed)));
  if (required) throw new UsageError("name a deal with --seed S or --ms N");
  return undefined;
}
