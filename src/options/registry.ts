/**
 * The options registry: every idea a command-line flag names, with its one flag name, meaning,
 * type and allowed values. Every `penguin` command, every `penguin train` algorithm and every
 * experiment script declares the flags it shares from here, so `--seed` is the first deal and
 * `--max-states` the solver budget wherever they appear. A use may choose its own default and add
 * a detail after the shared meaning; it never changes the meaning or the allowed values (the
 * registry test holds every command to this, and docs/cli.md is generated from it).
 *
 * Names retired for a clearer one stay as hidden aliases for one version (RENAMED): the command
 * line is rewritten before parsing, with a one-line notice on stderr.
 */
import type { Options } from "yargs";
import { agentNames } from "../agents/registry.js";
import { HEURISTIC_NAMES } from "../agents/heuristic.js";
import { MS_MAX } from "../engine/deal.js";
import {
  BASE_RULES,
  BUILD_RULES,
  DEAL_LAYOUTS,
  EMPTY_COLUMN_RULES,
  FOUNDATION_RULES,
  GROUP_MOVE_RULES,
  PRESET_NAMES,
} from "../engine/rules.js";
import { MAX_DEALS } from "../eval/deals.js";
import { MAX_STATES_LIMIT } from "../solver/search.js";
import { rangeText } from "../util/range.js";
import type { OptionSpec } from "./spec.js";

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 } as const;

export const CONCEPTS = {
  // The rule set (every command that plays).
  rules: { type: "string", describe: `rule preset: ${PRESET_NAMES.join(", ")}` },
  cells: {
    describe: "free cells (called flippers under Penguin rules), overriding the preset's",
    min: 0,
    max: 8,
    int: true,
  },
  empty: { type: "string", describe: `empty-column rule: ${EMPTY_COLUMN_RULES.join(" | ")}` },
  "group-move": { type: "string", describe: `group moves: ${GROUP_MOVE_RULES.join(" | ")}` },
  build: { type: "string", describe: `tableau build: ${BUILD_RULES.join(" | ")}` },
  base: { type: "string", describe: `foundation base: ${BASE_RULES.join(" | ")}` },
  foundations: {
    type: "string",
    describe: `foundations: ${FOUNDATION_RULES.join(" | ")} (build in suit, or by rank in any suit)`,
  },
  deal: { type: "string", describe: `deal layout: ${DEAL_LAYOUTS.join(" | ")}` },

  // Which deals.
  seed: {
    type: "seed",
    describe:
      "the deal, by seed; with several deals the first of S, S+1, … (an integer; one deal may also be named by any text)",
    ...INT32,
  },
  ms: { describe: "Microsoft deal number", min: 1, max: MS_MAX, int: true },
  board: {
    type: "string",
    describe:
      "a board file: penguin-board text (docs/engine.md), which deal writes and solve reads",
  },
  deals: { describe: "number of deals", min: 1, max: MAX_DEALS, int: true },
  "validation-deals": {
    describe: "validation deals (their seeds lie apart from training and held-out deals)",
    min: 0,
    max: 1_000_000,
    int: true,
  },

  // Who plays, and how far.
  agent: {
    type: "string",
    describe: `who plays: ${agentNames().join(", ")} (docs/agents.md)`,
  },
  heuristic: {
    type: "string",
    describe: `greedy/lookahead weight preset: ${HEURISTIC_NAMES.join(" | ")}`,
  },
  without: {
    type: "string",
    array: true,
    describe: "greedy/lookahead: switch features off (repeat or comma list)",
  },
  weight: {
    type: "string",
    array: true,
    describe: "greedy/lookahead: feature=weight (repeat or comma list)",
  },
  depth: { describe: "lookahead: moves searched ahead", min: 1, max: 8, int: true },
  width: { describe: "lookahead: moves followed per level", min: 1, max: 64, int: true },
  "agent-seed": {
    describe: "random: mixed with each deal's seed",
    min: -(2 ** 31),
    max: 2 ** 32 - 1,
    int: true,
  },
  model: {
    type: "string",
    describe: "a trained network: a run or checkpoint folder of penguin train",
  },
  sample: { type: "boolean", describe: "policy: sample from the network instead of argmax" },
  "agent-opt": {
    type: "string",
    array: true,
    describe: "any other agent option as key=value, e.g. timeout-ms=500 (solver), sample=true",
  },
  "max-steps": {
    describe: "moves before a game counts as lost",
    min: 1,
    max: 1_000_000,
    int: true,
  },
  "max-states": {
    describe: "solver budget: most distinct positions one search examines, about 16 bytes each",
    min: 1,
    max: MAX_STATES_LIMIT,
    int: true,
  },
  "timeout-ms": {
    describe: "solver wall-clock budget per search, in milliseconds",
    min: 1,
    max: 86_400_000,
  },

  // Training.
  "weights-seed": {
    describe:
      "seeds the network's first weights and training's own random choices (sampling, shuffling, noise); --seed names the deals",
    ...INT32,
    int: true,
  },
  lr: { describe: "learning rate (Adam step size)", min: 0, max: 100, minExclusive: true },

  // Running and output.
  workers: { describe: "worker threads", min: 1, max: 256, int: true },
  out: { type: "string", describe: "where the results go" },
  json: { type: "boolean", describe: "print the result as one line of JSON" },
  color: {
    type: "boolean",
    describe:
      "ANSI colours: default on a terminal unless NO_COLOR is set; --no-color turns them off",
  },
  quiet: { type: "boolean", describe: "no progress lines" },
} as const satisfies Record<string, OptionSpec>;

