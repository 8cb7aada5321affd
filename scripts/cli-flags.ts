/**
 * Every flag of every command, read from the commands themselves: each `penguin` command's yargs
 * builder, each `penguin train` algorithm's spec and each experiment script's options. The
 * registry test (tests/options/registry.test.ts) holds them to the options registry, and
 * scripts/cli-docs.ts writes docs/cli.md from them.
 */
import yargs, { type Argv } from "yargs";
import { commands } from "../src/cli/commands.js";
import { ALGOS } from "../src/train/algos.js";
import { yargsOption } from "../src/options/spec.js";
import { COMMON_OPTIONS, type OptionSpec as ScriptSpec } from "../experiments/lib/options.js";
import { quick } from "../experiments/quick.js";
import { flippers } from "../experiments/flippers.js";
import { groupMove } from "../experiments/group-move.js";
import { baseRank } from "../experiments/base-rank.js";
import { family } from "../experiments/family.js";
import { heuristics } from "../experiments/heuristics.js";
import { ATLAS_OPTIONS } from "../experiments/atlas.js";
import { isRuleFlag } from "../src/cli/common.js";

export interface FlagInfo {
  readonly flag: string;
  /** number, string, boolean, array (repeatable), or a script's int-list, list, choice, shard. */
  readonly type: string;
  readonly default?: string;
  readonly describe: string;
  /** Scripts only: the allowed integers. */
  readonly min?: number;
  readonly max?: number;
}

export interface CommandInfo {
  /** "penguin solve", "penguin train ppo", "experiments/flippers.ts". */
  readonly name: string;
  readonly usage: string;
  readonly describe: string;
  readonly flags: readonly FlagInfo[];
}

const show = (v: unknown): string | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v.join(",") : String(v);

interface Introspect {
  getOptions(): {
    key: Record<string, unknown>;
    boolean: string[];
    number: string[];
    array: string[];
    default: Record<string, unknown>;
    hiddenOptions: string[];
  };
  getInternalMethods(): { getUsageInstance(): { getDescriptions(): Record<string, string> } };
}

function yargsFlags(build: (y: Argv) => unknown, positionals: readonly string[]): FlagInfo[] {
  const y = build(yargs([])) as Introspect;
  const o = y.getOptions();
  const d = y.getInternalMethods().getUsageInstance().getDescriptions();
  return Object.keys(o.key)
    .filter((k) => !["help", "version", ...positionals].includes(k) && !o.hiddenOptions.includes(k))
    .map((k) => ({
      flag: k,
      type: o.array.includes(k)
        ? "array"
        : o.boolean.includes(k)
          ? "boolean"
          : o.number.includes(k)
            ? "number"
            : "string",
      default: show(o.default[k]),
      describe: d[k] ?? "",
    }));
}

function penguinCommands(): CommandInfo[] {
  const out: CommandInfo[] = [];
  for (const c of commands) {
    const usage = String(c.command);
    const name = usage.split(" ")[0]!;
    const positionals = [...usage.matchAll(/[<[]([\w-]+)(\.\.)?[>\]]/g)].map((m) => m[1]!);
    if (name === "train") {
      // One entry per algorithm: its flags are its spec's (the builder reads process.argv).
      const all = yargsFlags(c.builder as (y: Argv) => unknown, positionals);
      const ruleFlags = all.filter((f) => isRuleFlag(f.flag));
      const own = all.filter((f) => f.flag === "out" || f.flag === "resume");
      for (const a of ALGOS)
        out.push({
          name: `penguin train ${a.name}`,
          usage: `penguin train ${a.name} [options]`,
          describe: `${a.describe} (${a.docs})`,
          flags: [
            ...(a.rules ? ruleFlags : []),
            ...own,
            ...Object.entries(a.options).map(([flag, s]) => {
              const y = yargsOption(s);
              return { flag, type: y.type, default: show(y.default), describe: y.describe };
            }),
          ],
        });
      continue;
    }
    out.push({
      name: `penguin ${name}`,
      usage: `penguin ${usage}`,
      describe: String(c.describe),
      flags: yargsFlags(c.builder as (y: Argv) => unknown, positionals),
    });
  }
  return out;
}

function scriptFlag(flag: string, s: ScriptSpec): FlagInfo {
  const d = "default" in s ? show(s.default) : undefined;
  const choices = "choices" in s ? s.choices.join(" | ") : "";
  const allowed = choices && !s.help.includes(choices) ? `: ${choices}` : "";
  return {
    flag,
    type: s.type,
    ...(d !== undefined && d !== "" ? { default: d } : {}),
    describe: `${s.help}${allowed}`,
    ...("min" in s && s.min !== undefined ? { min: s.min } : {}),
    ...("max" in s && s.max !== undefined ? { max: s.max } : {}),
  };
}

const SCRIPTS = [
  { file: "quick", def: quick },
  { file: "flippers", def: flippers },
  { file: "group-move", def: groupMove },
  { file: "base-rank", def: baseRank },
  { file: "family", def: family },
  { file: "heuristics", def: heuristics },
];

function experimentScripts(): CommandInfo[] {
  return SCRIPTS.map(({ file, def }) => ({
    name: `experiments/${file}.ts`,
    usage: `npx tsx experiments/${file}.ts [options]`,
    describe: `experiment "${def.name}" (docs/experiments.md)`,
    flags: Object.entries({
      ...COMMON_OPTIONS,
      ...(def.options as Record<string, ScriptSpec>),
    }).map(([flag, s]) => scriptFlag(flag, s)),
  }));
}

/** The atlas parses its own options (no common experiment options: it plays its own rows). */
function atlasScript(): CommandInfo {
  return {
    name: "experiments/atlas.ts",
    usage: "npx tsx experiments/atlas.ts [options]",
    describe: "the difficulty atlas (docs/atlas.md)",
    flags: Object.entries(ATLAS_OPTIONS as Record<string, ScriptSpec>).map(([flag, s]) =>
      scriptFlag(flag, s),
    ),
  };
}

/** Every command: penguin's (train once per algorithm), then the experiment scripts. */
export function allCommands(): CommandInfo[] {
  return [...penguinCommands(), ...experimentScripts(), atlasScript()];
}
