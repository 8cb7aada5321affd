/**
 * Board text formats, so positions can be saved, edited by hand, fed to `penguin solve --board`
 * and exchanged with Freecell Solver.
 *
 * 1. Our own format ("penguin-board"), for every rule set. Example (Penguin #1):
 *
 *      penguin-board 1
 *      base: J
 *      foundations: JC - JH JS
 *      flippers: - - - - - - -
 *      1: JD KD 3H 3C 4D 2C 3D
 *      2: 2D KC 2S 4C 7S 7D 8C
 *      …
 *      7: 5H KH AH AC 8H 6C 6H
 *
 *    `base` is the foundations' first rank. `foundations` gives the top card of each foundation
 *    in suit order C D H S, `-` when empty (the count follows from the base rank: a top of 3C
 *    over base J means J Q K A 2 3). Under rank foundations (Stalactites) each of the four
 *    tokens is that foundation's whole pile, first card first, joined by commas (`5C,6D,7H`),
 *    since suits do not follow from a count there. `flippers` has one token per flipper, `-` when free. Then
 *    one line per column, labelled 1-9 and 0 (column 10), cards deepest first. `#` starts a
 *    comment; blank lines are ignored. Cards are rank + suit (`TH`; `10H` is accepted).
 *
 * 2. Freecell Solver's format, for ace-based rules only (FCS has no base rank):
 *
 *      Foundations: H-0 C-2 D-A S-0
 *      Freecells: 8D - QD -
 *      : 6D 3C 3H KD 8C 5C
 *      …
 *
 *    One column per line, deepest first, each starting with ": " (the colon is optional on
 *    input); `Foundations:` lists each suit's top rank (0 = empty) and may be left out;
 *    `Freecells:` (or `FC:`) lists cell cards with `-` for a free cell.
 */
import {
  cardToString,
  makeCard,
  NO_CARD,
  parseCard,
  parseRank,
  rankOf,
  RANKS,
  SUITS,
  suitOf,
  type Card,
} from "./card.js";
import type { Rules } from "./rules.js";
import { describeValue, InvalidArgumentError, UsageError } from "../errors.js";
import { State } from "./state.js";
import { columnChar } from "./notation.js";

const BOARD_MAGIC = "penguin-board 1";

/** A position's parts, as a board file or a saved env gives them (checked by buildPosition). */
export interface Layout {
  base: number;
  found: number[];
  /** Rank foundations: each pile's cards. */
  piles?: Card[][];
  cells: Card[];
  columns: Card[][];
}

/** A board is text: anything else is a caller's mistake, named as such. */
function checkText(text: unknown): void {
  if (typeof text !== "string")
    throw new InvalidArgumentError(`a board is text (a string), got ${describeValue(text)}`);
}

function bad(line: number, why: string): never {
  throw new UsageError(line > 0 ? `board line ${line}: ${why}` : `board: ${why}`);
}

function card(text: string, line: number): Card {
  try {
    return parseCard(text);
  } catch (e) {
    return bad(line, (e as Error).message);
  }
}

/** Checks the layout against the rules (sizes, every card once) and builds the position. */
function build(rules: Rules, l: Layout): State {
  return buildPosition(rules, l, (why) => bad(0, why));
}

/**
 * The position `l` describes, after checking it against the rules: the base rank, the column
 * and flipper counts, foundation counts of 0..13, and each of the 52 cards exactly once.
 * `fail` throws the caller's error for a reason (a board file's line, a saved env's field).
 */
