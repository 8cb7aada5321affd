/**
 * The network's input. "env" is the environment's observation alone (ObservationEncoder).
 * "env+slots" (default) appends what the action ids are indexed by but the observation does
 * not say: which card sits in each flipper slot and at the end of each column (one-hot over the
 * 52 cards, indexed suit × 13 + rank relative to the base, as in the observation), and the legal
 * mask itself. Actions name a source flipper by its slot (`a4` = flipper a to column 4), so
 * without the slot contents the net cannot tell which card a flipper move would play.

 */
import { NO_CARD } from "../../engine/card.js";
import type { Rules } from "../../engine/rules.js";
import { COLUMN_CAP, type State } from "../../engine/state.js";
import { ActionCodec } from "../../env/actions.js";
import { ObservationEncoder } from "../../env/observation.js";

export type FeatureKind = "env" | "env+slots";
export const FEATURE_KINDS: readonly FeatureKind[] = ["env", "env+slots"];

export class PolicyFeatures {
  readonly env: ObservationEncoder;
  readonly size: number;
  private readonly actions: number;

  constructor(
    readonly rules: Rules,
    readonly kind: FeatureKind,
  ) {
    this.env = new ObservationEncoder(rules);
    this.actions = new ActionCodec(rules).n;
    this.size =
      this.env.size + (kind === "env" ? 0 : (rules.cells + rules.columns) * 52 + this.actions);
  }

  /** Writes the input row for position s with legal mask `mask` (row maskOffset) at out[offset..]. */
  encode(s: State, mask: Uint8Array, maskOffset: number, out: Float32Array, offset: number): void {
    this.env.encode(s, out, offset);
    if (this.kind === "env") return;
    let at = offset + this.env.size;
    const extra = this.size - this.env.size;
    out.fill(0, at, at + extra);
    const rel = s.tables.rel;
    for (let i = 0; i < s.nCells; i++) {
      const c = s.cells[i]!;
      if (c !== NO_CARD) out[at + (c & 3) * 13 + rel[c]!] = 1;
      at += 52;
    }
    for (let col = 0; col < s.nColumns; col++) {
      const n = s.len[col]!;
      if (n > 0) {
        const c = s.cards[col * COLUMN_CAP + n - 1]!;
        out[at + (c & 3) * 13 + rel[c]!] = 1;
      }
      at += 52;
    }
    for (let a = 0; a < this.actions; a++) out[at + a] = mask[maskOffset + a]!;
  }
}
