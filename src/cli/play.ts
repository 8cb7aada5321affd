/**
 * `penguin play`: play a deal in the terminal.
 *
 *   penguin play --rules penguin --ms 1
 *   printf '4a\n?\nu\nq\n' | penguin play --seed 7 --no-color
 *
 * Moves use the play notation (src/engine/notation.ts): `3a` column 3 to a flipper, `3h` to the
 * foundation, `a4` flipper a to column 4, `34` column 3 onto column 4, `36/2` two cards into an
 * empty column. Several moves may share a line. `u` undoes, `?` lists the legal moves, `help`
 * explains, `q` quits. At a terminal, illegal input is answered with the reason (on stderr) and
 * the session goes on. With piped stdin (no prompt then) the session stops at the first illegal
 * input, names it and what was not played on stderr, and exits 2: a script's later moves were
 * meant for a position that never came.
 */
import { createInterface } from "node:readline";
import type { CommandModule } from "yargs";
import { applyMove, legalMoves, undoMove, type Move } from "../engine/moves.js";
import { moveToString, parseMove } from "../engine/notation.js";
import { IllegalMoveError } from "../errors.js";
import { renderBoard, useColor } from "../engine/render.js";
import { cellWord, rulesLabel, type Rules } from "../engine/rules.js";
import type { State } from "../engine/state.js";
import { flag } from "../options/registry.js";
import {
  dealFromArgs,
  rulesFromArgs,
  withDealOptions,
  withRuleOptions,
  type DealArgs,
  type RuleArgs,
} from "./common.js";
import { boundedLines } from "../util/read.js";

/** The help text, in the rule set's words (flippers in Penguin, free cells elsewhere). */
export function playHelp(rules: Rules): string {
  const one = cellWord(rules, 1);
  return [
    `moves: <from><to>, from a column (1-9, 0 = 10) or ${one} (a-h), to a column, h (foundation) or any ${one} letter (the card goes to the first empty one)`,
    "  e.g. 3a  3h  a4  34  36/2 (two cards into empty column 6); several moves may share a line",
    "u: undo (names the move as played)   ?: list legal moves   help: this text   q: quit",
  ].join("\n");
}

/** How a session ended; `error` is the refused input when the session stops at the first error. */
export type PlayOutcome =
  | { readonly end: "quit" | "won" | "eof" }
  | { readonly end: "error"; readonly error: string };

export interface SessionOptions {
  /** Where refusals go (default: `out`). */
  readonly err?: (text: string) => void;
  /** Stop at the first refused input (piped input: later moves were meant for another position). */
  readonly stopOnError?: boolean;
}

/** One play session over any line source; returns when the input ends, on `q`, when won, or at an error with stopOnError. */
export async function playSession(
  s: State,
  lines: AsyncIterable<string>,
  out: (text: string) => void,
  color: boolean,
  prompt?: () => void,
  o: SessionOptions = {},
): Promise<PlayOutcome> {
  const err = o.err ?? out;
  // Each move as the engine writes it in its position (`6c` is played, and undone, as `6a` when a is
  // the first free flipper), so the history and `u` name what happened.
  const history: { move: Move; text: string }[] = [];
  const show = (): void => out(`${renderBoard(s, { color })}\nmoves played: ${history.length}`);
  out(`${rulesLabel(s.rules)}: type a move, ? for the legal moves, help, u to undo, q to quit`);
  show();
  prompt?.();
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    let changed = false;
    const tokens = line
      .trim()
      .split(/[\s,;]+/)
      .filter(Boolean);
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!.toLowerCase();
      try {
        if (t === "q" || t === "quit" || t === "exit") {
          out("bye");
          return { end: "quit" };
        } else if (t === "u" || t === "undo") {
          const h = history.pop();
          if (h === undefined) out("nothing to undo");
          else {
            undoMove(s, h.move);
            out(`undid ${h.text}`);
            changed = true;
          }
        } else if (t === "?") {
          const ms = legalMoves(s);
          out(
            ms.length
              ? `legal moves: ${ms.map((m) => moveToString(m, s)).join(" ")}`
              : "no legal moves: the game is lost (u to undo, q to quit)",
          );
        } else if (t === "help") {
          out(playHelp(s.rules));
        } else {
          const m = parseMove(t, s);
          const text = moveToString(m, s);
          applyMove(s, m);
          history.push({ move: m, text });
          changed = true;
          if (s.isWon()) {
            show();
            out(`won in ${history.length} moves`);
            return { end: "won" };
          }
        }
      } catch (e) {
        const why = e instanceof IllegalMoveError ? e.message : `error: ${(e as Error).message}`;
        const rest = tokens.slice(i + 1);
        if (o.stopOnError) {
          if (changed) show();
          const skipped = rest.length
            ? `; not played: ${rest.join(" ")} and any later input`
            : "; later input was not read";
          err(`${why} (line ${lineNo}); stopped after ${history.length} moves${skipped}`);
          return { end: "error", error: why };
        }
        // Answered, never fatal; the rest of the line was typed for the position before the error.
        err(rest.length ? `${why} (not played: ${rest.join(" ")})` : why);
        break;
      }
    }
    if (changed) show();
    prompt?.();
  }
  return { end: "eof" };
}

/** Longest input line read: a line of moves is a few hundred characters at most. */
const MAX_LINE = 10_000;

interface Args extends RuleArgs, DealArgs {
  color?: boolean;
}

export const playCommand: CommandModule<object, Args> = {
  command: "play",
  describe: "play a deal in the terminal (--seed S or --ms N); u undo, ? moves, q quit",
  builder: (y) => withDealOptions(withRuleOptions(y)).option("color", flag("color")) as never,
  handler: async (a) => {
    const rules = rulesFromArgs(a);
    const s = dealFromArgs(rules, a)!;
    const tty = process.stdin.isTTY === true;
    // Piped input is read with a bound on each line's length (a terminal's lines are typed).
    const rl = tty ? createInterface({ input: process.stdin, terminal: true }) : undefined;
    const lines = rl ?? boundedLines(process.stdin, { maxChars: MAX_LINE, what: "input" });
    const color = useColor(a.color);
    // Ctrl-C at the prompt ends the session like Ctrl-D (but exits 130, as an interrupted command
    // does); either way the shell prompt starts on a new line.
    let interrupted = false;
    rl?.on("SIGINT", () => {
      interrupted = true;
      rl.close();
    });
    let outcome: PlayOutcome;
    try {
      outcome = await playSession(
        s,
        lines,
        (text) => process.stdout.write(`${text}\n`),
        color,
        tty ? () => process.stdout.write("> ") : undefined,
        {
          err: (text) => process.stderr.write(`${text}\n`),
          stopOnError: !tty,
        },
      );
    } finally {
      rl?.close();
    }
    if (tty && outcome.end === "eof") process.stdout.write("\n");
    if (outcome.end === "error") process.exitCode = 2;
    else if (interrupted) process.exitCode = 130;
  },
};