export function buildPosition(rules: Rules, l: Layout, fail: (why: string) => never): State {
  if (!Number.isInteger(l.base) || l.base < 0 || l.base > 12)
    fail(`base must be a rank index 0..12, got ${l.base}`);
  if (
    !l.piles &&
    (l.found.length !== 4 || l.found.some((n) => !Number.isInteger(n) || n < 0 || n > 13))
  )
    fail(`foundations must be 4 counts of 0..13 cards, got ${JSON.stringify(l.found)}`);
  if (l.piles && l.piles.length !== 4) fail(`there are 4 foundations, got ${l.piles.length}`);
  if (rules.base === "ace" && l.base !== 0)
    fail(`these rules build foundations from the ace, but the board's base is ${RANKS[l.base]}`);
  if (l.columns.length !== rules.columns)
    fail(`these rules have ${rules.columns} columns, the board has ${l.columns.length}`);
  if (l.cells.length > rules.cells)
    fail(`these rules have ${rules.cells} flippers, the board has ${l.cells.length}`);
  const seen = new Map<Card, string>();
  const note = (c: Card, where: string): void => {
    const before = seen.get(c);
    if (before) fail(`${cardToString(c)} appears twice (${before} and ${where})`);
    seen.set(c, where);
  };
  if (rules.foundations === "rank") {
    if (!l.piles)
      fail("these rules build foundations by rank: give each foundation's cards (e.g. 5C,6D,7H)");
    l.piles.forEach((pile, f) => {
      pile.forEach((c, k) => {
        if (k > 0 && rankOf(c) !== (rankOf(pile[0]!) + k) % 13)
          fail(
            `foundation ${f + 1} must rise by one rank per card, got ${pile.map(cardToString).join(",")}`,
          );
        note(c, `foundation ${f + 1}`);
      });
      if (pile.length > 13) fail(`foundation ${f + 1} holds more than 13 cards`);
    });
  } else
    for (let su = 0; su < 4; su++)
      for (let k = 0; k < l.found[su]!; k++)
        note(makeCard((l.base + k) % 13, su), `foundation ${SUITS[su]}`);
  l.cells.forEach((c, i) => c !== NO_CARD && note(c, `flipper ${"abcdefgh"[i]}`));
  l.columns.forEach((col, i) => col.forEach((c) => note(c, `column ${columnChar(i)}`)));
  if (seen.size !== 52) {
    const missing: string[] = [];
    for (let c = 0; c < 52; c++) if (!seen.has(c)) missing.push(cardToString(c));
    fail(
      `${missing.length} card(s) missing: ${missing.slice(0, 8).join(" ")}${missing.length > 8 ? " …" : ""}`,
    );
  }
  const s = new State(rules, l.base);
  if (l.piles) l.piles.forEach((pile, f) => pile.forEach((c) => s.putHome(f, c)));
  else for (let su = 0; su < 4; su++) s.found[su] = l.found[su]!;
  l.cells.forEach((c, i) => (s.cells[i] = c));
  l.columns.forEach((col, i) => col.forEach((c) => s.push(i, c)));
  s.rehash();
  return s;
}

const cellText = (c: Card): string => (c === NO_CARD ? "-" : cardToString(c));

/** Our own format (see the file comment); `parseBoard` reads it back exactly. */
export function formatBoard(s: State): string {
  const lines = [BOARD_MAGIC, `base: ${RANKS[s.base]}`];
  const tops = [0, 1, 2, 3].map((f) =>
    !s.found[f]
      ? "-"
      : s.tables.rankHome
        ? Array.from(s.pile.subarray(f * 13, f * 13 + s.found[f]!), cardToString).join(",")
        : cardToString(s.foundationTop(f)),
  );
  lines.push(`foundations: ${tops.join(" ")}`);
  lines.push(
    `flippers:${Array.from(s.cells.subarray(0, s.nCells), (c) => ` ${cellText(c)}`).join("")}`,
  );
  for (let c = 0; c < s.nColumns; c++)
    lines.push(
      `${columnChar(c)}:${s
        .column(c)
        .map((x) => ` ${cardToString(x)}`)
        .join("")}`,
    );
  return `${lines.join("\n")}\n`;
}

