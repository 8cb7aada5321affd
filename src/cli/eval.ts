/**
 * `penguin eval`: plays N deals with an agent in worker threads and writes one CSV row per deal
 * (resumable), then prints games, wins, win rate with its 95% Wilson interval, mean cards home and
 * deals per second. Everything but the flags lives in src/eval (runEval).
 */
import type { Argv, CommandModule, Options } from "yargs";
import { UsageError } from "../errors.js";
import { optionValue } from "../agents/agent.js";
import { agentEntries } from "../agents/registry.js";
import { DEFAULT_HEURISTIC, listOption } from "../agents/heuristic.js";
import type { AgentOptions } from "../agents/agent.js";
import { flag } from "../options/registry.js";
import { DEFAULT_MAX_STATES } from "../solver/search.js";
import { msRange, seedRange, type DealList } from "../eval/deals.js";
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
  "max-states"?: number;
  workers: number;
  out?: string;
  "max-steps"?: number;
  timing: boolean;
  json: boolean;
  html?: string;
  "html-all": boolean;
}

/** The agent and its options, shared with `penguin replay`. */
const AGENT_OPTIONS = {
  heuristic: flag("heuristic", { detail: `default ${DEFAULT_HEURISTIC}` }),
  without: flag("without"),
  weight: flag("weight"),
  depth: flag("depth"),
  width: flag("width"),
  "agent-seed": flag("agent-seed"),
  model: flag("model", { detail: "policy, scorer, safety and guided read it" }),
  sample: flag("sample"),
  "agent-opt": flag("agent-opt"),
} as const satisfies Record<string, Options>;

/** Every other option of `penguin eval`. */
const OPTIONS = {
  deals: flag("deals", { detail: "seeds S … S+N−1 from --seed" }),
  seed: flag("seed", { default: "1" }),
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
  "max-states": flag("max-states", {
    detail: `the solver agent's budget per deal (default ${DEFAULT_MAX_STATES.toLocaleString("en")})`,
  }),
  workers: flag("workers", { default: 1 }),
  out: flag("out", { detail: "a CSV file, resumed when it exists (a symlink writes its target)" }),
  "max-steps": flag("max-steps", { detail: "default: the game's registered move limit" }),
  timing: {
    type: "boolean",
    default: true,
    describe: "--no-timing writes ms as 0 (byte-identical reruns)",
  },
  json: flag("json", { default: false }),
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

/** `agentDefault`: the agent played when --agent is not given (replay leaves it unset: --from names it). */
export function withAgentOptions<T>(y: Argv<T>, agentDefault?: string): Argv<T> {
  const agent =
    agentDefault === undefined
      ? flag("agent", { detail: "default greedy" })
      : flag("agent", { default: agentDefault });
  return withOptions(y, { ...AGENT_OPTIONS, agent }).epilog(
    agentEntries()
      .map((e) => `${e.name}: ${e.describe}. Options: ${e.options}`)
      .join("\n"),
  );
}

function builder(y: Argv): Argv<EvalArgs> {
  return withOptions(
    withAgentOptions(withRuleOptions(y), "greedy"),
    OPTIONS,
  ) as unknown as Argv<EvalArgs>;
}

export function agentOptionsFrom(a: Omit<AgentArgs, "agent">): AgentOptions {
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
    const agentOptions: AgentOptions = {
      ...agentOptionsFrom(a),
      ...(a["max-states"] !== undefined ? { "max-states": a["max-states"] } : {}),
    };
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
    const progress = progressReporter({ label: "penguin eval" });
    try {
      const res = await runEval({
        agent: a.agent,
        agentOptions,
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
            agentOptions,
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
      progress.stop();
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      unwatch();
    }
  },
};
