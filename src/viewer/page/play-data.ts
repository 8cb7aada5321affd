/** What the play page and its server exchange (JSON). */
import type { Rules } from "../../engine/rules.js";

/** The rule options as the command line spells them (`rules`, `cells`, …), sent back with each request. */
export type RuleQuery = Readonly<Record<string, string>>;

export interface DealData {
  /** `seed 17`, `Microsoft #5`. */
  readonly deal: string;
  /** The deal as the form asks for it: a seed or a Microsoft number. */
  readonly kind: "seed" | "ms";
  readonly number: string;
  readonly rules: Rules;
  readonly rulesLabel: string;
  readonly query: RuleQuery;
  /** The start position, as `formatBoard` writes it. */
  readonly board: string;
  readonly beak?: number;
}

export interface PlayData {
  readonly presets: readonly string[];
  readonly first: DealData;
}

/** The server's answer to a hint request: the solver's next move, or why there is none. */
export type HintAnswer =
  | { readonly move: string; readonly line: number }
  | { readonly message: string };

/** Any refused request: one line saying why. */
export interface ErrorAnswer {
  readonly error: string;
}
