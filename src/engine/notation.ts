/**
 * Play notation, shared by `penguin play`, solver output and the environment's action codec.
 *
 *   source: column 1-9 (0 = column 10) or flipper a-h
 *   destination: column 1-9/0, `h` = foundation ("home"), or a flipper letter a-g meaning
 *                "a free flipper" (cards always land in the lowest-numbered free one)
 *   `/k` after a column-to-empty-column move names the group size; without it the largest
 *   legal group moves (`moveToString` writes `/k` whenever it is needed to say which).
 *   Rank foundations (Stalactites): `h` is the lowest-numbered foundation that takes the card,
 *   `h1`-`h4` names one (`moveToString` writes the digit whenever it is needed to say which).
 *   penguin-beak-home: `+5H` after a move names a base card that the move exposes and that goes
 *   home with it (`parseMove` accepts the move with or without it, and checks it when given).
 * Examples: `3a` column 3 to a flipper, `3h` column 3 to its foundation, `a4` flipper a to
 * column 4, `34` column 3 onto column 4, `36/3` three cards from column 3 into empty column 6,
 * `3h2` column 3 onto foundation 2, `3a+5H` column 3 to a flipper, the 5H it uncovers going home.
 * The 8th flipper (Eight Off) is `h` as a source; as a destination, `h` is always the foundation.
 */
import { IllegalMoveError } from "../errors.js";
import { cardToString } from "./card.js";
import {
  autoHomeSuit,
  CELL0,
  FOUNDATION,
  generateMoves,
  MAX_MOVES,
  moveAutoHome,
  moveCard,
  moveCount,
  moveFoundation,
  moveFrom,
  moveTo,
  moveToEmpty,
  type Move,
} from "./moves.js";
import type { State } from "./state.js";
import { cellWord } from "./rules.js";

const FLIPPERS = "abcdefgh";
const scratch = new Int32Array(MAX_MOVES);

export function columnChar(c: number): string {
  return String((c + 1) % 10);
}

export function locationChar(loc: number, asDestination: boolean): string {
  if (loc === FOUNDATION) return "h";
  if (loc >= CELL0) {
    const i = loc - CELL0;
    return asDestination && i === 7 ? "a" : FLIPPERS[i]!;
  }
  return columnChar(loc);
}

/**
 * Text of a move. A column-to-empty-column move names its size (`/k`) so that `parseMove` gives
 * back exactly this move: given the position, only when k is not the largest legal group (the
 * default `parseMove` picks); without it, always.
 */
export function moveToString(m: Move, s?: State): string {
  const k = moveCount(m);
  const from = moveFrom(m);
  let suffix = "";
  if (moveToEmpty(m) && from < CELL0) {
    let largest = 0;
    if (s) {
      const n = generateMoves(s, scratch);
      for (let i = 0; i < n; i++) {
        const mv = scratch[i]!;
        if (moveFrom(mv) === from && moveTo(mv) === moveTo(m) && moveCount(mv) > largest)
          largest = moveCount(mv);
      }
    }
    if (largest !== k) suffix = `/${k}`;
  }
  if (moveTo(m) === FOUNDATION && (s ? s.tables.rankHome : moveFoundation(m) > 0)) {
    // A rank foundation by number, unless it is the lowest one that takes the card.
    const f = moveFoundation(m);
    let lowest = 0;
    if (s) {
      const n = generateMoves(s, scratch);
      lowest = 4;
      for (let i = 0; i < n; i++) {
        const mv = scratch[i]!;
        if (moveTo(mv) === FOUNDATION && moveFrom(mv) === from && moveCard(mv) === moveCard(m))
          lowest = Math.min(lowest, moveFoundation(mv));
      }
    }
    if (f !== lowest) suffix = String(f + 1);
  }
  return locationChar(from, false) + locationChar(moveTo(m), true) + suffix + autoHomeText(m, s);
}

/** `+5H+5S`: the base cards a move sends home after it (`+h` each when the base is unknown). */
function autoHomeText(m: Move, s?: State): string {
  let out = "";
  for (let i = 0; i < moveAutoHome(m); i++)
    out += `+${s ? cardToString(s.base * 4 + autoHomeSuit(m, i)) : "h"}`;
  return out;
}

function parseColumn(ch: string, s: State): number | undefined {
  if (!/^[0-9]$/.test(ch)) return undefined;
  const c = (Number(ch) + 9) % 10;
  return c < s.nColumns ? c : undefined;
}

/**
 * Turns text into the legal move it names in this position, or throws IllegalMoveError with the
 * reason (bad syntax, no such column/flipper, or why the rules forbid it).
 */
