/**
 * `penguin eval`: plays N deals with an agent in worker threads and writes one CSV row per deal
 * (resumable), then prints games, wins, win rate with its 95% Wilson interval, mean cards home and
 * deals per second. Everything but the flags lives in src/eval (runEval).
 */
import type { Argv, CommandModule, Options } from "yargs";
import { UsageError } from "../errors.js";
import { optionValue } from "../agents/agent.js";
import { agentEntries, agentNames } from "../agents/registry.js";
import { DEFAULT_HEURISTIC, HEURISTIC_NAMES, listOption } from "../agents/heuristic.js";
import type { AgentOptions } from "../agents/agent.js";
import { MAX_DEALS, msRange, seedRange, type DealList } from "../eval/deals.js";
import { MS_MAX } from "../engine/deal.js";
import { runEval } from "../eval/run.js";
import { formatSummary } from "../eval/stats.js";
import { prepareReplayDir, writeReplays } from "../viewer/batch.js";
import { progressReporter } from "./progress.js";
import {
  parseSeed,
  rangedNumber,
  rulesFromArgs,
  withOptions,
  withRuleOptions,
  type RuleArgs,
} from "./common.js";
import { exitWithWrappers } from "../util/parent.js";

export interface AgentArgs {
  agent: string;
  heuristic?: string;
  without?: string[];
  weight?: string[];
  depth?: number;
  width?: number;
  "agent-seed"?: number;
  "agent-opt"?: string[];
  model?: string;
  sample?: boolean;
}

interface EvalArgs extends RuleArgs, AgentArgs {
  deals?: number;
  seed: string;
  "ms-from"?: number;
  "ms-to"?: number;
  workers: number;
  out?: string;
  "max-steps"?: number;
  timing: boolean;
  json: boolean;
  html?: string;
  "html-all": boolean;
}

/** The agent and its options, shared with `penguin replay`, with the range of each number. */
const AGENT_OPTIONS = {
  agent: { type: "string", default: "greedy", describe: `agent: ${agentNames().join(", ")}` },
  heuristic: {
    type: "string",
    describe: `greedy/lookahead weight preset (${HEURISTIC_NAMES.join(", ")}; default ${DEFAULT_HEURISTIC})`,
  },
  without: { type: "string", array: true, describe: "switch features off (repeat or comma list)" },
  weight: { type: "string", array: true, describe: "feature=weight (repeat or comma list)" },
  depth: rangedNumber("lookahead: moves searched ahead", { min: 1, max: 20, integer: true }),
  width: rangedNumber("lookahead: moves followed per level", { min: 1, max: 1000, integer: true }),
  "agent-seed": rangedNumber("random: mixed with each deal's seed", {
    min: -(2 ** 31),
    max: 2 ** 32 - 1,
    integer: true,
  }),
  model: { type: "string", describe: "policy: the trained model (run folder of penguin train)" },
  sample: { type: "boolean", describe: "policy: sample from the network instead of argmax" },
  "agent-opt": {
    type: "string",
    array: true,
    describe:
      "any other agent option as key=value, e.g. max-states=100000 (solver), sample=true (policy)",
  },
} as const satisfies Record<string, Options>;

/** Every other option of `penguin eval`. */
const OPTIONS = {
  deals: rangedNumber("number of seeded deals: seeds S .. S+N-1", {
    min: 1,
    max: MAX_DEALS,
    integer: true,
  }),
  seed: { type: "string", default: "1", describe: "first deal seed (integer)" },
  "ms-from": rangedNumber("first Microsoft deal number (instead of seeds)", {
    min: 1,
    max: MS_MAX,
    integer: true,
  }),
  "ms-to": rangedNumber("last Microsoft deal number (included)", {
    min: 1,
    max: MS_MAX,
    integer: true,
  }),
  workers: rangedNumber("worker threads", { min: 1, max: 256, integer: true }, { default: 1 }),
  out: {
    type: "string",
    describe: "CSV file (resumed when it exists; a symlink writes its target)",
  },
  "max-steps": rangedNumber(
    "moves before a game counts as lost (default: the game's registered move limit)",
    { min: 1, max: 1_000_000, integer: true },
  ),
  timing: {
    type: "boolean",
    default: true,
    describe: "--no-timing writes ms as 0 (byte-identical reruns)",
  },
  json: { type: "boolean", default: false, describe: "print the summary as JSON" },
  html: {
    type: "string",
    describe: "write an HTML replay of each lost deal into this folder (penguin replay's page)",
  },
  "html-all": {
    type: "boolean",
    default: false,
    describe: "with --html: a replay of every deal, won or lost",
  },
} as const satisfies Record<string, Options>;

export function withAgentOptions<T>(y: Argv<T>): Argv<T> {
  return withOptions(y, AGENT_OPTIONS).epilog(
    agentEntries()
      .map((e) => `${e.name}: ${e.describe}. Options: ${e.options}`)
      .join("\n"),
  );
}

