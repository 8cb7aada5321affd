/**
 * The allowed values of a numeric option, declared once: the text that help and errors show,
 * and the check that runs before a command touches any file.
 */
import { UsageError } from "../errors.js";
import { printable } from "./text.js";

export interface NumberRange {
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
  /** The lower bound itself is not allowed (a learning rate > 0). */
  readonly minExclusive?: boolean;
}

/** "an integer from 1 to 8", "a number > 0 and ≤ 1". */
export function rangeText(r: NumberRange): string {
  const what = r.integer ? "an integer" : "a number";
  return r.minExclusive ? `${what} > ${r.min} and ≤ ${r.max}` : `${what} from ${r.min} to ${r.max}`;
}

export function inRange(v: unknown, r: NumberRange): v is number {
  return (
    typeof v === "number" &&
    Number.isFinite(v) &&
    (r.minExclusive ? v > r.min : v >= r.min) &&
    v <= r.max &&
    (r.integer !== true || Number.isInteger(v))
  );
}

/** Throws a UsageError naming the option and its range when `value` is outside it; returns the value. */
export function checkRange(name: string, value: unknown, r: NumberRange): number {
  if (!inRange(value, r))
    throw new UsageError(`--${name} must be ${rangeText(r)}, got ${printable(String(value))}`);
  return value;
}
