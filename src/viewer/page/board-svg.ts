/**
 * A position as an SVG picture: foundations (with their base rank), flippers, then the columns,
 * each card with its rank, suit symbol and colour, the base-rank cards and the beak marked.
 *
 * It returns a string (no DOM), so the replay page, the play page and the tests draw the same
 * markup. Every card carries `data-card` (`TH`) and where it lies (`data-where` = col / cell /
 * found, with `data-col` + `data-row`, `data-cell` or `data-suit`), so pages find a card under the
 * pointer and tests read the picture back. Drop targets carry `data-target` in the play notation's
 * destination letters (a column digit, `h`, or a flipper letter).
 */
import { cellWord } from "../../engine/rules.js";
import {
  cardToString,
  NO_CARD,
  rankOf,
  RANKS,
  SUITS,
  suitOf,
  type Card,
} from "../../engine/card.js";
import { columnChar } from "../../engine/notation.js";
import { COLUMN_CAP, type State } from "../../engine/state.js";

const CARD_W = 56;
const CARD_H = 78;
const GAP = 10;
const PITCH = CARD_W + GAP;
/** Vertical offset between stacked cards of a column. */
const FAN = 22;
const MARGIN = 12;
const LABEL = 16;
const SYMBOLS = "♣♦♥♠";
const FLIPPERS = "abcdefgh";

export interface BoardMarks {
  /** The beak, drawn with a badge (the first card dealt in Penguin), if known. */
  readonly beak?: Card;
  /** Cards drawn as picked up (the group being moved). */
  readonly selected?: ReadonlySet<Card>;
  /** Drop targets drawn as legal (`data-target` values). */
  readonly targets?: ReadonlySet<string>;
  /** Cards that can move now (outlined). */
  readonly movable?: ReadonlySet<Card>;
  /** The card of the hinted move (drawn in green). */
  readonly hinted?: Card;
}

export interface BoardSize {
  readonly width: number;
  readonly height: number;
}

const esc = (t: string): string =>
  t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

function isRed(c: Card): boolean {
  return suitOf(c) === 1 || suitOf(c) === 2;
}

function cardSvg(
  c: Card,
  x: number,
  y: number,
  base: number,
  attrs: string,
  m: BoardMarks,
  legalTop = false,
): string {
  const rank = RANKS[rankOf(c)]!;
  const sym = SYMBOLS[suitOf(c)]!;
  const cls = ["card", isRed(c) ? "red" : "black"];
  if (rankOf(c) === base) cls.push("base");
  if (m.beak === c) cls.push("beak");
  if (m.selected?.has(c)) cls.push("selected");
  if (m.movable?.has(c)) cls.push("movable");
  if (legalTop) cls.push("legal-top");
  if (m.hinted === c) cls.push("hinted");
  const label = `${rank === "T" ? "10" : rank}${sym}`;
  return (
    `<g class="${cls.join(" ")}" data-card="${cardToString(c)}" ${attrs} transform="translate(${x},${y})">` +
    `<rect class="face" width="${CARD_W}" height="${CARD_H}" rx="5"/>` +
    `<text class="corner" x="4" y="15">${label}</text>` +
    `<text class="pip" x="${CARD_W / 2}" y="${CARD_H / 2 + 14}" text-anchor="middle">${sym}</text>` +
    (m.beak === c
      ? `<text class="badge" x="${CARD_W - 4}" y="${CARD_H - 5}" text-anchor="end">beak</text>`
      : "") +
    `</g>`
  );
}

function slotSvg(x: number, y: number, text: string, attrs: string, legal: boolean): string {
  return (
    `<g class="slot${legal ? " legal" : ""}" ${attrs} transform="translate(${x},${y})">` +
    `<rect width="${CARD_W}" height="${CARD_H}" rx="5"/>` +
    `<text x="${CARD_W / 2}" y="${CARD_H / 2 + 6}" text-anchor="middle">${esc(text)}</text></g>`
  );
}

function deepest(s: State): number {
  let d = 0;
  for (let c = 0; c < s.nColumns; c++) d = Math.max(d, s.len[c]!);
  return d;
}

/** Size of the picture for this position (columns grow downwards as cards pile up). */
export function boardSize(s: State): BoardSize {
  const slots = Math.max(s.nColumns, s.nCells, 5);
  const rows = Math.max(deepest(s), 1);
  const top = MARGIN + 2 * (LABEL + CARD_H + GAP);
  return {
    width: 2 * MARGIN + slots * PITCH - GAP,
    height: top + LABEL + (rows - 1) * FAN + CARD_H + MARGIN,
  };
}

