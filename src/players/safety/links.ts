/**
 * The links of each card row (`--safety-features links`): what the card rows of cards.ts leave
 * out about the cards a card depends on, and the cards that depend on it. Most fatal moves park a
 * card whose way out runs through another column; the card rows say where its successor lies,
 * not what uncovering that successor costs, nor which parked cards wait behind the card itself.
 * Computed from the layout alone (no search, no move generation), after locateCards.
 *
 * Every number is relative to the card's own suit, so renaming the suits only moves whole rows,
 * as for the card rows.
 */
import { NO_CARD } from "../../engine/card.js";
import { COLUMN_CAP, type State } from "../../engine/state.js";
import { COST_CAP, emptyColumnCost } from "./flippers.js";
import { columnOf, digCost, heightOf, relIndex } from "./structure.js";

// Scratch per call (no allocation per candidate): each card's reach cost, the self-blocked cards
// above it, and the parked cards that wait under or on it.
const reach = new Int32Array(52);
const reachBelow = new Int32Array(52);
const route = new Int32Array(52);
const selfAbove = new Int32Array(52);
const waiting = new Int32Array(52);
const blocked = new Uint8Array(COLUMN_CAP);

/**
 * Writes the LINK_WIDTH numbers of each card at out[at + k·width …] (the rows are already zeroed):
 * 0 the successor's digging cost, when it is buried; 1 the same for the predecessor; 2 the home
 * route (the digging costs of every lower card of its suit still out, summed); 3 what the card
 * would cost to release if it were parked (the cheaper of the home route and the route onto its
 * successor, as flippers.ts counts them); 4 whether that is more than the free flippers; 5 whether
 * digging the card out costs more than the free flippers; 6 the cards above it whose successor
 * lies under them in the same column (they can only go to a flipper); 7 the parked cards whose
 * successor lies under or at this card in its column (digging through it releases them).
 */
export function encodeLinks(
  s: State,
  out: Float32Array,
  at: number,
  width: number,
  free: number,
): void {
  selfAbove.fill(0);
  waiting.fill(0);
  // reachCost (flippers.ts), capped: 0 in a flipper, at the top of a column or home (home is
  // left out of every sum below), else the digging cost.
  for (let k = 0; k < 52; k++) {
    const c = columnOf(k);
    const d = heightOf(k);
    reach[k] = c >= 0 && d !== s.len[c]! - 1 ? Math.min(COST_CAP, digCost(s, c, d)) : 0;
  }
  // successorRoute (flippers.ts) of every card, from the top rank down: a successor in a flipper
  // passes on its own route, one at home costs COST_CAP, one in a column its reach.
  for (let k = 51; k >= 0; k--) {
    const up = k + 4;
    const c = up < 52 ? columnOf(up) : 0;
    route[k] =
      up >= 52
        ? Math.min(COST_CAP, emptyColumnCost(s))
        : c === -1
          ? route[up]!
          : c === -2
            ? COST_CAP
            : reach[up]!;
  }
  // reachBelow[k]: the reach costs of the lower cards of k's suit, summed.
  for (let su = 0; su < 4; su++) {
    let sum = 0;
    for (let k = su; k < 52; k += 4) {
      reachBelow[k] = sum;
      sum += reach[k]!;
    }
  }
  for (let c = 0; c < s.nColumns; c++) {
    const b = c * COLUMN_CAP;
    const n = s.len[c]!;
    for (let d = 0; d < n; d++) {
      const up = relIndex(s, s.cards[b + d]!) + 4;
      blocked[d] = up < 52 && columnOf(up) === c && heightOf(up) < d ? 1 : 0;
    }
    let above = 0;
    for (let d = n - 1; d >= 0; d--) {
      selfAbove[relIndex(s, s.cards[b + d]!)] = above;
      above += blocked[d]!;
    }
  }
  for (let i = 0; i < s.nCells; i++) {
    const card = s.cells[i]!;
    if (card === NO_CARD) continue;
    const up = relIndex(s, card) + 4;
    const c = up < 52 ? columnOf(up) : -2;
    if (c < 0) continue;
    for (let d = heightOf(up); d < s.len[c]!; d++)
      waiting[relIndex(s, s.cards[c * COLUMN_CAP + d]!)]!++;
  }
  const F = Math.max(1, s.nCells);
  for (let k = 0; k < 52; k++) {
    const c = columnOf(k);
    if (c === -2) continue;
    const o = at + k * width;
    const r = k >> 2;
    const su = k & 3;
    if (r < 12 && columnOf(k + 4) >= 0) out[o] = reach[k + 4]! / COST_CAP;
    if (r > 0 && columnOf(k - 4) >= 0) out[o + 1] = reach[k - 4]! / COST_CAP;
    // The reach costs of the suit's lower cards still out, summed (they only add, so capping the
    // whole sum is capping as it grows); none when the foundation is past the card's rank (a
    // foundation by rank, not by suit, can be).
    const found = s.found[su]!;
    const home = found < r ? Math.min(COST_CAP, reachBelow[k]! - reachBelow[found * 4 + su]!) : 0;
    out[o + 2] = home / COST_CAP;
    const release = Math.min(home, route[k]!);
    out[o + 3] = release / COST_CAP;
    out[o + 4] = release > free ? 1 : 0;
    if (c >= 0) {
      out[o + 5] = reach[k]! > free ? 1 : 0;
      out[o + 6] = selfAbove[k]! / 4;
      out[o + 7] = waiting[k]! / F;
    }
  }
}
