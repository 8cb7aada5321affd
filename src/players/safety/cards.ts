/**
 * One row per card, for a network shared by all 52 cards whose outputs are pooled (`--safety-features
 * cards`). The column rows see each column alone: for a buried card they do not say where the
 * card it builds on lies, nor the card that builds on it, and most fatal moves go wrong on such
 * a link between columns. A card's row holds where it lies and how deep, what digging it out
 * costs, and the same for its successor (the next higher card of its suit) and its predecessor.
 *
 * No row names a suit, and the rows are pooled, so renaming the suits only reorders the rows
 * (row k is the card of relative index k, like the one-hots of encode.ts).
 */
import { NO_CARD } from "../../engine/card.js";
import { runLength } from "../../engine/moves.js";
import { COLUMN_CAP, MAX_COLUMNS, type State } from "../../engine/state.js";
import { columnOf, digCost, heightOf, locateCards, relIndex } from "./structure.js";
import { encodeLinks } from "./links.js";
import type { SafetyFeatures } from "./model.js";

/** Floats per card row. */
export const CARD_WIDTH = 28;
/** Floats the "links" feature set adds to each card row (encodeLinks). */
export const LINK_WIDTH = 8;
/** Floats per card row: CARD_WIDTH, plus LINK_WIDTH with the links. */
export const cardWidthOf = (links: boolean): number => CARD_WIDTH + (links ? LINK_WIDTH : 0);
/** The feature set has card rows ("cards", or "links": the card rows with their links). */
export const hasCardRows = (f: SafetyFeatures | undefined): boolean =>
  f === "cards" || f === "links";

// encodeCards' scratch: per column where its run starts; per card the lower cards of its suit
// under it in its column; per suit the ranks seen so far down a column (a bit each).
const runFrom = new Int32Array(MAX_COLUMNS);
const lowerOf = new Int32Array(52);
const seen = new Int32Array(4);

/** Set bits of x (at most 13 of them here). */
function bitCount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/** Where card k lies (after locateCards), written as a one-hot at out[o …o+4): home, flipper, top of a column, buried; returns the cards above it. */
function place(s: State, k: number, out: Float32Array, o: number): number {
  const c = columnOf(k);
  if (c < 0) {
    out[o + (c === -2 ? 0 : 1)] = 1;
    return 0;
  }
  const above = s.len[c]! - 1 - heightOf(k);
  out[o + (above === 0 ? 2 : 3)] = 1;
  return above;
}

/**
 * Writes the 52 card rows of s at out[at …] (zeroed first), `width` floats apart: CARD_WIDTH, or
 * cardWidthOf(true) to add the links after each row. Needs nothing located beforehand.
 */
export function encodeCards(
  s: State,
  out: Float32Array,
  at: number,
  width = CARD_WIDTH,
  located = false,
): void {
  out.fill(0, at, at + 52 * width);
  if (!located) locateCards(s);
  let free = 0;
  for (let i = 0; i < s.nCells; i++) if (s.cells[i] === NO_CARD) free++;
  const freeShare = free / Math.max(1, s.nCells);
  const emptyShare = s.emptyColumns() / s.nColumns;
  // Per column, where its run starts; per card in a column, the lower cards of its suit under it
  // (a bit per rank seen so far, counted below the card's rank).
  for (let c = 0; c < s.nColumns; c++) {
    const b = c * COLUMN_CAP;
    const n = s.len[c]!;
    runFrom[c] = n - runLength(s, c);
    seen.fill(0);
    for (let d = 0; d < n; d++) {
      const x = relIndex(s, s.cards[b + d]!);
      const su = x & 3;
      lowerOf[x] = bitCount(seen[su]! & ((1 << (x >> 2)) - 1));
      seen[su] = seen[su]! | (1 << (x >> 2));
    }
  }
  for (let k = 0; k < 52; k++) {
    const o = at + k * width;
    const r = k >> 2;
    const c = columnOf(k);
    const above = place(s, k, out, o);
    if (c === -2) continue;
    const d = heightOf(k);
    out[o + 4] = r / 12;
    out[o + 5] = (r - s.found[k & 3]!) / 12;
    out[o + 6] = above / 20;
    if (c >= 0) {
      out[o + 7] = above > 0 ? Math.min(8, digCost(s, c, d)) / 8 : 0;
      // The card moves with the run at the end of its column.
      out[o + 8] = d >= runFrom[c]! ? 1 : 0;
      out[o + 25] = lowerOf[k]! / 12;
    }
    if (r < 12) {
      const up = k + 4;
      out[o + 13] = place(s, up, out, o + 9) / 20;
      const cu = columnOf(up);
      if (c >= 0 && cu === c) {
        if (heightOf(up) < d) out[o + 14] = 1;
        if (heightOf(up) === d - 1) out[o + 15] = 1;
      }
    } else out[o + 16] = 1;
    if (r > 0) {
      const down = k - 4;
      out[o + 21] = place(s, down, out, o + 17) / 20;
      const cd = columnOf(down);
      if (c >= 0 && cd === c) {
        if (heightOf(down) < d) out[o + 22] = 1;
        if (heightOf(down) === d + 1) out[o + 23] = 1;
      }
    } else out[o + 24] = 1;
    out[o + 26] = freeShare;
    out[o + 27] = emptyShare;
  }
  if (width > CARD_WIDTH) encodeLinks(s, out, at + CARD_WIDTH, width, free);
}
