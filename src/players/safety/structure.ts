/**
 * Exact structural facts of a position that decide whether parked cards can ever leave, computed
 * directly from the layout (no search, no move generation): for each suit, where the next card its
 * foundation wants lies, how deep it is buried and how many flippers digging it out would take;
 * the cards that sit above a lower card of their own suit (each must move sideways at least once);
 * and which flipper cards have somewhere to go. The mean and max pooling over columns cannot see
 * these relations between columns, and most losing moves fill the flippers while one is needed.
 */
import { NO_CARD, suitOf } from "../../engine/card.js";
import { COLUMN_CAP, MAX_COLUMNS, type State } from "../../engine/state.js";

/** Six numbers per suit, then eight for the whole position. */
export const STRUCTURE_WIDTH = 4 * 6 + 8;

/** Per suit, the lowest rank seen so far down a column (encodeStructure's scratch). */
const low = new Int32Array(4);

// Where each card (relative index rel·4 + suit) lies: its column (−1 flipper, −2 home) and its height.
const colOf = new Int8Array(52);
const depthOf = new Uint8Array(52);

/**
 * digCost's answers since the last locateCards, per column and height + 1, every height of a
 * column at once (kept while the column's stamp equals the epoch): one candidate's encoding asks
 * for nearly every height of every column, and nothing it reads (the layout, the locations)
 * changes before the next locateCards.
 */
const digKept = new Int32Array(MAX_COLUMNS * (COLUMN_CAP + 1));
const digStamp = new Int32Array(MAX_COLUMNS);
let epoch = 0;
/** The empty columns of the position last located (every column's walk starts from them). */
let emptyNow = 0;
/** digColumn's scratch, per height: the cost so far and the empty columns left when the walk reaches its sequence. */
const costAbove = new Int32Array(COLUMN_CAP);
const emptyAbove = new Int32Array(COLUMN_CAP);
/** Per height, the top of the sequence holding it. */
const seqTop = new Int32Array(COLUMN_CAP);

/** Fills the card locations that encode.ts and the features below read. */
export function locateCards(s: State): void {
  epoch++;
  if (epoch === 0x7fffffff) {
    digStamp.fill(0);
    epoch = 1;
  }
  emptyNow = s.emptyColumns();
  colOf.fill(-2);
  for (let i = 0; i < s.nCells; i++)
    if (s.cells[i] !== NO_CARD) colOf[relIndex(s, s.cells[i]!)] = -1;
  for (let c = 0; c < s.nColumns; c++) {
    const n = s.len[c]!;
    for (let d = 0; d < n; d++) {
      const k = relIndex(s, s.cards[c * COLUMN_CAP + d]!);
      colOf[k] = c;
      depthOf[k] = d;
    }
  }
}

/** Changes at every locateCards: what is computed from the locations may be kept while it stays. */
export const locateEpoch = (): number => epoch;

export const relIndex = (s: State, card: number): number => s.tables.rel[card]! * 4 + suitOf(card);
/** After locateCards: the column of card k (−1 flipper, −2 home) and its height there. */
export const columnOf = (k: number): number => colOf[k]!;
export const heightOf = (k: number): number => depthOf[k]!;
export const isTop = (s: State, k: number): boolean =>
  colOf[k]! >= 0 && depthOf[k] === s.len[colOf[k]!]! - 1;
/** Where card k lies (after locateCards): 0 top of a column, 1 buried, 2 flipper, 3 home. */
export const whereOf = (s: State, k: number): number =>
  colOf[k] === -1 ? 2 : colOf[k] === -2 ? 3 : isTop(s, k) ? 0 : 1;

/**
 * Flippers needed to uncover the card at height d of column c: the cards above it, split into the
 * in-suit sequences that move as one (walking down from the top card), each go free when the card
 * they build on is the top card of another column (or, for a top-rank sequence, onto an empty
 * column, while one is left), else one flipper per card. d = −1 counts what emptying the whole
 * column would take. Needs locateCards first.
 */
export function digCost(s: State, c: number, d: number): number {
  if (digStamp[c] !== epoch) {
    digColumn(s, c);
    digStamp[c] = epoch;
  }
  return digKept[c * (COLUMN_CAP + 1) + d + 1]!;
}

/**
 * digCost for every height d of column c (−1 … len−1) in one walk down the column. The walk for
 * one height d follows the column's whole sequences (cut only where a card does not build on the
 * one under it) from the top down while they lie wholly above d, then takes the part above d of
 * the sequence holding d + 1: so each height's answer is the cost and the empty columns left when
 * that sequence is reached, plus what its cut part costs.
 */
