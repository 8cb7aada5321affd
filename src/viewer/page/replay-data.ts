/**
 * What a replay file carries: the start position (in the board text format), the moves in play
 * notation and the labels for the header. The page rebuilds every position from these with the
 * engine itself, so what it shows is what the engine played.
 */
import type { Rules } from "../../engine/rules.js";

/**
 * Where the game stopped being winnable, by the exact solver on the positions along it:
 * - `never`: the deal itself cannot be won;
 * - `move`: positions 0 … index−1 can be won, the position after move `index` (1-based) cannot;
 * - `always`: every position along the game can still be won (a won game, or a step limit hit);
 * - `unknown`: the solver's budget ran out; the first losing move lies in `from` … `to` (1-based),
 *   or the search was not run (`from` = 0).
 */
export type Winnability =
  | { readonly kind: "never" }
  | { readonly kind: "move"; readonly index: number }
  | { readonly kind: "always" }
  | { readonly kind: "unknown"; readonly from: number; readonly to: number };

export interface ReplayData {
  readonly format: "penguin-replay 1";
  /** `seed 17`, `Microsoft #5`. */
  readonly deal: string;
  readonly rules: Rules;
  readonly rulesLabel: string;
  readonly player: string;
  readonly won: boolean;
  readonly cardsHome: number;
  /** The start position, as `formatBoard` writes it. */
  readonly board: string;
  /** The moves, each as `moveToString` writes it in its position. */
  readonly moves: readonly string[];
  /** The beak (card id), drawn with a badge, when the layout tells which card it is. */
  readonly beak?: number;
  readonly winnable?: Winnability;
  /** Why the game ended: won, no legal move, or the step limit. */
  readonly ending: "won" | "stuck" | "step-limit";
}
