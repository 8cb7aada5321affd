/**
 * Numeric options of `penguin train` and `penguin dataset`, each with its allowed range (the
 * project's one range check, src/util/range.ts): the range appears in the help text and is
 * checked before a command touches any file, with an error that names it.
 */
import { checkRange, rangeText as text, type NumberRange } from "../util/range.js";

export interface NumberSpec {
  readonly describe: string;
  readonly default?: number;
  readonly min: number;
  readonly max: number;
  /** Integers only. */
  readonly int?: boolean;
  /** The lower bound itself is not allowed (e.g. a learning rate > 0). */
  readonly minExclusive?: boolean;
}

const range = (s: NumberSpec): NumberRange => ({ min: s.min, max: s.max, integer: s.int, minExclusive: s.minExclusive });

export function rangeText(s: NumberSpec): string {
  return text(range(s));
}

/** The yargs option of a spec (its describe gains the range). */
export function yargsNumber(s: NumberSpec): { type: "number"; default?: number; describe: string } {
  return { type: "number", ...(s.default !== undefined ? { default: s.default } : {}), describe: `${s.describe} (${rangeText(s)})` };
}

/** Throws a UsageError naming the option and its range unless v fits the spec; undefined passes. */
export function checkNumber(flag: string, v: unknown, s: NumberSpec): void {
  if (v !== undefined) checkRange(flag, v, range(s));
}

export function checkAll(specs: Readonly<Record<string, NumberSpec>>, args: Readonly<Record<string, unknown>>): void {
  for (const [flag, s] of Object.entries(specs)) checkNumber(flag, args[flag], s);
}