/** Significant lines: comments and blank lines dropped, a BOM and line numbers kept track of. */
function lines(text: string): { n: number; text: string }[] {
  return text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .map((t, i) => ({ n: i + 1, text: t.replace(/#.*/, "").trim() }))
    .filter((l) => l.text !== "");
}

export function parseBoard(text: string, rules: Rules): State {
  checkText(text);
  const ls = lines(text);
  if (ls[0]?.text !== BOARD_MAGIC)
    bad(ls[0]?.n ?? 0, `expected "${BOARD_MAGIC}" as the first line`);
  let base: number | undefined;
  let tops: string[] | undefined;
  let cells: Card[] | undefined;
  let piles: Card[][] | undefined;
  const columns: Card[][] = [];
  for (const { n, text: t } of ls.slice(1)) {
    const m = /^([a-z]+|\d):\s*(.*)$/i.exec(t);
    if (!m) bad(n, `expected "base:", "foundations:", "flippers:" or "<column>:", got "${t}"`);
    const [key, rest] = [m[1]!.toLowerCase(), m[2]!];
    const tokens = rest === "" ? [] : rest.split(/\s+/);
    if (key === "base") {
      if (tokens.length !== 1) bad(n, `base takes one rank (${RANKS})`);
      try {
        base = parseRank(tokens[0]!);
      } catch (e) {
        bad(n, (e as Error).message);
      }
    } else if (key === "foundations") {
      if (tokens.length !== 4)
        bad(
          n,
          rules.foundations === "rank"
            ? "foundations takes 4 tokens (each foundation's cards joined by commas, or -)"
            : "foundations takes 4 tokens (top card or -), in suit order C D H S",
        );
      tops = tokens;
      if (rules.foundations === "rank")
        piles = tokens.map((tk) => (tk === "-" ? [] : tk.split(",").map((x) => card(x, n))));
      else
        tops.forEach((tk, su) => {
          if (tk !== "-" && suitOf(card(tk, n)) !== su)
            bad(n, `foundation ${su + 1} is the ${SUITS[su]} foundation, got ${tk}`);
        });
    } else if (key === "flippers") {
      cells = tokens.map((tk) => (tk === "-" ? NO_CARD : card(tk, n)));
    } else if (/^\d$/.test(key)) {
      if (key !== columnChar(columns.length))
        bad(n, `expected column ${columnChar(columns.length)} next, got ${key}`);
      columns.push(tokens.map((tk) => card(tk, n)));
    } else bad(n, `unknown line "${key}:"`);
  }
  if (base === undefined) bad(0, `missing "base:" line`);
  if (!tops) bad(0, `missing "foundations:" line`);
  if (!cells) bad(0, `missing "flippers:" line`);
  const b = base;
  if (piles)
    return build(rules, { base: b, found: piles.map((p) => p.length), piles, cells, columns });
  const found = tops.map((tk) => (tk === "-" ? 0 : (((parseCard(tk) >> 2) - b + 13) % 13) + 1));
  return build(rules, { base: b, found, cells, columns });
}

/** Freecell Solver's format (ace-based rules only). */
export function formatFcsBoard(s: State): string {
  if (s.tables.rankHome)
    throw new UsageError(
      "Freecell Solver's board format has no rank foundations; use the penguin-board format",
    );
  if (s.base !== 0)
    throw new UsageError(
      "Freecell Solver's board format has no base rank; use the penguin-board format",
    );
  const found = [2, 0, 1, 3].map(
    (su) => `${SUITS[su]}-${s.found[su] ? RANKS[s.found[su]! - 1] : "0"}`,
  );
  const lines = [
    `Foundations: ${found.join(" ")}`,
    `Freecells:${Array.from(s.cells.subarray(0, s.nCells), (c) => ` ${cellText(c)}`).join("")}`,
  ];
  for (let c = 0; c < s.nColumns; c++)
    lines.push(
      `:${s
        .column(c)
        .map((x) => ` ${cardToString(x)}`)
        .join("")}`,
    );
  return `${lines.join("\n")}\n`;
}

export function parseFcsBoard(text: string, rules: Rules): State {
  checkText(text);
  if (rules.foundations === "rank")
    bad(0, "Freecell Solver's format has no rank foundations; use the penguin-board format");
  if (rules.base !== "ace")
    bad(
      0,
      `Freecell Solver's format needs ace-based rules; for base "${rules.base}" use the penguin-board format`,
    );
  const found = [0, 0, 0, 0];
  let cells: Card[] = [];
  const columns: Card[][] = [];
  for (const { n, text: t } of lines(text)) {
    const f = /^Foundations:\s*(.*)$/i.exec(t);
    const c = /^(?:Freecells|FC):\s*(.*)$/i.exec(t);
    if (f) {
      for (const tk of f[1]!.split(/\s+/).filter(Boolean)) {
        const m = /^([CDHS])-(10|[0A2-9TJQK])$/i.exec(tk);
        if (!m) bad(n, `bad foundation "${tk}": expected suit-rank such as H-5 (0 = empty)`);
        const r = m[2]!.toUpperCase();
        found[SUITS.indexOf(m[1]!.toUpperCase())] =
          r === "0" ? 0 : r === "10" ? 10 : parseRank(r) + 1;
      }
    } else if (c) {
      cells = c[1]!
        .split(/\s+/)
        .filter(Boolean)
        .map((tk) => (tk === "-" ? NO_CARD : card(tk, n)));
    } else {
      const body = t.startsWith(":") ? t.slice(1) : t;
      columns.push(
        body
          .split(/\s+/)
          .filter(Boolean)
          .map((tk) => card(tk, n)),
      );
    }
  }
  return build(rules, { base: 0, found, cells, columns });
}

/**
 * Reads a board file in either format (our own when it starts with "penguin-board", else Freecell
 * Solver's). Throws UsageError with a one-line reason on bad input.
 */
export function readBoardFile(text: string, rules: Rules): State {
  checkText(text);
  const first = lines(text)[0];
  if (!first) bad(0, "the board is empty");
  return first.text.startsWith("penguin-board")
    ? parseBoard(text, rules)
    : parseFcsBoard(text, rules);
}
