/**
 * The lookahead teacher of the choice objective (`--choice-target lookahead`). A safety label says
 * which moves keep the deal winnable, but not which of them makes progress: among the safe moves a
 * network plays by greedy's score, and greedy wanders where the 3-move lookahead does not. Here
 * each winnable move's target weight is e^((V − V_best) / T), with V the value lookahead's search
 * gives that move, so the network learns lookahead's preference among the safe moves and plays it
 * with one forward pass per move.
 */
import { LookaheadAgent } from "../../agents/lookahead.js";
import type { Rules } from "../../engine/rules.js";
import type { SafetyData } from "./dataset.js";
import { eachWinnable } from "./choice.js";

/** Lookahead values above this (a win within its reach) count as this: one win is enough to be sure of. */
const CAP = 1000;
/** Below this (a dead end within its reach): weight e^(−(V_best − FLOOR)/T) is 0 for any sensible T. */
const FLOOR = -1000;

/**
 * For each winnable move row: lookahead(tuned, depth 3, width 3)'s value of that move in its
 * position, clipped to [FLOOR, CAP]; NaN for other rows. The search sees only its own path (the
 * game's earlier positions are not in the dataset), so a value may count a move back to an earlier
 * position of the game the way a fresh one counts.
 */
export function lookaheadValues(
  data: SafetyData,
  first: Int32Array,
  rules: Rules,
  wanted: (d: number) => boolean,
): Float64Array {
  const out = new Float64Array(data.label.length).fill(NaN);
  const teacher = new LookaheadAgent({});
  const value = new Float64Array(512);
  eachWinnable(data, first, rules, wanted, (_d, s, moves, rows, n) => {
    teacher.reset(s);
    teacher.valuesAt(s, moves, n, value);
    for (let i = 0; i < n; i++) out[rows[i]!] = Math.min(CAP, Math.max(FLOOR, value[i]!));
  });
  return out;
}
