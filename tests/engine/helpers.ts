/** Glue between the engine and the test-only reference model, plus a tiny seeded PRNG. */
import { NO_CARD, moveCard, moveCount, moveFrom, moveTo, moveToEmpty, type Move, type Rules, type State } from "../../src/engine/index.js";
import { refMoveKey, type RefPosition, type RefRules } from "./reference.js";

export function refRules(r: Rules): RefRules {
  return { cells: r.cells, columns: r.columns, emptyColumn: r.emptyColumn, groupMove: r.groupMove, build: r.build, base: r.base };
}

/** Reads a position out of the engine's public arrays. */
export function toRef(s: State): RefPosition {
  const columns: number[][] = [];
  for (let c = 0; c < s.nColumns; c++) columns.push(s.column(c));
  const cells: (number | null)[] = [];
  for (let i = 0; i < s.nCells; i++) cells.push(s.cells[i] === NO_CARD ? null : s.cells[i]!);
  return { base: s.base, columns, cells, found: Array.from(s.found) };
}

export function engineMoveKey(m: Move): string {
  return refMoveKey({ from: moveFrom(m), to: moveTo(m), count: moveCount(m), card: moveCard(m), toEmpty: moveToEmpty(m) });
}

/** mulberry32: small, seeded, the same everywhere. */
export { mulberry32 as prng } from "../../src/engine/rng.js";

/** A position key that ignores which flipper holds which card (the hash does too). */
export function positionKey(s: State): string {
  const cols: string[] = [];
  for (let c = 0; c < s.nColumns; c++) cols.push(s.column(c).join(","));
  const cells = Array.from(s.cells.subarray(0, s.nCells)).filter((c) => c !== NO_CARD).sort((a, b) => a - b);
  return `${s.base}|${Array.from(s.found).join(",")}|${cells.join(",")}|${cols.join("/")}`;
}
