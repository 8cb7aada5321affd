/**
 * Typed experiment options in the CleanRL manner: each script declares its options once (type,
 * default, help) and gets back a typed object. Every idea the `penguin` command also has (deals,
 * seed, workers, out, agent, max-states, cells, …) comes from the one options registry
 * (src/options/registry.ts) through `shared`, with its meaning and allowed values; only a
 * script's own options (shard, report, sweeps) are declared here. Bad input is a `UsageError`
 * whose message is one line naming what is allowed; `exitOnUsageError` turns it into stderr +
 * exit code 2.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../src/errors.js";
import { messageLine, printable } from "../../src/util/text.js";
import { parseShard, type Shard } from "./shard.js";
import {
  CONCEPTS,
  RENAMED,
  renameFlags,
  spec,
  type Concept,
  type Use,
} from "../../src/options/registry.js";

interface IntSpec {
  type: "int";
  default: number;
  min?: number;
  max?: number;
  help: string;
}
interface ChoiceSpec<T extends string> {
  type: "choice";
  default: T;
  choices: readonly T[];
  help: string;
}
interface ListSpec<T extends string> {
  type: "list";
  default: readonly T[];
  choices: readonly T[];
  help: string;
}
interface IntListSpec {
  type: "int-list";
  default: readonly number[];
  min: number;
  max: number;
  help: string;
}
interface StringSpec {
  type: "string";
  default: string;
  help: string;
}
interface FlagSpec {
  type: "flag";
  help: string;
}
interface ShardSpec {
  type: "shard";
  help: string;
}

export type OptionSpec =
  | IntSpec
  // biome-ignore lint/suspicious/noExplicitAny: choice types are inferred per option
  | ChoiceSpec<any>
  // biome-ignore lint/suspicious/noExplicitAny: as above
  | ListSpec<any>
  | IntListSpec
  | StringSpec
  | FlagSpec
  | ShardSpec;
export type OptionSpecs = Record<string, OptionSpec>;

type ValueOf<S> = S extends IntSpec
  ? number
  : S extends ChoiceSpec<infer T>
    ? T
    : S extends ListSpec<infer T>
      ? T[]
      : S extends IntListSpec
        ? number[]
        : S extends StringSpec
          ? string
          : S extends FlagSpec
            ? boolean
            : S extends ShardSpec
              ? Shard | undefined
              : never;
export type Parsed<S extends OptionSpecs> = { -readonly [K in keyof S]: ValueOf<S[K]> };

/**
 * A registry idea as a script option: its meaning (and this use's detail), allowed values and
 * this use's default. `list`: a sweep takes several values (one condition each), "0-7" or "3,5".
 */
export function shared(
  name: "seed" | "deals" | "workers" | "max-states",
  u: Use & { default: number },
): IntSpec;
export function shared(
  name: "cells",
  u: Use & { default: readonly number[]; list: true },
): IntListSpec;
export function shared<T extends string>(
  name: Concept,
  u: Use & { default: readonly T[]; list: true; choices: readonly T[] },
): ListSpec<T>;
export function shared<T extends string>(
  name: Concept,
  u: Use & { default: T; choices: readonly T[] },
): ChoiceSpec<T>;
export function shared(name: "out", u: Use & { default: string }): StringSpec;
export function shared(name: "quiet"): FlagSpec;
export function shared(
  name: Concept,
  u: Use & { list?: boolean; choices?: readonly string[] } = {},
): OptionSpec {
  const s = spec(name, u);
  const help = s.describe;
  switch (s.type) {
    case undefined:
    case "number":
    case "seed":
      return u.list
        ? { type: "int-list", default: u.default as number[], min: s.min, max: s.max, help }
        : { type: "int", default: u.default as number, min: s.min, max: s.max, help };
    case "boolean":
      return { type: "flag", help };
    default:
      if (u.choices)
        return u.list
          ? { type: "list", default: u.default as string[], choices: u.choices, help }
          : { type: "choice", default: u.default as string, choices: u.choices, help };
      return { type: "string", default: String(u.default ?? ""), help };
  }
}

/** The registry idea a script option's flag names, if any (for the registry test). */
export const isShared = (flag: string): flag is Concept => flag in CONCEPTS;

/** Options every experiment takes (deal range, sharding, workers, output). */
export const COMMON_OPTIONS = {
  deals: shared("deals", { default: 200, detail: "per condition, seeds S … S+N−1 from --seed" }),
  seed: shared("seed", { default: 1 }),
  shard: { type: "shard", help: "i/n: play only the i-th of n disjoint deal ranges (0 ≤ i < n)" },
  workers: shared("workers", { default: 1 }),
  out: shared("out", {
    default: "",
    detail:
      "the per-deal CSV; default runs/<name>.csv (outside the tracked results), with --shard i/n X.shard-i-of-n.csv",
  }),
  report: { type: "flag", help: "play nothing: summarize and plot the existing CSV" },
  quiet: shared("quiet"),
} as const satisfies OptionSpecs;

