/** The engine's own view of a position, in the shape the browser tests read from the page. */
import { cardToString, NO_CARD, type State } from "../../src/engine/index.js";
import type { DomBoard } from "./browser.js";

export function engineBoard(s: State): DomBoard {
  const columns: string[][] = [];
  for (let c = 0; c < s.nColumns; c++) columns.push(s.column(c).map(cardToString));
  const cells: (string | null)[] = [];
  for (let i = 0; i < s.nCells; i++)
    cells.push(s.cells[i] === NO_CARD ? null : cardToString(s.cells[i]!));
  return { columns, cells, found: Array.from(s.found), home: s.cardsHome() };
}
