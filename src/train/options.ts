/**
 * Numeric options with their allowed range, declared once: the range appears in the help text
 * and is checked before a command touches any file, with an error that names it.
 */
import { UsageError } from "../errors.js";

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

export function rangeText(s: NumberSpec): string {
  const lo = s.minExclusive ? `> ${s.min}` : String(s.min);
  return s.minExclusive ? `${s.int ? "an integer" : "a number"} ${lo} and ≤ ${s.max}` : `${s.int ? "an integer" : "a number"} from ${lo} to ${s.max}`;
}

/** The yargs option of a spec (its describe gains the range). */
export function yargsNumber(s: NumberSpec): { type: "number"; default?: number; describe: string } {
  return { type: "number", ...(s.default !== undefined ? { default: s.default } : {}), describe: `${s.describe} (${rangeText(s)})` };
}

/** Throws a UsageError naming the option and its range unless v fits the spec; undefined passes. */
export function checkNumber(flag: string, v: unknown, s: NumberSpec): void {
  if (v === undefined) return;
  const ok =
    typeof v === "number" && Number.isFinite(v) && (!s.int || Number.isInteger(v)) && (s.minExclusive ? v > s.min : v >= s.min) && v <= s.max;
  if (!ok) throw new UsageError(`--${flag} must be ${rangeText(s)}, got ${Array.isArray(v) ? `${v.length} values (give it once)` : String(v)}`);
}

export function checkAll(specs: Readonly<Record<string, NumberSpec>>, args: Readonly<Record<string, unknown>>): void {
  for (const [flag, s] of Object.entries(specs)) checkNumber(flag, args[flag], s);
}
