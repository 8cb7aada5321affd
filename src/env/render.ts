/**
 * Text picture of a position, the way a player reads the table: foundations (top card and
 * count per suit), flippers a-h, then one line per column from the deepest card to its end.
 *
 *   base 5   home 14/52   foundations: C 7C(3)  D 9D(5)  H 8H(4)  S 6S(2)
 *   flippers: a 7H  b --  c --  ...
 *   1: 5C KD QD JD
 */
import { NO_CARD, cardToString, RANKS, SUITS } from "../engine/card.js";
import { columnChar } from "../engine/notation.js";
import type { State } from "../engine/state.js";

const FLIPPERS = "abcdefgh";

export function renderState(s: State): string {
  const found: string[] = [];
  for (let f = 0; f < 4; f++) {
    const n = s.found[f]!;
    const top = n === 0 ? "--" : cardToString(s.foundationTop(f));
    found.push(`${s.tables.rankHome ? f + 1 : SUITS[f]} ${top}(${n})`);
  }
  const lines = [
    `base ${RANKS[s.base]}   home ${s.cardsHome()}/52   foundations: ${found.join("  ")}`,
  ];
  if (s.nCells > 0) {
    const cells: string[] = [];
    for (let i = 0; i < s.nCells; i++)
      cells.push(`${FLIPPERS[i]} ${s.cells[i] === NO_CARD ? "--" : cardToString(s.cells[i]!)}`);
    lines.push(`flippers: ${cells.join("  ")}`);
  }
  for (let c = 0; c < s.nColumns; c++)
    lines.push(`${columnChar(c)}: ${s.column(c).map(cardToString).join(" ")}`.trimEnd());
  return lines.join("\n");
}
