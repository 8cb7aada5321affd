/**
 * `penguin solve`: decide a deal or a board file with the exact solver.
 *
 *   penguin solve --rules penguin --seed 7
 *   penguin solve --rules freecell --ms 11982 --cells 5 --json
 *   penguin solve --rules penguin --board my.board --max-states 500000 --timeout-ms 10000
 *
 * JSON (one line): {"result": "solved"|"unsolvable"|"unknown", "moves": [...] (play notation,
 * solved only), "states": <positions examined>, "ms": <milliseconds>}. Exit code 0 for every
 * verdict; 2 for bad input.
 */
import type { CommandModule } from "yargs";
import { readBoardFile } from "../engine/board.js";
import { UsageError } from "../errors.js";
import { KiB, readTextFile } from "../util/read.js";
import { flag } from "../options/registry.js";
import { heartbeat } from "./progress.js";

/** A board is under 1 KiB of text; 64 KiB leaves room for comments and still refuses junk at once. */
const MAX_BOARD_BYTES = 64 * KiB;
const MAX_STATES_RANGE = { min: 1, max: MAX_STATES_LIMIT, integer: true } as const;
const TIMEOUT_RANGE = { min: 1, max: 86_400_000 } as const;
import type { State } from "../engine/state.js";
import { DEFAULT_MAX_STATES, lineText, MAX_STATES_LIMIT, solve } from "../solver/search.js";
import {
  checkRange,
  dealFromArgs,
  rulesFromArgs,
  withDealOptions,
  withRuleOptions,
  type DealArgs,
  type RuleArgs,
} from "./common.js";

interface Args extends RuleArgs, DealArgs {
  board?: string;
  json?: boolean;
  "max-states"?: number;
  "timeout-ms"?: number;
}

/** The JSON the command prints, exactly as the issue fixes it. */
export interface SolveJson {
  result: "solved" | "unsolvable" | "unknown";
  moves?: string[];
  states: number;
  ms: number;
}

function readBoard(path: string, a: Args): State {
  if (a.seed !== undefined || a.ms !== undefined)
    throw new UsageError("give one of --seed, --ms or --board, not several");
  return readBoardFile(
    readTextFile(path, { maxBytes: MAX_BOARD_BYTES, what: "board file" }),
    rulesFromArgs(a),
  );
}

export const solveCommand: CommandModule<object, Args> = {
  command: "solve",
  describe:
    "decide a deal (--seed S, --ms N or --board FILE): a winning line, a proof of none, or unknown",
  builder: (y) =>
    withDealOptions(withRuleOptions(y))
      .option(
        "board",
        flag("board", { detail: "the position to solve (Freecell Solver's format is read too)" }),
      )
      .option("json", flag("json", { default: false, detail: '{"result","moves","states","ms"}' }))
      .option("max-states", flag("max-states", { default: DEFAULT_MAX_STATES }))
      .option("timeout-ms", flag("timeout-ms", { detail: "default: none" })) as never,
  handler: (a) => {
    const maxStates = checkRange(
      "max-states",
      a["max-states"] ?? DEFAULT_MAX_STATES,
      MAX_STATES_RANGE,
    );
    const timeoutMs =
      a["timeout-ms"] === undefined
        ? undefined
        : checkRange("timeout-ms", a["timeout-ms"], TIMEOUT_RANGE);
    const rules = rulesFromArgs(a);
    const start = a.board !== undefined ? readBoard(a.board, a) : dealFromArgs(rules, a)!;
    // A search can take minutes: a line on stderr every 10 s meanwhile.
    const quiet = heartbeat("penguin solve");
    let r: ReturnType<typeof solve>;
    try {
      r = solve(start, { maxStates, timeoutMs });
    } finally {
      quiet();
    }
    const moves = r.result === "solved" ? lineText(start, r.moves) : undefined;
    if (a.json) {
      const out: SolveJson = moves
        ? { result: r.result, moves, states: r.states, ms: r.ms }
        : { result: r.result, states: r.states, ms: r.ms };
      process.stdout.write(`${JSON.stringify(out)}\n`);
      return;
    }
    const why =
      r.result === "unknown"
        ? ` (${r.reason === "timeout" ? "timed out" : "state budget spent"})`
        : "";
    const len = moves ? `, ${moves.length} moves` : "";
    process.stdout.write(`${r.result}${why}${len}; ${r.states} positions examined in ${r.ms} ms\n`);
    if (moves) process.stdout.write(`${moves.join(" ")}\n`);
  },
};