export function boardSvg(s: State, m: BoardMarks = {}, minHeight = 0): string {
  const { width, height } = boardSize(s);
  const h = Math.max(height, minHeight);
  const t = m.targets;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 ${width} ${h}" width="${width}" height="${h}">`,
  ];
  let y = MARGIN;
  out.push(
    `<text class="label" x="${MARGIN}" y="${y + 11}">Foundations · base ${RANKS[s.base]}</text>`,
  );
  y += LABEL;
  for (let su = 0; su < 4; su++) {
    const x = MARGIN + su * PITCH;
    const n = s.found[su]!;
    const attrs = `data-where="found" data-suit="${SUITS[su]}" data-count="${n}" data-target="h"`;
    if (n === 0)
      out.push(slotSvg(x, y, RANKS[s.base]! + SYMBOLS[su]!, attrs, t?.has("h") ?? false));
    else {
      const top = s.foundationTop(su); // rank foundations (Stalactites) hold any suit
      out.push(
        `<g class="pile${t?.has("h") ? " legal" : ""}" ${attrs}>` +
          cardSvg(top, x, y, s.base, `data-where="found"`, m) +
          `</g>`,
      );
    }
  }
  out.push(
    `<text class="home" x="${MARGIN + 4 * PITCH}" y="${y + CARD_H / 2 + 5}" data-home="${s.cardsHome()}">${s.cardsHome()}/52 home</text>`,
  );
  y += CARD_H + GAP;
  if (s.nCells > 0) {
    const word = cellWord(s.rules);
    out.push(
      `<text class="label" x="${MARGIN}" y="${y + 11}">${word[0]!.toUpperCase()}${word.slice(1)}</text>`,
    );
  }
  y += LABEL;
  for (let i = 0; i < s.nCells; i++) {
    const x = MARGIN + i * PITCH;
    const c = s.cells[i]!;
    const letter = FLIPPERS[i]!;
    if (c === NO_CARD)
      out.push(
        slotSvg(
          x,
          y,
          letter,
          `data-where="cell" data-cell="${i}" data-target="${letter}"`,
          t?.has("a") ?? false,
        ),
      );
    else
      out.push(
        cardSvg(c, x, y, s.base, `data-where="cell" data-cell="${i}" data-source="${letter}"`, m),
      );
  }
  y += CARD_H + GAP;
  for (let col = 0; col < s.nColumns; col++) {
    const x = MARGIN + col * PITCH;
    const ch = columnChar(col);
    const legal = t?.has(ch) ?? false;
    out.push(
      `<text class="label" x="${x + CARD_W / 2}" y="${y + 11}" text-anchor="middle">${ch}</text>`,
    );
    // The whole column strip is a drop target, so a drop below the last card still counts.
    out.push(
      `<rect class="column${legal ? " legal" : ""}" data-target="${ch}" data-col="${col}" x="${x}" y="${y + LABEL}" width="${CARD_W}" height="${h - y - LABEL - MARGIN}" rx="5"/>`,
    );
    const n = s.len[col]!;
    for (let d = 0; d < n; d++) {
      const c = s.cards[col * COLUMN_CAP + d]!;
      out.push(
        cardSvg(
          c,
          x,
          y + LABEL + d * FAN,
          s.base,
          `data-where="col" data-col="${col}" data-row="${d}" data-source="${ch}" data-target="${ch}"`,
          m,
          legal && d === n - 1,
        ),
      );
    }
  }
  out.push(`</svg>`);
  return out.join("");
}

/** Styles for the board (inlined into each page). */
export const BOARD_CSS = `
svg.board { background: #1f6b3a; border-radius: 8px; user-select: none; touch-action: none; max-width: 100%; height: auto; }
svg.board .label { fill: #d8efd8; font: 12px sans-serif; }
svg.board .home { fill: #fff; font: bold 14px sans-serif; }
svg.board .slot rect, svg.board rect.column { fill: rgba(255,255,255,0.06); stroke: rgba(255,255,255,0.35); stroke-dasharray: 4 3; }
svg.board rect.column { stroke: none; }
svg.board .slot text { fill: rgba(255,255,255,0.6); font: 16px sans-serif; }
svg.board .legal rect, svg.board rect.column.legal { fill: rgba(255,230,80,0.25); stroke: #ffe650; stroke-dasharray: none; stroke-width: 2; }
svg.board .card .face { fill: #fffdf6; stroke: #333; stroke-width: 1; }
svg.board .card .corner { font: bold 14px sans-serif; }
svg.board .card .pip { font: 30px sans-serif; }
svg.board .card.red text { fill: #c0152a; }
svg.board .card.black text { fill: #111; }
svg.board .card.base .face { fill: #fff3c4; }
svg.board .card.beak .face { stroke: #b8860b; stroke-width: 3; }
svg.board .card .badge { font: bold 9px sans-serif; fill: #8a6400 !important; }
svg.board .card.movable .face { stroke: #2d7be0; stroke-width: 2; }
svg.board .card.selected .face { fill: #d6e8ff; stroke: #1456b8; stroke-width: 3; }
svg.board .card.hinted .face { stroke: #19a34a; stroke-width: 4; }
svg.board .pile.legal .face, svg.board .card.legal-top .face { stroke: #e6c200; stroke-width: 4; }
`;