function builder(y: Argv): Argv<EvalArgs> {
  return withOptions(withAgentOptions(withRuleOptions(y)), OPTIONS) as unknown as Argv<EvalArgs>;
}

export function agentOptionsFrom(a: AgentArgs): AgentOptions {
  const o: Record<string, string | number | boolean | undefined> = {};
  for (const item of listOption(a["agent-opt"])) {
    const m = /^([A-Za-z][\w-]*)=(.*)$/.exec(item);
    if (!m) throw new UsageError(`bad --agent-opt "${item}": expected key=value`);
    // true/false are booleans; an agent that takes a yes/no option refuses any other text.
    o[m[1]!] = optionValue(m[1]!, m[2]!);
  }
  if (a.heuristic !== undefined) o.heuristic = a.heuristic;
  if (a.without?.length) o.without = listOption(a.without).join(",");
  if (a.weight?.length) o.weight = listOption(a.weight).join(",");
  if (a.depth !== undefined) o.depth = a.depth;
  if (a.width !== undefined) o.width = a.width;
  if (a["agent-seed"] !== undefined) o["agent-seed"] = a["agent-seed"];
  if (a.model !== undefined) o.model = a.model;
  if (a.sample !== undefined) o.sample = a.sample;
  return o;
}

function dealsFrom(a: EvalArgs): DealList {
  const ms = a["ms-from"] !== undefined || a["ms-to"] !== undefined;
  if (ms) {
    if (a.deals !== undefined)
      throw new UsageError("give either --deals (seeds) or --ms-from/--ms-to, not both");
    if (a["ms-from"] === undefined || a["ms-to"] === undefined)
      throw new UsageError("give both --ms-from and --ms-to");
    return msRange(a["ms-from"], a["ms-to"]);
  }
  if (a.deals === undefined)
    throw new UsageError("give --deals N (seeds S..S+N-1) or --ms-from A --ms-to B");
  const seed = parseSeed(String(a.seed));
  if (typeof seed !== "number")
    throw new UsageError(`--seed must be an integer for a range of deals, got "${a.seed}"`);
  return seedRange(seed, a.deals);
}

export const evalCommand: CommandModule<object, EvalArgs> = {
  command: "eval",
  describe: "play many deals with an agent, write a CSV row per deal and print the win rate",
  builder,
  handler: async (a) => {
    const rules = rulesFromArgs(a);
    const deals = dealsFrom(a);
    if (a["html-all"] && a.html === undefined) throw new UsageError("--html-all needs --html DIR");
    const html = a.html;
    if (html !== undefined) prepareReplayDir(html);
    const played: { deal: string; won: boolean; agent: string }[] = [];
    // A stop by signal, or by the death of an npx/npm wrapper, says what the file holds.
    let inFile = 0;
    let total = deals.length;
    let done = 0;
    const stop = (why: string, code: number): void => {
      const where = a.out
        ? `${a.out} holds ${inFile} deals (${done} of the ${total} asked for); rerun the same command to resume`
        : "no --out file, nothing kept";
      process.stderr.write(`\npenguin eval: stopped by ${why}: ${where}\n`);
      process.exit(code);
    };
    const onSignal = (sig: NodeJS.Signals): void => stop(sig, sig === "SIGINT" ? 130 : 143);
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    const unwatch = exitWithWrappers(() => stop("the end of its npx/npm wrapper", 129));
    const progress = progressReporter();
    try {
      const res = await runEval({
        agent: a.agent,
        agentOptions: agentOptionsFrom(a),
        rules,
        deals,
        workers: a.workers,
        maxSteps: a["max-steps"],
        timing: a.timing,
        out: a.out,
        onOpen: (rows) => (inFile = rows),
        onRow: (row, n, of) => {
          inFile++;
          done = n;
          total = of;
          if (html !== undefined) played.push(row);
          progress(row.won, n, of);
        },
      });
      if (a.json)
        process.stdout.write(
          `${JSON.stringify({
            agent: res.agent,
            rules: res.rules,
            skipped: res.skipped,
            ...res.summary,
          })}\n`,
        );
      else
        process.stdout.write(
          `${res.agent} on ${res.rules}${res.skipped ? ` (${res.skipped} deals read back from ${a.out})` : ""}\n${formatSummary(res.summary)}\n`,
        );
      if (html !== undefined) {
        const n = await writeReplays(
          {
            dir: html,
            all: a["html-all"],
            rules,
            agent: a.agent,
            agentOptions: agentOptionsFrom(a),
            maxSteps: a["max-steps"],
          },
          played,
        );
        const note = res.skipped
          ? ` (not for the ${res.skipped} deals read back from ${a.out})`
          : "";
        process.stderr.write(
          `wrote ${n} replay${n === 1 ? "" : "s"} (${a["html-all"] ? "every deal" : "lost deals"}) to ${html}${note}\n`,
        );
      }
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      unwatch();
    }
  },
};
