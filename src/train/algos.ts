/**
 * The algorithms of `penguin train <algo>`, each with its one typed options spec (in the
 * algorithm's own options module): the command builds its flags, its help and its checks from
 * these. No TensorFlow.js is loaded here, so `penguin --help` stays fast.
 */
import type { OptionSpecs } from "../options/spec.js";
import { ES_SPEC } from "./es/options.js";
import { PPO_SPEC } from "./ppo/options.js";
import { SAFETY_SPEC } from "./safety/options.js";

export type AlgoName = "ppo" | "es" | "safety";

export interface AlgoSpec {
  readonly name: AlgoName;
  readonly describe: string;
  /** Its own flags (the command adds --out, --resume and, with `rules`, the rule options). */
  readonly options: OptionSpecs;
  /** Plays deals, so it takes the rule options. */
  readonly rules: boolean;
  /** Flags a resumed run may change (any other is refused). */
  readonly resumable: readonly string[];
  /** Where it is documented. */
  readonly docs: string;
}

export const ALGOS: readonly AlgoSpec[] = [
  {
    name: "ppo",
    describe:
      "PPO from scratch: one shared network scores each legal move from the position after it",
    docs: "docs/train.md",
    rules: true,
    resumable: [],
    options: PPO_SPEC,
  },
  {
    name: "es",
    describe: "evolution strategies on the linear action-scorer, from greedy(tuned)'s weights",
    docs: "docs/train.md",
    rules: true,
    resumable: ["max-minutes", "es-generations", "workers"],
    options: ES_SPEC,
  },
  {
    name: "safety",
    describe:
      "the move-safety network on penguin dataset labels; the defaults are the recipe of the shipped network",
    docs: "docs/train.md",
    rules: false,
    resumable: [],
    options: SAFETY_SPEC,
  },
];
export const ALGO_NAMES = ALGOS.map((a) => a.name);

export function algoSpec(name: string): AlgoSpec | undefined {
  return ALGOS.find((a) => a.name === name);
}
