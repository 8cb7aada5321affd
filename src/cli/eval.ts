/**
 * `penguin eval`: plays N deals with an agent in worker threads and writes one CSV row per deal
 * (resumable), then prints games, wins, win rate with its 95% Wilson interval, mean cards home and
 * deals per second. Everything but the flags lives in src/eval (runEval).
 */
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../engine/rules.js";
import { agentEntries, agentNames } from "../agents/registry.js";
import { DEFAULT_HEURISTIC, HEURISTIC_NAMES, listOption } from "../agents/heuristic.js";
import type { AgentOptions } from "../agents/agent.js";
import { msRange, seedRange, type DealRef } from "../eval/deals.js";
import { DEFAULT_MAX_STEPS } from "../eval/play.js";
import { runEval } from "../eval/run.js";
import { formatSummary } from "../eval/stats.js";
import { prepareReplayDir, writeReplays } from "../viewer/batch.js";
import { progressReporter } from "./progress.js";
import { parseSeed, rulesFromArgs, withRuleOptions, type RuleArgs } from "./common.js";

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
  "max-steps": number;
  timing: boolean;
  json: boolean;
  html?: string;
  "html-all": boolean;
}

/** The agent and its options, shared with `penguin replay`. */
export function withAgentOptions<T>(y: Argv<T>): Argv<T> {
  return y
    .option("agent", { type: "string", default: "greedy", describe: `agent: ${agentNames().join(", ")}` })
    .option("heuristic", { type: "string", describe: `greedy/lookahead weight preset (${HEURISTIC_NAMES.join(", ")}; default ${DEFAULT_HEURISTIC})` })
    .option("without", { type: "string", array: true, describe: "switch features off (repeat or comma list)" })
    .option("weight", { type: "string", array: true, describe: "feature=weight (repeat or comma list)" })
    .option("depth", { type: "number", describe: "lookahead: moves searched ahead" })
    .option("width", { type: "number", describe: "lookahead: moves followed per level" })
    .option("agent-seed", { type: "number", describe: "random: mixed with each deal's seed" })
    .option("model", { type: "string", describe: "policy: the trained model (run folder of penguin train)" })
    .option("sample", { type: "boolean", describe: "policy: sample from the network instead of argmax" })
    .option("agent-opt", { type: "string", array: true, describe: "any other agent option as key=value, e.g. max-states=100000 (solver), sample=true (policy)" })
    .epilog(agentEntries().map((e) => `${e.name}: ${e.describe}. Options: ${e.options}`).join("\n")) as unknown as Argv<T>;
}

function builder(y: Argv): Argv<EvalArgs> {
  return withAgentOptions(withRuleOptions(y))
    .option("deals", { type: "number", describe: "number of seeded deals: seeds S .. S+N-1" })
    .option("seed", { type: "string", default: "1", describe: "first deal seed (integer)" })
    .option("ms-from", { type: "number", describe: "first Microsoft deal number (instead of seeds)" })
    .option("ms-to", { type: "number", describe: "last Microsoft deal number (included)" })
    .option("workers", { type: "number", default: 1, describe: "worker threads" })
    .option("out", { type: "string", describe: "CSV file (resumed when it exists)" })
    .option("max-steps", { type: "number", default: DEFAULT_MAX_STEPS, describe: "moves before a game counts as lost" })
    .option("timing", { type: "boolean", default: true, describe: "--no-timing writes ms as 0 (byte-identical reruns)" })
    .option("json", { type: "boolean", default: false, describe: "print the summary as JSON" })
    .option("html", { type: "string", describe: "write an HTML replay of each lost deal into this folder (penguin replay's page)" })
    .option("html-all", { type: "boolean", default: false, describe: "with --html: a replay of every deal, won or lost" }) as unknown as Argv<EvalArgs>;
}

export function agentOptionsFrom(a: AgentArgs): AgentOptions {
  const o: Record<string, string | number | boolean | undefined> = {};
  for (const item of listOption(a["agent-opt"])) {
    const m = /^([A-Za-z][\w-]*)=(.*)$/.exec(item);
    if (!m) throw new UsageError(`bad --agent-opt "${item}": expected key=value`);
    o[m[1]!] = m[2]!;
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

function dealsFrom(a: EvalArgs): DealRef[] {
  const ms = a["ms-from"] !== undefined || a["ms-to"] !== undefined;
  if (ms) {
    if (a.deals !== undefined) throw new UsageError("give either --deals (seeds) or --ms-from/--ms-to, not both");
    if (a["ms-from"] === undefined || a["ms-to"] === undefined) throw new UsageError("give both --ms-from and --ms-to");
    return msRange(a["ms-from"], a["ms-to"]);
  }
  if (a.deals === undefined) throw new UsageError("give --deals N (seeds S..S+N-1) or --ms-from A --ms-to B");
  const seed = parseSeed(String(a.seed));
  if (typeof seed !== "number") throw new UsageError(`--seed must be an integer for a range of deals, got "${a.seed}"`);
  return seedRange(seed, a.deals);
}

export const evalCommand: CommandModule<object, EvalArgs> = {
  command: "eval",
  describe: "play many deals with an agent, write a CSV row per deal and print the win rate",
  builder,
  handler: async (a) => {
    const rules = rulesFromArgs(a);
    const deals = dealsFrom(a);
    if (!Number.isInteger(a.workers) || a.workers < 1 || a.workers > 256) throw new UsageError(`--workers must be an integer from 1 to 256, got ${a.workers}`);
    if (!Number.isInteger(a["max-steps"]) || a["max-steps"] < 1) throw new UsageError(`--max-steps must be a positive integer, got ${a["max-steps"]}`);
    if (a.out !== undefined && a.out.trim() === "") throw new UsageError("--out needs a file name");
    if (a["html-all"] && a.html === undefined) throw new UsageError("--html-all needs --html DIR");
    const html = a.html;
    if (html !== undefined) prepareReplayDir(html);
    const played: { deal: string; won: boolean; agent: string }[] = [];
    const progress = progressReporter();
    const res = await runEval({
      agent: a.agent,
      agentOptions: agentOptionsFrom(a),
      rules,
      deals,
      workers: a.workers,
      maxSteps: a["max-steps"],
      timing: a.timing,
      out: a.out,
      onRow: (row, done, total) => {
        if (html !== undefined) played.push(row);
        progress(row.won, done, total);
      },
    });
    if (a.json) process.stdout.write(JSON.stringify({ agent: res.agent, rules: res.rules, skipped: res.skipped, ...res.summary }) + "\n");
    else process.stdout.write(`${res.agent} on ${res.rules}${res.skipped ? ` (${res.skipped} deals read back from ${a.out})` : ""}\n${formatSummary(res.summary)}\n`);
    if (html !== undefined) {
      const n = await writeReplays({ dir: html, all: a["html-all"], rules, agent: a.agent, agentOptions: agentOptionsFrom(a), maxSteps: a["max-steps"] }, played);
      const note = res.skipped ? ` (not for the ${res.skipped} deals read back from ${a.out})` : "";
      process.stderr.write(`wrote ${n} replay${n === 1 ? "" : "s"} (${a["html-all"] ? "every deal" : "lost deals"}) to ${html}${note}\n`);
    }
  },
};
