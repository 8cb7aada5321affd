/**
 * Replays Freecell Solver's solutions through this package's engine, to check that a setting's
 * lines keep to the rules (in kings-only games some meta-moves are suspected of filling an empty
 * column with another card). The solution comes from `fc-solve -m -sn` (standard notation:
 * columns 1–10, cells a–g and k for an eighth (h stands for the foundation), a run's length
 * implied by the position).
 *
 * Moves are matched by place, not by card, so relabelled boards (Penguin) replay as they are.
 * Freecell Solver's cells keep their slots, while the engine always fills the lowest free
 * flipper, so each slot is followed by the card it holds. A whole column moved into an empty
 * column (which the engine leaves out, as it changes nothing but the column's number) renames
 * the two columns instead of being played.
 */
import { spawnSync } from "node:child_process";
import { NO_CARD, rankOf } from "../../src/engine/card.js";
import {
  applyMove,
  CELL0,
  FOUNDATION,
  groupCap,
  legalMoves,
  moveFrom,
  moveTo,
  runLength,
  type Move,
} from "../../src/engine/moves.js";
import type { State } from "../../src/engine/state.js";

export type ReplayVerdict = "won" | "illegal" | "not-won" | "no-solution";

interface Place {
  kind: "column" | "cell" | "home";
  index: number;
}

const CELL_LETTERS = "abcdefgk";

function place(text: string): Place {
  if (text === "h") return { kind: "home", index: 0 };
  if (CELL_LETTERS.includes(text)) return { kind: "cell", index: CELL_LETTERS.indexOf(text) };
  return { kind: "column", index: Number(text) - 1 };
}

/** "110" is column 1 to column 10, "108" column 10 to column 8: there are at most 10 columns. */
function split(token: string): [Place, Place] {
  const from = token.startsWith("10") && token.length > 2 ? "10" : token[0]!;
  return [place(from), place(token.slice(from.length))];
}

/** The moves of `fc-solve … -m -sn BOARD`, or null when it found none. */
export function fcsSolution(fcsArgs: string[], boardFile: string): string[] | null {
  const p = spawnSync("fc-solve", [...fcsArgs, "-m", "-sn", boardFile], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (p.error || !/This game is solveable/.test(p.stdout)) return null;
  const body = p.stdout.slice(
    p.stdout.indexOf("-=-=-"),
    p.stdout.indexOf("This game is solveable"),
  );
  return body.split(/\s+/).filter((t) => /^(10|[1-9a-hk])(10|[1-9a-hk])$/.test(t));
}

/**
 * Whether column `src` may move as a whole into the empty column `dst` under the rules: one run,
 * headed by a card that may start an empty column, no longer than the group-move cap.
 */
function wholeColumnMoves(s: State, src: number, dst: number): boolean {
  const n = s.len[src]!;
  if (n === 0 || runLength(s, src) !== n) return false;
  const head = s.column(src)[0]!;
  const rule = s.rules.emptyColumn;
  const headOk = rule === "any" || (rule === "below-base" && rankOf(head) === (s.base + 12) % 13);
  return headOk && n <= groupCap(s, dst);
}

/** Plays `tokens` from `start`; "won" only if every move was legal here and all cards end home. */
export function replayFcs(
  start: State,
  tokens: readonly string[],
): { verdict: ReplayVerdict; at?: number; token?: string } {
  const s = start.clone();
  const slot: number[] = Array.from(s.cells.subarray(0, s.nCells)); // Freecell Solver's cells, by slot
  const col = Array.from({ length: s.nColumns }, (_, i) => i); // its column i is the engine's col[i]
  for (let k = 0; k < tokens.length; k++) {
    const [from, to] = split(tokens[k]!);
    const bad = { verdict: "illegal" as const, at: k, token: tokens[k] };
    let src: number;
    if (from.kind === "column") src = col[from.index]!;
    else if (from.kind === "cell") {
      const card = slot[from.index];
      const i =
        card === undefined || card === NO_CARD
          ? -1
          : Array.from(s.cells.subarray(0, s.nCells)).indexOf(card);
      if (i < 0) return bad;
      src = CELL0 + i;
    } else return bad;
    if (
      to.kind === "column" &&
      from.kind === "column" &&
      s.len[col[to.index]!] === 0 &&
      wholeColumnMoves(s, src, col[to.index]!)
    ) {
      [col[from.index], col[to.index]] = [col[to.index]!, col[from.index]!];
      continue;
    }
    const dst = to.kind === "home" ? FOUNDATION : to.kind === "column" ? col[to.index]! : -1;
    const card = src >= CELL0 ? s.cells[src - CELL0]! : s.top(src);
    const choices = legalMoves(s).filter(
      (m: Move) =>
        moveFrom(m) === src &&
        (dst === -1 ? moveTo(m) >= CELL0 && moveTo(m) < FOUNDATION : moveTo(m) === dst),
    );
    if (choices.length !== 1) return bad;
    applyMove(s, choices[0]!);
    if (from.kind === "cell") slot[from.index] = NO_CARD;
    if (to.kind === "cell") slot[to.index] = card;
  }
  return s.isWon() ? { verdict: "won" } : { verdict: "not-won", at: tokens.length };
}