function digColumn(s: State, c: number): void {
  const b = c * COLUMN_CAP;
  const n = s.len[c]!;
  const buildOn = s.tables.buildOn;
  let empty = emptyNow;
  let cost = 0;
  let i = n - 1;
  while (i >= 0) {
    let j = i;
    while (j - 1 >= 0 && buildOn[s.cards[b + j]! * 52 + s.cards[b + j - 1]!] === 1) j--;
    for (let t = j; t <= i; t++) {
      costAbove[t] = cost;
      emptyAbove[t] = empty;
      seqTop[t] = i;
    }
    const k = relIndex(s, s.cards[b + j]!);
    const onto = k + 4;
    if (onto < 52 && colOf[onto] !== c && isTop(s, onto)) {
      // free: the sequence goes onto its successor
    } else if (onto >= 52 && empty > 0) empty--;
    else cost += i - j + 1;
    i = j - 1;
  }
  const at = c * (COLUMN_CAP + 1);
  digKept[at + n] = 0;
  for (let d = -1; d < n - 1; d++) {
    // The cut sequence runs from d + 1 up to its top; its lowest card is d + 1's.
    const low = d + 1;
    const top = seqTop[low]!;
    const onto = relIndex(s, s.cards[b + low]!) + 4;
    const free = onto < 52 ? colOf[onto] !== c && isTop(s, onto) : emptyAbove[low]! > 0;
    digKept[at + d + 1] = costAbove[low]! + (free ? 0 : top - low + 1);
  }
}

/** Writes STRUCTURE_WIDTH numbers for position s at out[at …] (located: locateCards(s) was the last call). */
export function encodeStructure(s: State, out: Float32Array, at: number, located = false): void {
  out.fill(0, at, at + STRUCTURE_WIDTH);
  if (!located) locateCards(s);
  let free = 0;
  for (let i = 0; i < s.nCells; i++) if (s.cells[i] === NO_CARD) free++;
  const F = Math.max(1, s.nCells);
  let minSlack = 7;
  let reachable = 0;
  for (let f = 0; f < 4; f++) {
    const o = at + 6 * f;
    if (s.found[f]! >= 13) {
      out[o] = 1;
      reachable++;
      continue;
    }
    const k = s.found[f]! * 4 + f;
    const c = colOf[k]!;
    let cost = 0;
    if (c === -1) out[o + 1] = 1;
    else if (c >= 0) {
      const above = s.len[c]! - 1 - depthOf[k]!;
      out[o + 2] = above === 0 ? 1 : 0;
      out[o + 3] = above / 20;
      cost = digCost(s, c, depthOf[k]!);
    }
    out[o + 4] = cost / F;
    out[o + 5] = cost > free ? 1 : 0;
    if (cost <= free) reachable++;
    minSlack = Math.min(minSlack, free - cost);
  }
  const g = at + 24;
  // Blockers: cards above a lower card of their own suit in their column (not in sequence with it).
  let blockers = 0;
  let stranded = 0;
  for (let c = 0; c < s.nColumns; c++) {
    const b = c * COLUMN_CAP;
    const n = s.len[c]!;
    low.fill(13);
    for (let d = 0; d < n; d++) {
      const card = s.cards[b + d]!;
      const su = suitOf(card);
      const r = s.tables.rel[card]!;
      if (r > low[su]!) {
        blockers++;
        const onto = r * 4 + su + 4;
        // ...and nothing to build on but a flipper: its successor is buried or in a flipper.
        if (onto < 52 && !isTop(s, onto)) stranded++;
      }
      low[su] = Math.min(low[su]!, r);
    }
  }
  let waitBuried = 0;
  let waitFlipper = 0;
  let topRank = 0;
  for (let i = 0; i < s.nCells; i++) {
    const card = s.cells[i]!;
    if (card === NO_CARD) continue;
    const k = relIndex(s, card);
    const onto = k + 4;
    if (s.found[suitOf(card)]! * 4 + suitOf(card) === k) continue;
    if (onto >= 52) topRank++;
    else if (colOf[onto] === -1) waitFlipper++;
    else if (!isTop(s, onto)) waitBuried++;
  }
  out[g] = blockers / 20;
  out[g + 1] = stranded / 20;
  out[g + 2] = Math.max(-7, Math.min(7, minSlack)) / 7;
  out[g + 3] = reachable / 4;
  out[g + 4] = waitBuried / F;
  out[g + 5] = waitFlipper / F;
  out[g + 6] = topRank / F;
  out[g + 7] = (free - stranded) / 20;
}
