/**
 * Suit relabelling of an encoded candidate. Penguin's rules never tell one suit from another
 * (columns build down in suit, each suit has its own foundation, colour plays no part), so
 * renaming the suits of a position gives another position with the same verdicts. Training on
 * a seeded renaming of each sample shows the network 24 versions of every labelled deal, so it
 * cannot learn one deal's suits by heart.
 *
 * The renaming acts on the encoded floats directly: every card one-hot (index rel·4 + suit) of
 * the columns and flippers, the four foundation counts and the six structural numbers of each
 * suit. Everything else in the encoding does not depend on which suit is which.
 */
import { CARD_WIDTH, cardWidthOf } from "../../players/safety/cards.js";
import { COLUMN_WIDTH, FLIPPER_WIDTH, GLOBAL_WIDTH } from "../../players/safety/encode.js";

/** The 24 orders of the four suits; SUIT_ORDERS[i][s] is the new name of suit s. */
export const SUIT_ORDERS: readonly Uint8Array[] = (() => {
  const out: Uint8Array[] = [];
  for (let a = 0; a < 4; a++)
    for (let b = 0; b < 4; b++)
      for (let c = 0; c < 4; c++)
        for (let d = 0; d < 4; d++)
          if (new Set([a, b, c, d]).size === 4) out.push(Uint8Array.of(a, b, c, d));
  return out;
})();

/** Per-suit block of the structural features: six numbers for each suit, first after the globals. */
const STRUCTURE_PER_SUIT = 6;

/**
 * The renaming for sample `row` of training step `step`: a fixed hash of the two, so a resumed
 * run renames exactly as an uninterrupted one and no random stream is consumed.
 */
export function suitOrderFor(seed: number, step: number, row: number): Uint8Array {
  let h =
    (Math.imul(step + 1, 0x9e3779b1) ^
      Math.imul(row + 1, 0x85ebca77) ^
      Math.imul(seed + 7, 0xc2b2ae3d)) >>>
    0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = (h ^ (h >>> 15)) >>> 0;
  return SUIT_ORDERS[h % 24]!;
}

export class SuitRenamer {
  readonly #tmp = new Float32Array(
    Math.max(
      COLUMN_WIDTH,
      FLIPPER_WIDTH,
      GLOBAL_WIDTH + 4 * STRUCTURE_PER_SUIT,
      52 * cardWidthOf(true),
    ),
  );

  /** Renames 52 card one-hots at x[at …] in place. */
  #cards(x: Float32Array, at: number, order: Uint8Array): void {
    const t = this.#tmp;
    for (let k = 0; k < 52; k++) t[(k & ~3) | order[k & 3]!] = x[at + k]!;
    for (let k = 0; k < 52; k++) x[at + k] = t[k]!;
  }

  /** Renames the suits of one encoded candidate (columns × COLUMN_WIDTH, FLIPPER_WIDTH, globals) in place. */
  rename(
    order: Uint8Array,
    cols: Float32Array,
    colsAt: number,
    columns: number,
    flips: Float32Array,
    flipsAt: number,
    globals: Float32Array,
    globalsAt: number,
    structure: boolean,
    cardsAt = -1,
    cardWidth = CARD_WIDTH,
  ): void {
    for (let c = 0; c < columns; c++)
      for (let block = 0; block < 4; block++)
        this.#cards(cols, colsAt + c * COLUMN_WIDTH + 52 * block, order);
    this.#cards(flips, flipsAt, order);
    const t = this.#tmp;
    for (let f = 0; f < 4; f++) t[order[f]!] = globals[globalsAt + f]!;
    for (let f = 0; f < 4; f++) globals[globalsAt + f] = t[f]!;
    if (!structure) return;
    const s = globalsAt + GLOBAL_WIDTH;
    for (let f = 0; f < 4; f++)
      for (let j = 0; j < STRUCTURE_PER_SUIT; j++)
        t[order[f]! * STRUCTURE_PER_SUIT + j] = globals[s + f * STRUCTURE_PER_SUIT + j]!;
    for (let i = 0; i < 4 * STRUCTURE_PER_SUIT; i++) globals[s + i] = t[i]!;
    if (cardsAt < 0) return;
    // The card rows name no suit: renaming only moves each row to its card's new index.
    const c = globalsAt + cardsAt;
    const w = cardWidth;
    for (let k = 0; k < 52; k++)
      t.set(globals.subarray(c + k * w, c + (k + 1) * w), ((k & ~3) | order[k & 3]!) * w);
    globals.set(t.subarray(0, 52 * w), c);
  }
}
