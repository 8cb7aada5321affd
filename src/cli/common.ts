/**
 * Options shared by every command (rules and seeds), so `--rules penguin --cells 3 --empty any`
 * means the same thing to deal, play, solve, eval, train and the experiments.
 */
import type { Argv } from "yargs";
import { resolveRules, type RuleOverrides, type Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import { dealMs, deal as dealSeed, MS_MAX } from "../engine/deal.js";
import type { State } from "../engine/state.js";

export interface RuleArgs {
  rules: string;
  cells?: number;
  empty?: string;
  "group-move"?: string;
  build?: string;
  base?: string;
  deal?: string;
}

export function withRuleOptions<T>(y: Argv<T>): Argv<T & RuleArgs> {
  return y
    .option("rules", { type: "string", default: "penguin", describe: "preset: penguin, penguin-relaxed, opus, penguin-beak-home, bakers-game, kings-only-bakers-game, freecell, eight-off, seahaven-towers" })
    .option("cells", { type: "number", describe: "flippers / free cells, 0..8" })
    .option("empty", { type: "string", describe: "empty-column rule: below-base | any | none" })
    .option("group-move", { type: "string", describe: "group moves: unlimited | supermove | single" })
    .option("build", { type: "string", describe: "tableau build: suit | alternate-color" })
    .option("base", { type: "string", describe: "foundation base: beak | ace" })
    .option("deal", { type: "string", describe: "layout: penguin | penguin-beak-home | freecell | eight-off | seahaven" }) as unknown as Argv<T & RuleArgs>;
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