export type Concept = keyof typeof CONCEPTS;

export interface Use {
  readonly default?: unknown;
  /** Appended to the shared meaning after ": " (what this command does with it). */
  readonly detail?: string;
  /** The field of an options object (train specs), default the flag in camelCase. */
  readonly key?: string;
  /** Seeds only: the deal split this use allows (inside the concept's range), and a hint for refusals. */
  readonly min?: number;
  readonly max?: number;
  readonly hint?: string;
}

/** The allowed values of a numeric concept as help shows them, e.g. "an integer from 1 to 8". */
export function conceptRange(name: Concept): string | undefined {
  const c: OptionSpec = CONCEPTS[name];
  return c.type === undefined || c.type === "number"
    ? rangeText({ min: c.min, max: c.max, integer: c.int, minExclusive: c.minExclusive })
    : undefined;
}

/** A concept as a spec (src/options/spec.ts) with this use's default, detail and key. */
export function spec(name: Concept, u: Use = {}): OptionSpec {
  const c = CONCEPTS[name] as OptionSpec;
  const describe = u.detail ? `${c.describe}; ${u.detail}` : c.describe;
  const s: Record<string, unknown> = { ...c, describe };
  if (u.default !== undefined) s.default = u.default;
  if (u.key !== undefined) s.key = u.key;
  if (c.type === "seed") {
    if (u.min !== undefined) s.min = u.min;
    if (u.max !== undefined) s.max = u.max;
    if (u.hint !== undefined) s.hint = u.hint;
  }
  return s as unknown as OptionSpec;
}

const SPECS = new WeakMap<object, { name: string; spec: OptionSpec }>();

/** The spec a yargs option was made from (withOptions checks values against it). */
export function specOf(opt: object): { name: string; spec: OptionSpec } | undefined {
  return SPECS.get(opt);
}

/**
 * A concept as a yargs option. Numbers show their range last, as train's specs do; withOptions (src/cli/common.ts) checks each value before the command runs.
 */
export function flag(name: Concept, u: Use = {}): Options {
  const s = spec(name, u);
  const c = CONCEPTS[name] as OptionSpec;
  let opt: Options;
  switch (s.type) {
    case undefined:
    case "number":
      opt = { type: "number", describe: `${s.describe} (${conceptRange(name)})` };
      break;
    case "boolean":
      opt = { type: "boolean", describe: s.describe };
      break;
    default:
      opt = {
        type: "string",
        describe: s.describe,
        ...(c.type === "string" && c.array ? { array: true } : {}),
      };
  }
  if (u.default !== undefined) opt.default = u.default;
  SPECS.set(opt, { name, spec: s });
  return opt;
}

/**
 * Flags renamed for one vocabulary: old name → new name, per command ("train ppo" per algorithm;
 * "experiments" for every experiment script). They still work for one version, with a notice.
 */
export const RENAMED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  dataset: { players: "agent", "deal-start": "seed" },
  "train ppo": { "train-deal-start": "seed" },
  "train es": {
    "es-lr": "lr",
    "es-lr-schedule": "lr-schedule",
    "es-val-deals": "validation-deals",
    "es-max-steps": "max-steps",
  },
  "train safety": { "safety-lr": "lr", "safety-val-deals": "validation-deals", init: "model" },
  experiments: { players: "agent", group: "group-move" },
};

/**
 * The command line with retired flag names replaced by the current ones; `notice` gets one line
 * per retired name used. `renames` is a RENAMED entry.
 */
export function renameFlags(
  argv: readonly string[],
  renames: Readonly<Record<string, string>> | undefined,
  notice: (line: string) => void,
): string[] {
  if (!renames) return [...argv];
  const out: string[] = [];
  for (const tok of argv) {
    const m = /^--(no-)?([^=]+)(=.*)?$/s.exec(tok);
    const now = m ? renames[m[2]!] : undefined;
    if (m && now !== undefined && tok !== "--") {
      notice(`--${m[2]} is now --${now}; the old name goes in the next version`);
      out.push(`--${m[1] ?? ""}${now}${m[3] ?? ""}`);
    } else out.push(tok);
    if (tok === "--") break;
  }
  return [...out, ...argv.slice(out.length)];
}