export function parseMove(text: string, s: State): Move {
  const t = text.trim().toLowerCase();
  const m = /^([0-9a-h])([0-9a-h])(?:\/(\d+)|([1-4]))?((?:\+[0-9a-z]{1,3})*)$/.exec(t);
  const lastCol = columnChar(s.nColumns - 1);
  const lastCell = s.nCells ? FLIPPERS[s.nCells - 1] : undefined;
  const one = cellWord(s.rules, 1);
  const syntax =
    `moves are <from><to>: from a column 1-${lastCol}` +
    (lastCell ? ` or ${one} a-${lastCell}` : "") +
    `, to a column, h (foundation)` +
    (lastCell ? ` or any ${one} letter (the card goes to the first empty one)` : "") +
    `; optional /k for k cards into an empty column` +
    (s.tables.rankHome ? `; h1-h4 names a foundation` : "");
  if (!m) throw new IllegalMoveError(`cannot read "${text}": ${syntax}`);
  const [, a, b, kText, pileText, homeText] = m as unknown as [
    string,
    string,
    string,
    string | undefined,
    string | undefined,
    string,
  ];
  if (pileText !== undefined && (b !== "h" || !s.tables.rankHome))
    throw new IllegalMoveError(
      `cannot read "${text}": a foundation number (h1-h4) exists only with rank foundations`,
    );
  const pile = pileText === undefined ? undefined : Number(pileText) - 1;
  let from = parseColumn(a, s);
  if (from === undefined) {
    const i = FLIPPERS.indexOf(a);
    if (i < 0 || i >= s.nCells) throw new IllegalMoveError(`no column or ${one} "${a}": ${syntax}`);
    from = CELL0 + i;
  }
  let to = parseColumn(b, s);
  let toCell = false;
  if (to === undefined) {
    if (b === "h") to = FOUNDATION;
    else if (/^[0-9]$/.test(b)) throw new IllegalMoveError(`no column "${b}": ${syntax}`);
    else if (s.nCells === 0) throw new IllegalMoveError(`these rules have no ${cellWord(s.rules)}`);
    else toCell = true;
  }
  const k = kText === undefined ? undefined : Number(kText);
  const n = generateMoves(s, scratch);
  let best: Move | undefined;
  for (let i = 0; i < n; i++) {
    const mv = scratch[i]!;
    if (moveFrom(mv) !== from) continue;
    if (toCell ? moveTo(mv) < CELL0 || moveTo(mv) === FOUNDATION : moveTo(mv) !== to) continue;
    if (k !== undefined && moveCount(mv) !== k) continue;
    if (pile !== undefined && moveFoundation(mv) !== pile) continue;
    if (best === undefined || moveCount(mv) > moveCount(best)) best = mv;
  }
  if (best !== undefined) {
    const said = homeText.toUpperCase();
    if (
      said !== "" &&
      said !== autoHomeText(best, s).toUpperCase() &&
      said !== autoHomeText(best).toUpperCase()
    )
      throw new IllegalMoveError(
        `"${text}": that move sends ${autoHomeText(best, s) || "no base card"} home with it, not ${said}`,
        "the base cards named after + are not the ones it sends home",
      );
    return best;
  }
  if (pile !== undefined && to === FOUNDATION)
    throw illegal(text, `foundation ${pile + 1} does not take that card`);
  throw illegal(text, explainIllegal(s, from, toCell ? CELL0 : to!, k));
}

const illegal = (text: string, why: string): IllegalMoveError =>
  new IllegalMoveError(`illegal move "${text}": ${why}`, why);

/** A human reason why nothing legal goes from `from` to `to`. */
function explainIllegal(s: State, from: number, to: number, k: number | undefined): string {
  if (from < CELL0 ? s.len[from] === 0 : s.cells[from - CELL0] === 255)
    return "the source is empty";
  // A flipper destination arrives here as CELL0 ("a free flipper"), so test it before equality.
  if (to >= CELL0 && to !== FOUNDATION) {
    const one = cellWord(s.rules, 1);
    if (from >= CELL0) return `moving from ${one} to ${one} changes nothing`;
    return `no ${one} is free`;
  }
  if (to === from) return "source and destination are the same";
  if (to === FOUNDATION) return "that card is not the next one its foundation needs";
  if (s.len[to] === 0) {
    const r = s.rules;
    if (r.emptyColumn === "none") return "these rules never refill an empty column";
    if (r.emptyColumn === "below-base")
      return "an empty column takes only a card (or run headed by one) one rank below the base";
    if (k !== undefined) return `cannot move ${k} cards there (group-move limit or not a run)`;
    return "moving a whole column into an empty column changes nothing";
  }
  if (s.rules.build === "none") return "these rules never build on a column";
  return s.rules.groupMove === "unlimited"
    ? "no card of the run at the end of the source builds on the destination's last card"
    : "no card within the group-move limit builds on the destination's last card";
}
