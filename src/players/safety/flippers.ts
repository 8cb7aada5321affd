/**
 * What each parked card costs. A card in a flipper leaves only by one of three routes: onto the
 * card it builds on (the next higher card of its suit) once that card is a column's top card;
 * home, once its foundation has taken every lower card of its suit; or, for the top rank, onto an
 * empty column (which in Penguin takes nothing else). For every occupied flipper this counts the
 * flippers the cheapest route would take to open, from the layout alone (no search), and whether
 * that route waits on another flipper card. The values are pooled (counts over thresholds, sum,
 * largest two), so the group does not depend on the order of the flippers, nor on which suit is
 * which: suit renaming leaves it as it is.
 *
 * Most fatal moves park a card while flippers are still free; the structural features say how
 * many flippers each foundation's next card needs, not how long the cards already parked will
 * stay. This group is the flippers' side of that balance: what is owed against what is free.
 */
import { NO_CARD, suitOf } from "../../engine/card.js";
import type { State } from "../../engine/state.js";
import {
  columnOf,
  digCost,
  heightOf,
  isTop,
  locateCards,
  locateEpoch,
  relIndex,
} from "./structure.js";

/** Numbers in the group (see encodeFlipperCosts). */
export const FLIPPER_COST_WIDTH = 16;

/** A route's cost never counts above this many flippers (more than a Penguin deal has). */
export const COST_CAP = 8;

/** Release cost and chain flag of each flipper, written by releaseCosts (no allocation per call). */
const costs = new Int32Array(8);
const chained = new Uint8Array(8);
const needs = new Int32Array(8);
const homeCosts = new Int32Array(8);

/** Flippers needed to make the card k reachable where it lies: 0 on top of a column or in a flipper. */
export function reachCost(s: State, k: number): number {
  const c = columnOf(k);
  if (c === -1 || isTop(s, k)) return 0;
  if (c === -2) return COST_CAP;
  return digCost(s, c, heightOf(k));
}

/** emptyColumnCost's answer and the locateCards epoch it holds for (asked once per card, the same each time). */
let emptyKept = 0;
let emptyEpoch = -1;

/** Cheapest way to open an empty column (for a top-rank card): 0 when one is empty, else the emptiest column's digging cost. */
export function emptyColumnCost(s: State): number {
  if (emptyEpoch === locateEpoch()) return emptyKept;
  let best = 0;
  if (s.emptyColumns() === 0) {
    best = COST_CAP;
    for (let c = 0; c < s.nColumns; c++) best = Math.min(best, digCost(s, c, -1));
  }
  emptyKept = best;
  emptyEpoch = locateEpoch();
  return best;
}

/** Set by successorRoute: the route runs through another flipper card. */
let routeChained = false;

/**
 * Cost of the route "onto its successor" for the card k (relative index); sets routeChained
 * when it runs through another flipper card (a successor in a flipper must itself leave onto
 * its own successor, or an empty column, first). Ranks rise along the chain, so it ends within
 * 13 steps.
 */
export function successorRoute(s: State, k: number): number {
  routeChained = false;
  let t = k;
  for (;;) {
    const up = t + 4;
    if (up >= 52) return Math.min(COST_CAP, emptyColumnCost(s));
    const c = columnOf(up);
    if (c === -1) {
      routeChained = true;
      t = up;
      continue;
    }
    // A successor at home means the card itself could go home: that route is counted apart.
    if (c === -2) return COST_CAP;
    return Math.min(COST_CAP, reachCost(s, up));
  }
}

/**
 * Fills costs/chained/needs/homeCosts for the occupied flippers of s (after locateCards), in
 * flipper order; returns how many there are.
 */
