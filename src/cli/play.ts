/**
 * `penguin play`: play a deal in the terminal.
 *
 *   penguin play --rules penguin --ms 1
 *   printf '4a\n?\nu\nq\n' | penguin play --seed 7 --no-color
 *
 * Moves use the play notation (src/engine/notation.ts): `3a` column 3 to a flipper, `3h` to the
 * foundation, `a4` flipper a to column 4, `34` column 3 onto column 4, `36/2` two cards into an
 * empty column. Several moves may share a line. `u` undoes, `?` lists the legal moves, `help`
 * explains, `q` quits. Illegal input is answered with the reason; nothing crashes the session.
 * Works with piped stdin (no prompt then), so sessions can be scripted and tested.
 */
import { createInterface } from "node:readline";
import type { CommandModule } from "yargs";
import { applyMove, legalMoves, undoMove, type Move } from "../engine/moves.js";
import { moveToString, parseMove } from "../engine/notation.js";
import { IllegalMoveError } from "../errors.js";
import { renderBoard, useColor } from "../engine/render.js";
import { rulesLabel } from "../engine/rules.js";
import type { State } from "../engine/state.js";
import { dealFromArgs, rulesFromArgs, withDealOptions, withRuleOptions, type DealArgs, type RuleArgs } from "./common.js";

const HELP = [
  "moves: <from><to>, from a column (1-9, 0 = 10) or flipper (a-h), to a column, h (foundation) or a (a free flipper)",
  "  e.g. 3a  3h  a4  34  36/2 (two cards into empty column 6); several moves may share a line",
  "u: undo   ?: list legal moves   help: this text   q: quit",
].join("\n");

/** One play session over any line source; returns when the input ends, on `q`, or when won. */
export async function playSession(s: State, lines: AsyncIterable<string>, out: (text: string) => void, color: boolean, prompt?: () => void): Promise<void> {
  const history: Move[] = [];
  const show = (): void => out(renderBoard(s, { color }) + `\nmoves played: ${history.length}`);
  out(`${rulesLabel(s.rules)}: type a move, ? for the legal moves, help, u to undo, q to quit`);
  show();
  prompt?.();
  for await (const line of lines) {
    let changed = false;
    for (const token of line.trim().split(/[\s,;]+/).filter(Boolean)) {
      const t = token.toLowerCase();
      try {
        if (t === "q" || t === "quit" || t === "exit") {
          out("bye");
          return;
        } else if (t === "u" || t === "undo") {
          const m = history.pop();
          if (m === undefined) out("nothing to undo");
          else {
            undoMove(s, m);
            out(`undid ${moveToString(m)}`);
            changed = true;
          }
        } else if (t === "?") {
          const ms = legalMoves(s);
          out(ms.length ? `legal moves: ${ms.map((m) => moveToString(m, s)).join(" ")}` : "no legal moves: the game is lost (u to undo, q to quit)");
        } else if (t === "help") {
          out(HELP);
        } else {
          const m = parseMove(t, s);
          applyMove(s, m);
          history.push(m);
          changed = true;
          if (s.isWon()) {
            show();
            out(`won in ${history.length} moves`);
            return;
          }
        }
      } catch (e) {
        // Illegal or unreadable input is answered, never fatal; the rest of the line is dropped.
        out(e instanceof IllegalMoveError ? e.message : `error: ${(e as Error).message}`);
        break;
      }
    }
    if (changed) show();
    prompt?.();
  }
}

interface Args extends RuleArgs, DealArgs {
  color?: boolean;
}

export const playCommand: CommandModule<object, Args> = {
  command: "play",
  describe: "play a deal in the terminal (--seed S or --ms N); u undo, ? moves, q quit",
  builder: (y) =>
    withDealOptions(withRuleOptions(y)).option("color", { type: "boolean", describe: "ANSI colours: default on a terminal unless NO_COLOR is set; --no-color turns them off" }) as never,
  handler: async (a) => {
    const rules = rulesFromArgs(a);
    const s = dealFromArgs(rules, a)!;
    const tty = process.stdin.isTTY === true;
    const rl = createInterface({ input: process.stdin, terminal: tty });
    const color = useColor(a.color);
    try {
      await playSession(s, rl, (text) => process.stdout.write(text + "\n"), color, tty ? () => process.stdout.write("> ") : undefined);
    } finally {
      rl.close();
    }
  },
};
