/**
 * Options shared by every command (rules and seeds), so `--rules penguin --cells 3 --empty any`
 * means the same thing to deal, play, solve, eval, train and the experiments.
 */
import type { Argv, Options } from "yargs";
import { UsageError } from "../errors.js";
import { checkRange, rangeText, type NumberRange } from "../util/range.js";
import { flag, specOf } from "../options/registry.js";
export { checkRange, type NumberRange };
import { printable } from "../util/text.js";
import type { DealArgs, RuleArgs } from "../engine/from-args.js";
// Parsing rules and deals from option values lives below the CLI (the viewer uses it too).
export {
  dealFromArgs,
  parseSeed,
  rulesFromArgs,
  type DealArgs,
  type RuleArgs,
} from "../engine/from-args.js";

/** The rule options every command takes, in the order its help lists them. */
export const RULE_FLAGS = [
  "rules",
  "cells",
  "empty",
  "group-move",
  "build",
  "base",
  "foundations",
  "deal",
] as const;

/** Whether a flag name is one of the rule options. */
export function isRuleFlag(f: string): boolean {
  return (RULE_FLAGS as readonly string[]).includes(f);
}

export function withRuleOptions<T>(y: Argv<T>): Argv<T & RuleArgs> {
  return withOptions(
    y,
    Object.fromEntries(
      RULE_FLAGS.map((f) => [f, f === "rules" ? flag(f, { default: "penguin" }) : flag(f)]),
    ),
  ) as unknown as Argv<T & RuleArgs>;
}

export function withDealOptions<T>(y: Argv<T>): Argv<T & DealArgs> {
  return withOptions(y, {
    seed: flag("seed"),
    ms: flag("ms"),
  }) as unknown as Argv<T & DealArgs>;
}

const RANGES = new WeakMap<object, NumberRange>();

/**
 * A numeric yargs option that carries its allowed range, for a flag of one command only (shared
 * ideas come from the options registry, src/options/registry.ts): the range is shown in --help
 * and checked (withOptions) before the command's handler runs, so before any file is touched.
 */
export function rangedNumber(
  describe: string,
  range: NumberRange,
  extra: Omit<Options, "type" | "describe"> = {},
): Options {
  const opt: Options = { ...extra, type: "number", describe: `${describe} (${rangeText(range)})` };
  RANGES.set(opt, range);
  return opt;
}

/**
 * Declares `options` (name → yargs option: registry flags, or rangedNumber for a command's own)
 * and checks every ranged one after parsing.
 */
export function withOptions<T>(y: Argv<T>, options: Readonly<Record<string, Options>>): Argv<T> {
  let out = y;
  for (const [name, opt] of Object.entries(options)) out = out.option(name, opt) as Argv<T>;
  return out.check((a) => {
    for (const [name, opt] of Object.entries(options)) {
      const v = (a as Record<string, unknown>)[name];
      if (v === undefined) continue;
      const r = RANGES.get(opt);
      if (r) checkRange(name, v, r);
      const s = specOf(opt)?.spec;
      if (s && (s.type === undefined || s.type === "number"))
        checkRange(name, v, {
          min: s.min,
          max: s.max,
          integer: s.int,
          minExclusive: s.minExclusive,
        });
    }
    return true;
  });
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The option types yargs knows for the command being run (Argv.getOptions()). */
export interface OptionKinds {
  readonly boolean: readonly string[];
  readonly number: readonly string[];
  readonly string: readonly string[];
  readonly array: readonly string[];
}

/**
 * Checks the raw command line against the declared options, catching what yargs lets through
 * silently: a single-valued option given twice (yargs makes an array of it), an option with
 * no value (yargs gives "" or 0), a number option whose text is not a number (NaN), and a
 * boolean given anything but true or false (`--json=maybe` would be false).
 */
export function checkRawArgs(raw: readonly string[], kinds: OptionKinds): void {
  const isBool = (n: string): boolean => kinds.boolean.includes(n);
  const known = (n: string): boolean =>
    isBool(n) || kinds.number.includes(n) || kinds.string.includes(n) || kinds.array.includes(n);
  const count = new Map<string, number>();
  for (let i = 0; i < raw.length; i++) {
    const tok = raw[i]!;
    if (tok === "--") break;
    const m = /^--([^=]+)(=(.*))?$/s.exec(tok);
    if (!m) continue;
    let name = m[1]!;
    let inline = m[3];
    if (!known(name) && name.startsWith("no-") && isBool(name.slice(3))) {
      name = name.slice(3);
      if (inline !== undefined)
        throw new UsageError(
          `--no-${name} takes no value, got ${JSON.stringify(printable(inline))}`,
        );
      inline = undefined;
    } else if (!known(name)) continue; // unknown options are yargs' to refuse (strict mode)
    count.set(name, (count.get(name) ?? 0) + 1);
    if (
      count.get(name) === 2 &&
      !kinds.array.includes(name) &&
      name !== "help" &&
      name !== "version"
    )
      throw new UsageError(`--${name} is given more than once; give it once`);
    if (isBool(name)) {
      if (inline !== undefined && inline !== "true" && inline !== "false")
        throw new UsageError(
          `--${name} is true or false, got ${JSON.stringify(printable(inline))}`,
        );
      if (inline === undefined && (raw[i + 1] === "true" || raw[i + 1] === "false")) i++;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = raw[i + 1];
      // The next token is this option's value unless it is another option (a negative number is a value).
      if (next !== undefined && !(next.startsWith("-") && !NUMBER.test(next))) {
        value = next;
        i++;
      }
    }
    if (value === undefined || value === "") throw new UsageError(`--${name} needs a value`);
    if (kinds.number.includes(name) && !NUMBER.test(value.trim()))
      throw new UsageError(`--${name} must be a number, got ${JSON.stringify(printable(value))}`);
    // Past 2^53 a number no longer holds every integer: refuse it quoting the text as typed,
    // since the parsed value (2^53+1 → 2^53) would name another number.
    if (kinds.number.includes(name) && /^[+-]?\d+$/.test(value.trim()))
      if (!Number.isSafeInteger(Number(value.trim())))
        throw new UsageError(
          `--${name} ${value.trim()} is beyond the integers a number holds exactly (±2^53−1); see --help for its range`,
        );
    if (kinds.array.includes(name))
      while (raw[i + 1] !== undefined && !raw[i + 1]!.startsWith("--")) i++;
  }
}
