/** Glue between the engine and the test-only reference model, plus a tiny seeded PRNG. */
import { Rng } from "../../src/util/rng.js";
import {
  autoHomeSuit,
  NO_CARD,
  moveAutoHome,
  moveCard,
  moveCount,
  moveFoundation,
  moveFrom,
  moveTo,
  moveToEmpty,
  type Move,
  type Rules,
  type State,
} from "../../src/engine/index.js";
import { refMoveKey, type RefPosition, type RefRules } from "./reference.js";

export function refRules(r: Rules): RefRules {
  return {
    cells: r.cells,
    columns: r.columns,
    emptyColumn: r.emptyColumn,
    groupMove: r.groupMove,
    build: r.build,
    base: r.base,
    foundations: r.foundations,
    autoHome: r.deal === "penguin-beak-home",
  };
}

/** Reads a position out of the engine's public arrays. */
export function toRef(s: State): RefPosition {
  const columns: number[][] = [];
  for (let c = 0; c < s.nColumns; c++) columns.push(s.column(c));
  const cells: (number | null)[] = [];
  for (let i = 0; i < s.nCells; i++) cells.push(s.cells[i] === NO_CARD ? null : s.cells[i]!);
  const piles = [0, 1, 2, 3].map((f) =>
    s.tables.rankHome ? Array.from(s.pile.subarray(f * 13, f * 13 + s.found[f]!)) : [],
  );
  return { base: s.base, columns, cells, found: Array.from(s.found), piles };
}

/** The engine move in the reference's terms; `s` is the position it is played from (for the auto-home cards). */
export function engineMoveKey(m: Move, s: State): string {
  const autoHome = Array.from(
    { length: moveAutoHome(m) },
    (_, i) => s.base * 4 + autoHomeSuit(m, i),
  );
  return refMoveKey({
    from: moveFrom(m),
    to: moveTo(m),
    count: moveCount(m),
    card: moveCard(m),
    toEmpty: moveToEmpty(m),
    pile: moveFoundation(m),
    autoHome,
  });
}

/** A seeded uniform stream in [0, 1) from the project's generator (`Rng`): the same everywhere. */
export function prng(seed: number): () => number {
  return new Rng(seed).uniform();
}

/** Random walks' choices (uint32s) from the project's seeded generator. */
export function walkChoices(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.nextU32();
}

/** A position key that ignores which flipper holds which card (the hash does too). */
export function positionKey(s: State): string {
  const cols: string[] = [];
  for (let c = 0; c < s.nColumns; c++) cols.push(s.column(c).join(","));
  const cells = Array.from(s.cells.subarray(0, s.nCells))
    .filter((c) => c !== NO_CARD)
    .sort((a, b) => a - b);
  return `${s.base}|${Array.from(s.found).join(",")}|${s.tables.rankHome ? Array.from(s.pile).join(",") : ""}|${cells.join(",")}|${cols.join("/")}`;
}
