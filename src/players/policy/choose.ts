/** The policy agent's choice among the legal actions from its logits (training samples the same way). */
import type { Rng } from "../../util/rng.js";

/**
 * Samples (sample=true) or takes the argmax over the legal actions of one row; returns -1 when
 * no action is legal. Ties in argmax go to the lowest id. `logpOut[0]` receives log π(a).
 */
export function chooseMasked(
  logits: Float32Array,
  offset: number,
  n: number,
  mask: Uint8Array,
  maskOffset: number,
  rng: Rng | undefined,
  logpOut?: Float64Array,
): number {
  let best = -1;
  let max = -Infinity;
  for (let a = 0; a < n; a++)
    if (mask[maskOffset + a] === 1 && logits[offset + a]! > max) {
      max = logits[offset + a]!;
      best = a;
    }
  if (best < 0) return -1;
  let sum = 0;
  for (let a = 0; a < n; a++)
    if (mask[maskOffset + a] === 1) sum += Math.exp(logits[offset + a]! - max);
  let choice = best;
  if (rng) {
    let u = rng.next() * sum;
    choice = -1;
    for (let a = 0; a < n; a++) {
      if (mask[maskOffset + a] !== 1) continue;
      choice = a; // the last legal action absorbs rounding at the top of the range
      u -= Math.exp(logits[offset + a]! - max);
      if (u < 0) break;
    }
  }
  if (logpOut) logpOut[0] = logits[offset + choice]! - max - Math.log(sum);
  return choice;
}
