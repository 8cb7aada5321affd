/**
 * Terminal rendering: suit symbols, ANSI colours (red for hearts and diamonds, and the
 * base rank shown bold), or plain text with `color: false` (for pipes, logs and `--no-color`).
 *
 *   Foundations  ♣J  ♦-  ♥J  ♠J     base J
 *   Flippers     a:--  b:--  …
 *
 *     1    2    3 …
 *    J♦   2♦   9♥
 *    K♦   K♣   9♠
 */
import { cardToString, NO_CARD, rankOf, RANKS, suitOf, type Card } from "./card.js";
import { COLUMN_CAP, type State } from "./state.js";
import { columnChar } from "./notation.js";

export interface RenderOptions {
  /** ANSI colours (default true). */
  color?: boolean;
  /** Suit symbols ♣♦♥♠ instead of the letters CDHS (default true). */
  symbols?: boolean;
}

const SYMBOLS = "♣♦♥♠";
const RED = "\x1b[31m";
const BOLD = "\x1b[1m";
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";

/** One card in two visible characters (`J♦`; ten is `T`, so columns line up). */
export function renderCard(c: Card, base: number, o: RenderOptions = {}): string {
  const text = o.symbols === false ? cardToString(c) : RANKS[rankOf(c)]! + SYMBOLS[suitOf(c)]!;
  if (o.color === false) return text;
  const style = (suitOf(c) === 1 || suitOf(c) === 2 ? RED : "") + (rankOf(c) === base ? BOLD : "");
  return style ? style + text + RESET : text;
}

function empty(o: RenderOptions): string {
  return o.color === false ? "--" : `${DIM}--${RESET}`;
}

/** The whole position as lines of text (no trailing newline). */
export function renderBoard(s: State, o: RenderOptions = {}): string {
  const out: string[] = [];
  const found = [0, 1, 2, 3].map((f) =>
    s.found[f] ? renderCard(s.foundationTop(f), s.base, o) : empty(o),
  );
  const base = s.tables.rankHome ? "by rank" : `base ${RANKS[s.base]}`;
  out.push(`Foundations  ${found.join("  ")}     ${base}  (${s.cardsHome()}/52 home)`);
  if (s.nCells > 0) {
    const cells: string[] = [];
    for (let i = 0; i < s.nCells; i++) {
      const c = s.cells[i]!;
      cells.push(`${"abcdefgh"[i]}:${c === NO_CARD ? empty(o) : renderCard(c, s.base, o)}`);
    }
    out.push(`Flippers     ${cells.join("  ")}`);
  }
  out.push("");
  const header: string[] = [];
  let depth = 0;
  for (let c = 0; c < s.nColumns; c++) {
    header.push(`  ${columnChar(c)} `);
    depth = Math.max(depth, s.len[c]!);
  }
  out.push(header.join(" ").trimEnd());
  for (let d = 0; d < depth; d++) {
    const row: string[] = [];
    for (let c = 0; c < s.nColumns; c++)
      row.push(d < s.len[c]! ? ` ${renderCard(s.cards[c * COLUMN_CAP + d]!, s.base, o)} ` : "    ");
    out.push(row.join(" ").trimEnd());
  }
  if (depth === 0) out.push("(the tableau is empty)");
  return out.join("\n");
}

/** Colour choice for a command: an explicit --color/--no-color wins, else colour on a terminal unless NO_COLOR is set. */
export function useColor(
  flag: boolean | undefined,
  stream: { isTTY?: boolean } = process.stdout,
): boolean {
  if (flag !== undefined) return flag;
  return stream.isTTY === true && !process.env.NO_COLOR;
}
