/**
 * The observation: a fixed-size Float32Array describing everything a player sees, with ranks
 * written relative to the base rank (rel = (rank − base + 13) mod 13) so that one network serves
 * deals of all 13 base ranks. It names every card an action id can move: the card at each
 * column's end (column blocks) and the card in each flipper slot (flipper blocks), so that a
 * policy reading it knows what `a4` (flipper a to column 4) or `3a` moves. Its size depends only
 * on the number of columns C:
 *
 *   size = 52 × (C + 4)  +  C × 7  +  8 × 6  +  24        (C=7: 693; C=8: 752; C=10: 870)
 *
 * Cards, 52 blocks of C + 4 floats, block index suit × 13 + rel (suits C D H S):
 *   [0 .. C−1]  1 in the slot of the column holding the card
 *   [C]         1 when the card is in a flipper (which one: see the flipper blocks)
 *   [C + 1]     1 when the card is on a foundation
 *   [C + 2]     depth in its column from the deepest card, / 13 (0 when not in a column)
 *   [C + 3]     cards lying on it, / 13 (0 = at its column's end, or not in a column)
 * Columns, C blocks of 7 floats:
 *   [0] cards in the column / 13   [1] run at its end (cards in build order) / 13
 *   [2] end card's (rel + 1) / 13, 0 when empty   [3 .. 6] end card's suit, one-hot (0 when empty)
 * Flippers, 8 blocks of 6 floats (slots a-h; slots past the rules' count stay 0):
 *   [0] 1 when the slot holds a card   [1] its (rel + 1) / 13   [2 .. 5] its suit, one-hot
 * Globals, 24 floats:
 *   [0 .. 3] cards on foundation f / 13 (suit foundations: C D H S; rank foundations: 1-4)
 *   [4 .. 7] rank foundation f needs next: (rel + 1) / 13, 0 when complete (suit foundations: the
 *            same for the suit's next card)
 *   [8] free flippers / 8   [9] empty columns / C   [10] cards home / 52   [11] flippers the rules give / 8
 *   [12 .. 14] emptyColumn one-hot (below-base, any, none)
 *   [15 .. 18] groupMove one-hot (unlimited, supermove, free-cells, single)
 *   [19 .. 21] build one-hot (suit, alternate-color, none)   [22] base is the beak
 *   [23] foundations build by rank (Stalactites)
 * Every value is finite and lies in [0, 5); only lengths and depths over 13 cards exceed 1.
 */
import { NO_CARD } from "../engine/card.js";
import { runLength } from "../engine/moves.js";
import { BUILD_RULES, EMPTY_COLUMN_RULES, type Rules } from "../engine/rules.js";
import { COLUMN_CAP, MAX_CELLS, type State } from "../engine/state.js";

const CARD_FEATURES_EXTRA = 4;
const COLUMN_FEATURES = 7;
const FLIPPER_FEATURES = 6;
const GLOBAL_FEATURES = 24;
const INV13 = 1 / 13;
/** Order of the group-move one-hot; spelled out so that the layout never follows a list reordering. */
const GROUP_ORDER = ["unlimited", "supermove", "free-cells", "single"] as const;

/** Observation size for a rule shape with `columns` tableau columns. */
export function observationSize(columns: number): number {
  return (
    52 * (columns + CARD_FEATURES_EXTRA) +
    columns * COLUMN_FEATURES +
    MAX_CELLS * FLIPPER_FEATURES +
    GLOBAL_FEATURES
  );
}

export class ObservationEncoder {
  readonly columns: number;
  /** Floats per card block. */
  readonly cardStride: number;
  /** Offset of the column blocks, of the flipper blocks and of the globals. */
  readonly columnsOffset: number;
  readonly flippersOffset: number;
  readonly globalsOffset: number;
  readonly size: number;
  readonly shape: readonly [number];
  /** Rule features are constants of the rule set: written once per encode from this copy (globals 11..23). */
  private readonly ruleFeatures = new Float32Array(13);

  constructor(readonly rules: Rules) {
    this.columns = rules.columns;
    this.cardStride = this.columns + CARD_FEATURES_EXTRA;
    this.columnsOffset = 52 * this.cardStride;
    this.flippersOffset = this.columnsOffset + this.columns * COLUMN_FEATURES;
    this.globalsOffset = this.flippersOffset + MAX_CELLS * FLIPPER_FEATURES;
    this.size = observationSize(this.columns);
    this.shape = [this.size];
    const f = this.ruleFeatures;
    f[0] = rules.cells / 8;
    f[1 + EMPTY_COLUMN_RULES.indexOf(rules.emptyColumn)] = 1;
    f[4 + GROUP_ORDER.indexOf(rules.groupMove)] = 1;
    f[8 + BUILD_RULES.indexOf(rules.build)] = 1;
    f[11] = rules.base === "beak" ? 1 : 0;
    f[12] = rules.foundations === "rank" ? 1 : 0;
  }

  /** Writes the observation of `s` into out[offset .. offset + size). Allocates nothing. */
  encode(s: State, out: Float32Array, offset = 0): void {
    const C = this.columns;
    const K = this.cardStride;
    const rel = s.tables.rel;
    const cards = s.cards;
    out.fill(0, offset, offset + this.size);
    let empties = 0;
    for (let c = 0; c < C; c++) {
      const len = s.len[c]!;
      const colAt = offset + this.columnsOffset + c * COLUMN_FEATURES;
      if (len === 0) {
        empties++;
        continue;
      }
      const b = c * COLUMN_CAP;
      for (let d = 0; d < len; d++) {
        const card = cards[b + d]!;
        const at = offset + ((card & 3) * 13 + rel[card]!) * K;
        out[at + c] = 1;
        out[at + C + 2] = d * INV13;
        out[at + C + 3] = (len - 1 - d) * INV13;
      }
      const top = cards[b + len - 1]!;
      out[colAt] = len * INV13;
      out[colAt + 1] = runLength(s, c) * INV13;
      out[colAt + 2] = (rel[top]! + 1) * INV13;
      out[colAt + 3 + (top & 3)] = 1;
    }
    let free = 0;
    for (let i = 0; i < s.nCells; i++) {
      const card = s.cells[i]!;
      if (card === NO_CARD) {
        free++;
        continue;
      }
      out[offset + ((card & 3) * 13 + rel[card]!) * K + C] = 1;
      const at = offset + this.flippersOffset + i * FLIPPER_FEATURES;
      out[at] = 1;
      out[at + 1] = (rel[card]! + 1) * INV13;
      out[at + 2 + (card & 3)] = 1;
    }
    const g = offset + this.globalsOffset;
    let home = 0;
    const byRank = s.tables.rankHome;
    for (let f = 0; f < 4; f++) {
      const n = s.found[f]!;
      home += n;
      if (byRank)
        for (let k = 0; k < n; k++) {
          const card = s.pile[f * 13 + k]!;
          out[offset + ((card & 3) * 13 + rel[card]!) * K + C + 1] = 1;
        }
      // A suit foundation holds rel 0 .. found−1 of its suit: it is built up from the base rank.
      else for (let r = 0; r < n; r++) out[offset + (f * 13 + r) * K + C + 1] = 1;
      out[g + f] = n * INV13;
      const needs = s.foundationNeeds(f);
      out[g + 4 + f] = needs === NO_CARD ? 0 : (((needs - s.base + 13) % 13) + 1) * INV13;
    }
    out[g + 8] = free / 8;
    out[g + 9] = empties / C;
    out[g + 10] = home / 52;
    out.set(this.ruleFeatures, g + 11);
  }
}