export function releaseCosts(s: State): number {
  let n = 0;
  for (let i = 0; i < s.nCells; i++) {
    const card = s.cells[i]!;
    if (card === NO_CARD) continue;
    const k = relIndex(s, card);
    const su = suitOf(card);
    const r = k >> 2;
    // Home: every lower card of the suit still out must be reached, in turn.
    const need = r - s.found[su]!;
    let home = 0;
    for (let q = s.found[su]!; q < r && home < COST_CAP; q++) home += reachCost(s, q * 4 + su);
    home = Math.min(COST_CAP, home);
    const up = successorRoute(s, k);
    costs[n] = Math.min(home, up);
    chained[n] = routeChained && up < home ? 1 : 0;
    needs[n] = need;
    homeCosts[n] = home;
    n++;
  }
  return n;
}

/** The release cost and chain flag of the j-th occupied flipper after releaseCosts (for tests and tools). */
export const releaseCostOf = (
  j: number,
): { cost: number; chain: boolean; need: number; home: number } => ({
  cost: costs[j]!,
  chain: chained[j] === 1,
  need: needs[j]!,
  home: homeCosts[j]!,
});

/**
 * Writes FLIPPER_COST_WIDTH numbers for s at out[at …]:
 * 0 parked cards; 1–4 of them, those whose release costs 0, ≥ 1, ≥ 2, ≥ 3 flippers; 5 the sum
 * of the costs; 6–7 the largest two; 8 parked cards whose cheapest route waits on another
 * flipper card; 9 those costing more than the free flippers; 10 free flippers minus the parked
 * cards that cost anything; 11 free flippers minus the sum of the costs (the flipper debt);
 * 12 the cards still needed below the parked ones; 13 parked cards that could go home now;
 * 14 top-rank parked cards while no column is empty; 15 the sum of the home routes' costs.
 */
export function encodeFlipperCosts(s: State, out: Float32Array, at: number, located = false): void {
  out.fill(0, at, at + FLIPPER_COST_WIDTH);
  if (!located) locateCards(s);
  const n = releaseCosts(s);
  const F = Math.max(1, s.nCells);
  const free = s.nCells - n;
  let zero = 0;
  let ge1 = 0;
  let ge2 = 0;
  let ge3 = 0;
  let sum = 0;
  let max1 = 0;
  let max2 = 0;
  let chains = 0;
  let over = 0;
  let needSum = 0;
  let homeNow = 0;
  let homeSum = 0;
  let topWaiting = 0;
  const noEmpty = s.emptyColumns() === 0;
  for (let j = 0; j < n; j++) {
    const c = costs[j]!;
    if (c === 0) zero++;
    if (c >= 1) ge1++;
    if (c >= 2) ge2++;
    if (c >= 3) ge3++;
    sum += c;
    if (c > max1) {
      max2 = max1;
      max1 = c;
    } else if (c > max2) max2 = c;
    chains += chained[j]!;
    if (c > free) over++;
    needSum += needs[j]!;
    if (needs[j] === 0) homeNow++;
    homeSum += homeCosts[j]!;
  }
  for (let i = 0; i < s.nCells; i++) {
    const card = s.cells[i]!;
    if (card !== NO_CARD && noEmpty && s.tables.rel[card] === 12 && s.found[suitOf(card)]! < 12)
      topWaiting++;
  }
  out[at] = n / F;
  out[at + 1] = zero / F;
  out[at + 2] = ge1 / F;
  out[at + 3] = ge2 / F;
  out[at + 4] = ge3 / F;
  out[at + 5] = sum / 20;
  out[at + 6] = max1 / COST_CAP;
  out[at + 7] = max2 / COST_CAP;
  out[at + 8] = chains / F;
  out[at + 9] = over / F;
  out[at + 10] = Math.max(-7, Math.min(7, free - ge1)) / 7;
  out[at + 11] = Math.max(-20, Math.min(7, free - sum)) / 7;
  out[at + 12] = needSum / 40;
  out[at + 13] = homeNow / F;
  out[at + 14] = topWaiting / F;
  out[at + 15] = homeSum / 20;
}