function parseInt10(name: string, text: string, min: number, max: number): number {
  const v = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(v) || v < min || v > max)
    throw new UsageError(
      `--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  return v;
}

function parseValue(name: string, spec: OptionSpec, text: string): unknown {
  switch (spec.type) {
    case "int":
      return parseInt10(
        name,
        text,
        spec.min ?? Number.MIN_SAFE_INTEGER,
        spec.max ?? Number.MAX_SAFE_INTEGER,
      );
    case "choice":
      if (!spec.choices.includes(text))
        throw new UsageError(
          `--${name} ${JSON.stringify(text)} is not allowed; allowed: ${spec.choices.join(", ")}`,
        );
      return text;
    case "list": {
      const items = text
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      if (items.length === 0)
        throw new UsageError(`--${name} needs at least one of: ${spec.choices.join(", ")}`);
      for (const it of items)
        if (!spec.choices.includes(it))
          throw new UsageError(
            `--${name}: unknown ${JSON.stringify(it)}; allowed: ${spec.choices.join(", ")}`,
          );
      return [...new Set(items)];
    }
    case "int-list": {
      const out: number[] = [];
      for (const part of text
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")) {
        const range = /^(\d+)-(\d+)$/.exec(part);
        if (range) {
          const a = parseInt10(name, range[1]!, spec.min, spec.max);
          const b = parseInt10(name, range[2]!, spec.min, spec.max);
          for (let v = a; v <= b; v++) out.push(v);
        } else out.push(parseInt10(name, part, spec.min, spec.max));
      }
      if (out.length === 0)
        throw new UsageError(
          `--${name} needs integers from ${spec.min} to ${spec.max}, e.g. 0-3,5`,
        );
      return [...new Set(out)];
    }
    case "string":
      return text;
    case "shard":
      return parseShard(text);
    case "flag":
      if (text === "true") return true;
      if (text === "false") return false;
      throw new UsageError(`--${name} is a flag (true or false), got ${JSON.stringify(text)}`);
  }
}

function defaultOf(spec: OptionSpec): unknown {
  switch (spec.type) {
    case "flag":
      return false;
    case "shard":
      return undefined;
    case "list":
    case "int-list":
      return [...spec.default];
    default:
      return spec.default;
  }
}

export function helpText(script: string, specs: OptionSpecs): string {
  const lines = [
    `usage: npx tsx ${script.includes("/") ? script : `experiments/${script}`}.ts [options]`,
  ];
  for (const [name, s] of Object.entries(specs)) {
    const d =
      s.type === "flag" || s.type === "shard"
        ? ""
        : ` (default ${Array.isArray(s.default) ? s.default.join(",") : String(s.default)})`;
    const allowed = s.type === "choice" || s.type === "list" ? ` [${s.choices.join(", ")}]` : "";
    lines.push(`  --${name.padEnd(12)} ${s.help}${allowed}${d}`);
  }
  return lines.join("\n");
}

/**
 * Parses `--name value`, `--name=value` and bare flags. Unknown options and stray arguments are
 * errors naming the known options, so a typo never silently runs the default experiment.
 */
export function parseOptions<S extends OptionSpecs>(
  script: string,
  specs: S,
  argv: readonly string[],
): Parsed<S> & { help: boolean } {
  argv = renameFlags(argv, RENAMED.experiments, (line) =>
    process.stderr.write(`${script}: note: ${line}\n`),
  );
  const out: Record<string, unknown> = { help: false };
  for (const [k, s] of Object.entries(specs)) out[k] = defaultOf(s);
  const known = Object.keys(specs)
    .map((k) => `--${k}`)
    .join(", ");
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      out.help = true;
      continue;
    }
    const m = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(arg);
    if (!m)
      throw new UsageError(
        `unexpected argument ${JSON.stringify(printable(arg))}; ${script} takes ${known}`,
      );
    const name = m[1]!;
    const spec = specs[name];
    if (!spec) throw new UsageError(`unknown option --${name}; ${script} takes ${known}`);
    if (given.has(name)) throw new UsageError(`--${name} is given more than once; give it once`);
    given.add(name);
    let text = m[2];
    if (text === undefined) {
      if (spec.type === "flag") {
        out[name] = true;
        continue;
      }
      text = argv[i + 1];
      if (text === undefined || (text.startsWith("--") && text.length > 2))
        throw new UsageError(`--${name} needs a value: ${spec.help}`);
      i++;
    }
    if (text.trim() === "") throw new UsageError(`--${name} needs a value: ${spec.help}`);
    out[name] = parseValue(name, spec, text);
  }
  return out as Parsed<S> & { help: boolean };
}

/** Runs `body`; a UsageError becomes one line on stderr and exit code 2, anything else exit 1. */
export async function exitOnUsageError(script: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    // Messages may quote file contents: control characters are escaped.
    process.stderr.write(`${script}: ${messageLine(msg)}\n`);
    if (!(e instanceof UsageError) && process.env.PENGUIN_DEBUG) console.error(e);
    process.exit(e instanceof UsageError ? 2 : 1);
  }
}

/** True when the module at `url` is the script node was started with (not imported by a test). */
export function isMain(url: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(fileURLToPath(url)) === realpathSync(script);
  } catch {
    return false;
  }
}
