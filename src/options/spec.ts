/**
 * The typed option spec format of the options registry (src/options/registry.ts) and of
 * `penguin train <algo>`: each option is declared once (flag, type, default, allowed values, the
 * field of its options object), and a command builds its flags, its help and its checks from that. Numbers use the project's one
 * range check (src/util/range.ts): the range appears in the help text and is checked before a
 * command touches any file, with an error that names it.
 */
import { UsageError } from "../errors.js";
import { checkRange, rangeText as text, type NumberRange } from "../util/range.js";
import { printable } from "../util/text.js";

export interface NumberSpec {
  readonly type?: "number";
  readonly describe: string;
  readonly default?: number;
  readonly min: number;
  readonly max: number;
  /** Integers only. */
  readonly int?: boolean;
  /** The lower bound itself is not allowed (e.g. a learning rate > 0). */
  readonly minExclusive?: boolean;
  /** The field of the algorithm's options object (default: the flag in camelCase). */
  readonly key?: string;
}
export interface StringSpec {
  readonly type: "string";
  readonly describe: string;
  readonly default?: string;
  /** The allowed values, when there is a fixed set. */
  readonly choices?: readonly string[];
  /** Repeatable (yargs array): `--weight a=1 --weight b=2`. */
  readonly array?: boolean;
  readonly key?: string;
}
export interface BooleanSpec {
  readonly type: "boolean";
  readonly describe: string;
  readonly default?: boolean;
  readonly key?: string;
}
/** Layer sizes, comma-separated ("256,256"), each from 1 to 4096. */
export interface SizesSpec {
  readonly type: "sizes";
  readonly describe: string;
  readonly default: readonly number[];
  readonly key?: string;
}
/**
 * A deal seed: an integer in [min, max] (the deal split a use allows). yargs reads it as text, as
 * every `--seed` is (single-deal commands also take any text), and it is parsed here.
 */
export interface SeedSpec {
  readonly type: "seed";
  readonly describe: string;
  readonly default?: number;
  readonly min: number;
  readonly max: number;
  readonly key?: string;
  /** Appended to a refusal, e.g. where a flag that used to be --seed went. */
  readonly hint?: string;
}
export type OptionSpec = NumberSpec | StringSpec | BooleanSpec | SizesSpec | SeedSpec;
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

const range = (s: NumberSpec): NumberRange => ({
  min: s.min,
  max: s.max,
  integer: s.int,
  minExclusive: s.minExclusive,
});

export function rangeText(s: NumberSpec): string {
  return text(range(s));
}

/** The yargs option of a number spec (its describe gains the range). */
export function yargsNumber(s: NumberSpec): { type: "number"; default?: number; describe: string } {
  return {
    type: "number",
    ...(s.default !== undefined ? { default: s.default } : {}),
    describe: `${s.describe} (${rangeText(s)})`,
  };
}

/** The yargs option of any spec; the help shows ranges and choices. */
export function yargsOption(s: OptionSpec): {
  type: "number" | "string" | "boolean";
  default?: unknown;
  describe: string;
} {
  switch (s.type) {
    case undefined:
    case "number":
      return yargsNumber(s);
    case "string":
      return {
        type: "string",
        ...(s.default !== undefined ? { default: s.default } : {}),
        describe: s.choices ? `${s.describe}: ${s.choices.join(" | ")}` : s.describe,
      };
    case "boolean":
      return {
        type: "boolean",
        ...(s.default !== undefined ? { default: s.default } : {}),
        describe: s.describe,
      };
    case "seed":
      return {
        type: "string",
        ...(s.default !== undefined ? { default: String(s.default) } : {}),
        describe: s.describe,
      };
    case "sizes":
      return {
        type: "string",
        default: s.default.join(","),
        describe: `${s.describe} (comma-separated, each 1 to 4096)`,
      };
  }
}

/** Throws a UsageError naming the option and its range unless v fits the spec; undefined passes. */
function checkNumber(flag: string, v: unknown, s: NumberSpec): void {
  if (v !== undefined) checkRange(flag, v, range(s));
}

export function checkAll(
  specs: Readonly<Record<string, NumberSpec>>,
  args: Readonly<Record<string, unknown>>,
): void {
  for (const [flag, s] of Object.entries(specs)) checkNumber(flag, args[flag], s);
}

/** The value of one option, checked and converted (sizes become number[]). */
function optionValue(flag: string, s: OptionSpec, v: unknown): unknown {
  if (v === undefined) return undefined;
  switch (s.type) {
    case undefined:
    case "number":
      return checkRange(flag, v, range(s));
    case "string":
      if (s.choices && !s.choices.includes(String(v)))
        throw new UsageError(`--${flag} must be ${oneOf(s.choices)}, got ${printable(String(v))}`);
      return String(v);
    case "boolean":
      return Boolean(v);
    case "seed": {
      const t = String(v).trim();
      if (!/^-?\d+$/.test(t))
        throw new UsageError(`--${flag} must be an integer seed, got ${printable(String(v))}`);
      try {
        return checkRange(flag, Number(t), { min: s.min, max: s.max, integer: true });
      } catch (e) {
        if (e instanceof UsageError && s.hint) throw new UsageError(`${e.message}; ${s.hint}`);
        throw e;
      }
    }
    case "sizes": {
      const sizes = String(v)
        .split(",")
        .map((t) => Number(t.trim()));
      if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 4096))
        throw new UsageError(
          `--${flag} must be layer sizes from 1 to 4096, comma-separated, e.g. 256,256; got ${printable(String(v))}`,
        );
      return sizes;
    }
  }
}

const camelCase = (flag: string): string =>
  flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The options object of a spec from parsed arguments: every value checked (ranges, choices,
 * sizes) and stored under its key. Throws the first UsageError, before anything is written.
 */
export function optionsFrom(
  specs: OptionSpecs,
  args: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [flag, s] of Object.entries(specs)) {
    const v = optionValue(flag, s, args[flag]);
    if (v !== undefined) out[s.key ?? camelCase(flag)] = v;
  }
  return out;
}

/** "a", "a or b", "a, b or c": the choices as a sentence names them. */
function oneOf(choices: readonly string[]): string {
  return choices.length < 3
    ? choices.join(" or ")
    : `${choices.slice(0, -1).join(", ")} or ${choices[choices.length - 1]}`;
}
