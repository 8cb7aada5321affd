/**
 * Packed positions of the safety dataset (80 bytes each): base, found[4], cells[8], len[10], then
 * the columns' cards in order. Positions are kept packed and decoded per minibatch, which costs far
 * less than the network step and keeps memory small.
 */
import type { Rules } from "../../engine/rules.js";
import { COLUMN_CAP, State, tablesFor } from "../../engine/state.js";

export const PACK_STRIDE = 80;

export function packState(s: State, out: Uint8Array, at: number): void {
  out[at] = s.base;
  for (let i = 0; i < 4; i++) out[at + 1 + i] = s.found[i]!;
  for (let i = 0; i < 8; i++) out[at + 5 + i] = s.cells[i]!;
  let k = at + 23;
  for (let c = 0; c < 10; c++) {
    const n = c < s.nColumns ? s.len[c]! : 0;
    out[at + 13 + c] = n;
    for (let d = 0; d < n; d++) out[k++] = s.cards[c * COLUMN_CAP + d]!;
  }
}

/** Writes a packed position into `s` (whose base must match; hashes are not kept). */
export function unpackState(src: Uint8Array, at: number, s: State): void {
  for (let i = 0; i < 4; i++) s.found[i] = src[at + 1 + i]!;
  for (let i = 0; i < 8; i++) s.cells[i] = src[at + 5 + i]!;
  let k = at + 23;
  for (let c = 0; c < s.nColumns; c++) {
    const n = src[at + 13 + c]!;
    s.len[c] = n;
    for (let d = 0; d < n; d++) s.cards[c * COLUMN_CAP + d] = src[k++]!;
  }
}

/** Scratch positions per base rank, to decode packed positions into. */
export class Unpacker {
  private readonly byBase = new Map<number, State>();
  constructor(private readonly rules: Rules) {}
  state(base: number): State {
    let s = this.byBase.get(base);
    if (!s) {
      s = new State(this.rules, base, tablesFor(this.rules, base));
      this.byBase.set(base, s);
    }
    return s;
  }
}
