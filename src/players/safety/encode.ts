/**
 * The move-safety network's view of one candidate move: the position after it, encoded so that
 * the order of the columns and of the flippers does not matter, plus the move's feature row
 * (the action-scorer's 41 columns: greedy's feature terms, the move's kind, the position's
 * counts).
 *
 * Cards are named relative to the deal's base rank (index rel·4 + suit), so a deal with beak 7
 * looks like a deal with beak A. Each column becomes one row of COLUMN_WIDTH floats, read by a
 * shared per-column network whose outputs are pooled (mean and max); the flippers are a card
 * set; the foundations are four counts.
 */
import { NO_CARD, suitOf } from "../../engine/card.js";
import { runLength } from "../../engine/moves.js";
import { COLUMN_CAP, type State } from "../../engine/state.js";
import { ROW } from "../scorer/features.js";
import { cardWidthOf, encodeCards, hasCardRows } from "./cards.js";
import { encodeFlipperCosts, FLIPPER_COST_WIDTH } from "./flippers.js";
import type { SafetyFeatures } from "./model.js";
import { encodeStructure, locateCards, STRUCTURE_WIDTH, whereOf } from "./structure.js";

/**
 * Per column: the buried cards (each marked by its height, so their order shows), the run base,
 * the top card and the card under the run (one-hots), 9 numbers, then where the run base could
 * go and where the top card's successor is (one-hots of 4 each).
 */
export const COLUMN_WIDTH = 4 * 52 + 9 + 8;
/** Flipper cards (set) and free flippers. */
export const FLIPPER_WIDTH = 52 + 1;
/** Foundations (4 counts), cards home, empty columns, won, flipper cards with somewhere to go; then the move's scorer row. */
export const GLOBAL_WIDTH = 8 + ROW;

const rel = (s: State, c: number): number => s.tables.rel[c]! * 4 + suitOf(c);

/** The next card each foundation wants, by relative index (−1 when complete): encodeColumns' scratch. */
const want = new Int32Array(4);

/** Writes the column rows of `s` into cols[at … at + nColumns·COLUMN_WIDTH) (zeroed first), after locateCards(s). */
function encodeColumns(s: State, cols: Float32Array, at: number): void {
  cols.fill(0, at, at + s.nColumns * COLUMN_WIDTH);
  want.fill(-1);
  for (let f = 0; f < 4; f++) if (s.found[f]! < 13) want[f] = s.found[f]! * 4 + f;
  for (let c = 0; c < s.nColumns; c++) {
    const o = at + c * COLUMN_WIDTH;
    const n = s.len[c]!;
    const num = o + 4 * 52;
    if (n === 0) {
      cols[num + 3] = 1;
      continue;
    }
    const b = c * COLUMN_CAP;
    const run = runLength(s, c);
    const base = s.cards[b + n - run]!;
    let minBuried = 13;
    for (let d = 0; d < n - run; d++) {
      const k = rel(s, s.cards[b + d]!);
      cols[o + k] = 1 - (n - 1 - d) / 24;
      minBuried = Math.min(minBuried, k >> 2);
    }
    cols[o + 52 + rel(s, base)] = 1;
    cols[o + 104 + rel(s, s.cards[b + n - 1]!)] = 1;
    if (n > run) cols[o + 156 + rel(s, s.cards[b + n - run - 1]!)] = 1;
    cols[num] = n / 20;
    cols[num + 1] = run / 13;
    cols[num + 2] = (n - run) / 13;
    // A run from a king-rank (rel 12) card at the bottom of its column is settled for good.
    cols[num + 4] = n === run && s.tables.rel[base] === 12 ? 1 : 0;
    cols[num + 5] = minBuried / 13;
    // How deep (cards above it) the next wanted card of each foundation lies in this column, if here.
    for (let d = 0; d < n; d++) {
      const k = rel(s, s.cards[b + d]!);
      if (want[k & 3] === k) cols[num + 6] = Math.max(cols[num + 6]!, (n - 1 - d) / 20 + 0.05);
    }
    cols[num + 7] = n - run > 0 ? 1 : 0;
    cols[num + 8] = s.tables.rel[base]! / 12;
    // The run base goes onto the next higher card of its suit (none for the top rank: an empty column).
    const baseRel = rel(s, base);
    const up = baseRel + 4;
    cols[num + 9 + (up < 52 ? whereOf(s, up) : 3)] = 1;
    // The top card takes the next lower card of its suit: where is that one?
    const down = rel(s, s.cards[b + n - 1]!) - 4;
    cols[num + 13 + (down >= 0 ? whereOf(s, down) : 3)] = 1;
  }
}

function encodeFlippers(s: State, out: Float32Array, at: number): void {
  out.fill(0, at, at + FLIPPER_WIDTH);
  let free = 0;
  for (let i = 0; i < s.nCells; i++) {
    const c = s.cells[i]!;
    if (c === NO_CARD) free++;
    else out[at + rel(s, c)] = 1;
  }
  out[at + 52] = free / Math.max(1, s.nCells);
}

/** Globals of the position after the move, then the move's scorer row (41 floats, from ActionFeatures). */
function encodeGlobals(
  s: State,
  row: Float32Array,
  rowAt: number,
  out: Float32Array,
  at: number,
): void {
  for (let f = 0; f < 4; f++) out[at + f] = s.found[f]! / 13;
  out[at + 4] = s.cardsHome() / 52;
  out[at + 5] = s.emptyColumns() / s.nColumns;
  out[at + 6] = s.isWon() ? 1 : 0;
  // Flipper cards that could leave now (onto a column's top card, or home); locateCards(s) was called.
  let mobile = 0;
  for (let i = 0; i < s.nCells; i++) {
    const c = s.cells[i]!;
    if (c === NO_CARD) continue;
    const k = rel(s, c);
    const f = suitOf(c);
    if (s.found[f]! * 4 + f === k || (k + 4 < 52 && whereOf(s, k + 4) === 0)) mobile++;
  }
  out[at + 7] = mobile / Math.max(1, s.nCells);
  for (let i = 0; i < ROW; i++) out[at + 8 + i] = row[rowAt + i]!;
}

/**
 * The whole input for one candidate (the position after the move, s): columns, flippers,
 * globals, then the feature set's groups after the globals: the structural features
 * (STRUCTURE_WIDTH) for "structure", the flipper costs after them (FLIPPER_COST_WIDTH) for
 * "flippers", and the card rows after those for "cards" (with their links, for "links"). The one place training
 * and play encode a move.
 */
export function encodeCandidate(
  s: State,
  row: Float32Array,
  rowAt: number,
  cols: Float32Array,
  colsAt: number,
  flips: Float32Array,
  flipsAt: number,
  globals: Float32Array,
  globalsAt: number,
  features: SafetyFeatures,
): void {
  // The card locations once: every group below reads them, and s does not change in between.
  locateCards(s);
  encodeColumns(s, cols, colsAt);
  encodeFlippers(s, flips, flipsAt);
  encodeGlobals(s, row, rowAt, globals, globalsAt);
  if (features === "basic") return;
  encodeStructure(s, globals, globalsAt + GLOBAL_WIDTH, true);
  if (features === "structure") return;
  encodeFlipperCosts(s, globals, globalsAt + GLOBAL_WIDTH + STRUCTURE_WIDTH, true);
  if (hasCardRows(features))
    encodeCards(
      s,
      globals,
      globalsAt + GLOBAL_WIDTH + STRUCTURE_WIDTH + FLIPPER_COST_WIDTH,
      cardWidthOf(features === "links"),
      true,
    );
}
