/**
 * Typed experiment options in the CleanRL manner: each script declares its options once (type,
 * default, help) and gets back a typed object. Bad input is a `UsageError` whose message is one
 * line naming what is allowed; `exitOnUsageError` turns it into stderr + exit code 2.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../src/errors.js";
import { messageLine, printable } from "../../src/util/text.js";
import { parseShard, type Shard } from "./shard.js";

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

/** Options every experiment takes (deal range, sharding, workers, output). */
export const COMMON_OPTIONS = {
  deals: {
    type: "int",
    default: 200,
    min: 1,
    max: 100_000_000,
    help: "deals per condition (deal seeds seed … seed+deals−1)",
  },
  seed: { type: "int", default: 1, min: 0, max: 2 ** 31 - 1, help: "first deal seed" },
  shard: { type: "shard", help: "i/n: play only the i-th of n disjoint deal ranges (0 ≤ i < n)" },
  workers: { type: "int", default: 1, min: 1, max: 256, help: "worker threads" },
  out: {
    type: "string",
    default: "",
    help: "per-deal CSV (default results/<name>.csv, or results/<name>.shard-i-of-n.csv)",
  },
  report: { type: "flag", help: "play nothing: summarize and plot the existing CSV" },
  quiet: { type: "flag", help: "no progress line" },
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
