/**
 * The observation: a fixed-size Float32Array describing everything a player sees, with ranks
 * written relative to the base rank (rel = (rank − base + 13) mod 13) so that one network serves
 * deals of all 13 base ranks. Its size depends only on the number of columns C:
 *
 *   size = 52 × (C + 4)  +  C × 7  +  16          (Penguin C=7: 637; FreeCell C=8: 696; Seahaven C=10: 814)
 *
 * Cards, 52 blocks of C + 4 floats, block index suit × 13 + rel (suits C D H S):
 *   [0 .. C−1]  1 in the slot of the column holding the card
 *   [C]         1 when the card is in a flipper (which flipper never matters)
 *   [C + 1]     1 when the card is on its foundation
 *   [C + 2]     depth in its column from the deepest card, / 13 (0 when not in a column)
 *   [C + 3]     cards lying on it, / 13 (0 = at its column's end, or not in a column)
 * Columns, C blocks of 7 floats:
 *   [0] cards in the column / 13   [1] run at its end (cards in build order) / 13
 *   [2] end card's (rel + 1) / 13, 0 when empty   [3 .. 6] end card's suit, one-hot (0 when empty)
 * Globals, 16 floats:
 *   [0 .. 3] cards on each suit's foundation / 13   [4] free flippers / 8   [5] empty columns / C
 *   [6] cards home / 52   [7] flippers the rules give / 8
 *   [8 .. 10] emptyColumn one-hot (below-base, any, none)   [11 .. 13] groupMove one-hot
 *   (unlimited, supermove, single)   [14] build is alternate-color   [15] base is the beak
 * Every value is finite and lies in [0, 5); only lengths and depths over 13 cards exceed 1.
 */
import { NO_CARD } from "../engine/card.js";
import { runLength } from "../engine/moves.js";
import type { Rules } from "../engine/rules.js";
import { COLUMN_CAP, type State } from "../engine/state.js";

export const CARD_FEATURES_EXTRA = 4;
export const COLUMN_FEATURES = 7;
export const GLOBAL_FEATURES = 16;
const INV13 = 1 / 13;

/** Observation size for a rule shape with `columns` tableau columns. */
export function observationSize(columns: number): number {
  return 52 * (columns + CARD_FEATURES_EXTRA) + columns * COLUMN_FEATURES + GLOBAL_FEATURES;
}

export class ObservationEncoder {
  readonly columns: number;
  /** Floats per card block. */
  readonly cardStride: number;
  /** Offset of the column blocks and of the globals. */
  readonly columnsOffset: number;
  readonly globalsOffset: number;
  readonly size: number;
  readonly shape: readonly [number];
  /** Rule features are constants of the rule set: written once per encode from this copy. */
  private readonly ruleFeatures = new Float32Array(9);

  constructor(readonly rules: Rules) {
    this.columns = rules.columns;
    this.cardStride = this.columns + CARD_FEATURES_EXTRA;
    this.columnsOffset = 52 * this.cardStride;
    this.globalsOffset = this.columnsOffset + this.columns * COLUMN_FEATURES;
    this.size = observationSize(this.columns);
    this.shape = [this.size];
    const f = this.ruleFeatures;
    f[0] = rules.cells / 8;
    f[1 + ["below-base", "any", "none"].indexOf(rules.emptyColumn)] = 1;
    f[4 + ["unlimited", "supermove", "single"].indexOf(rules.groupMove)] = 1;
    f[7] = rules.build === "alternate-color" ? 1 : 0;
    f[8] = rules.base === "beak" ? 1 : 0;
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
      if (card === NO_CARD) free++;
      else out[offset + ((card & 3) * 13 + rel[card]!) * K + C] = 1;
    }
    const g = offset + this.globalsOffset;
    let home = 0;
    for (let su = 0; su < 4; su++) {
      // A foundation holds rel 0 .. found−1 of its suit: it is built up from the base rank.
      const n = s.found[su]!;
      home += n;
      for (let r = 0; r < n; r++) out[offset + (su * 13 + r) * K + C + 1] = 1;
      out[g + su] = n * INV13;
    }
    out[g + 4] = free / 8;
    out[g + 5] = empties / C;
    out[g + 6] = home / 52;
    out.set(this.ruleFeatures, g + 7);
  }
}
