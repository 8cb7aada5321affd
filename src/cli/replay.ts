/**
 * `penguin replay`: one game as a self-contained HTML page (no server, no network): the layout
 * drawn as cards, a step slider, play/pause, arrow keys, the move list, and the first move after
 * which the exact solver can no longer win the deal.
 *
 *   penguin replay --seed 17 --agent greedy --out game.html
 *   penguin replay --ms 5 --rules freecell --solver --out solver.html
 *   penguin replay --from results.csv --row 12 --out row12.html
 */
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../errors.js";
import { dealLabel, parseDealLabel, type DealRef } from "../eval/deals.js";
import { replayHtml } from "../viewer/html.js";
import { parseAgentLabel, parseRulesLabel } from "../viewer/labels.js";
import { checkOutputFile, readCsvRow, writeOutput } from "../viewer/output.js";
import {
  buildReplay,
  DEFAULT_REPLAY_STATES,
  replaySummary,
  type ReplaySpec,
} from "../viewer/record.js";
import { MAX_STATES_LIMIT } from "../solver/search.js";
import { heartbeat } from "./progress.js";
import { flag } from "../options/registry.js";
import {
  dealFromArgs,
  parseSeed,
  rulesFromArgs,
  withDealOptions,
  withRuleOptions,
  type DealArgs,
  type RuleArgs,
} from "./common.js";
import { agentOptionsFrom, withAgentOptions, type AgentArgs } from "./eval.js";

interface ReplayArgs extends RuleArgs, DealArgs, Omit<AgentArgs, "agent"> {
  agent?: string;
  solver: boolean;
  from?: string;
  row?: number;
  out: string;
  "max-steps"?: number;
  "max-states": number;
  marker: boolean;
}

function dealRefFrom(a: DealArgs): DealRef {
  if (a.seed !== undefined && a.ms !== undefined)
    throw new UsageError("give either --seed or --ms, not both");
  if (a.ms !== undefined) return parseDealLabel(`ms:${a.ms}`);
  if (a.seed === undefined)
    throw new UsageError(
      "name a deal with --seed S or --ms N (or replay a results row with --from FILE --row K)",
    );
  const seed = parseSeed(String(a.seed));
  if (typeof seed !== "number")
    throw new UsageError(`--seed must be an integer here, got "${a.seed}"`);
  return { kind: "seed", seed };
}

/** Options given on the command line that --from would silently override. */
const CLASHING = [
  "agent",
  "seed",
  "ms",
  "heuristic",
  "without",
  "weight",
  "depth",
  "width",
  "agent-seed",
  "model",
  "sample",
  "agent-opt",
  "cells",
  "empty",
  "group-move",
  "build",
  "base",
  "deal",
] as const;

function specFrom(a: ReplayArgs): ReplaySpec {
  const budget = a["max-states"];
  if (!Number.isInteger(budget) || budget < 1 || budget > MAX_STATES_LIMIT)
    throw new UsageError(
      `--max-states must be an integer from 1 to ${MAX_STATES_LIMIT}, got ${budget}`,
    );
  const steps = a["max-steps"];
  if (steps !== undefined && (!Number.isInteger(steps) || steps < 1))
    throw new UsageError(`--max-steps must be a positive integer, got ${a["max-steps"]}`);
  if (a.from !== undefined) {
    if (a.row === undefined)
      throw new UsageError("--from needs --row K (1 = the first row after the header)");
    const given: string[] = CLASHING.filter(
      (k) => (a as unknown as Record<string, unknown>)[k] !== undefined,
    );
    if (a.rules !== "penguin") given.push("rules");
    if (given.length)
      throw new UsageError(
        `--from takes the deal, rules and player from the row; drop --${given.join(", --")}`,
      );
    const row = readCsvRow(a.from, a.row);
    const agent = parseAgentLabel(row.agent!);
    const deal = parseDealLabel(row.deal!);
    if (dealLabel(deal) !== row.deal)
      throw new UsageError(`row ${a.row} of ${a.from}: bad deal "${row.deal}"`);
    return {
      rules: parseRulesLabel(row.rules!),
      deal,
      agent: agent.agent,
      agentOptions: agent.options,
      maxSteps: agent.maxSteps,
      solverLine: a.solver,
      maxStates: a.marker || a.solver ? budget : 0,
    };
  }
  if (a.row !== undefined) throw new UsageError("--row needs --from FILE");
  const rules = rulesFromArgs(a);
  const deal = dealRefFrom(a);
  dealFromArgs(rules, a); // checks the MS number's range with the engine's own message
  return {
    rules,
    deal,
    agent: a.agent ?? "greedy",
    agentOptions: agentOptionsFrom(a),
    maxSteps: a["max-steps"],
    solverLine: a.solver,
    maxStates: a.marker || a.solver ? budget : 0,
  };
}

export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: "replay",
  describe:
    "write one game as a self-contained HTML replay (--seed S | --ms N | --from CSV --row K) --out game.html",
  builder: (y: Argv) =>
    withAgentOptions(withDealOptions(withRuleOptions(y)))
      .option("solver", {
        type: "boolean",
        default: false,
        describe: "replay the exact solver's winning line instead of the agent's game",
      })
      .option("from", {
        type: "string",
        describe:
          "a results CSV of penguin eval: replay one of its rows (its deal, rules and player)",
      })
      .option("row", {
        type: "number",
        describe: "with --from: the row, 1 = the first after the header",
      })
      .option("out", { ...flag("out", { detail: "the HTML file to write" }), demandOption: true })
      .option(
        "max-steps",
        flag("max-steps", { detail: "default: the game's registered move limit" }),
      )
      .option(
        "max-states",
        flag("max-states", {
          default: DEFAULT_REPLAY_STATES,
          detail: "per position, for the 'no longer winnable' marker",
        }),
      )
      .option("marker", {
        type: "boolean",
        default: true,
        describe:
          "mark the move after which the deal could no longer be won (--no-marker: no solver search; not with --solver)",
      }) as never,
  handler: async (a) => {
    checkOutputFile(a.out);
    const spec = specFrom(a);
    // The marker's and the solver line's searches can take minutes: a line every 10 s meanwhile.
    const quiet = heartbeat("penguin replay");
    try {
      const data = await buildReplay(spec);
      writeOutput(a.out, await replayHtml(data));
      process.stdout.write(`${replaySummary(data)}\nwrote ${a.out}\n`);
    } finally {
      quiet();
    }
  },
};
