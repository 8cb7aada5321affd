/** The players an experiment can compare, and the options that choose them. */
import { HEURISTIC_NAMES } from "../../src/agents/heuristic.js";
import type { PlayerSpec } from "./types.js";
import { shared } from "./options.js";

export const PLAYERS = ["random", "greedy", "lookahead", "solver"] as const;
export type PlayerName = (typeof PLAYERS)[number];

/**
 * `tuned` is the strongest greedy preset (src/agents/heuristic.ts; docs/agents.md): "the best
 * greedy preset" of the flipper experiment. `parlett` is the six tips alone.
 */
export const BEST_GREEDY = "tuned";

/** Solver budget: Penguin deals need ~1k positions, FreeCell ~10k; 200k leaves few unknowns. */
export const DEFAULT_MAX_STATES = 200_000;

/** The players options of every experiment, from the options registry (--agent, --heuristic, --max-states). */
export function playerOptions(defaultPlayers: readonly PlayerName[]) {
  return {
    agent: shared("agent", {
      default: defaultPlayers,
      list: true,
      choices: PLAYERS,
      detail: "a comma list: each plays every deal (solver: the solvable share)",
    }),
    heuristic: shared("heuristic", { default: BEST_GREEDY, choices: HEURISTIC_NAMES }),
    "max-states": shared("max-states", { default: DEFAULT_MAX_STATES, detail: "per deal" }),
  } as const;
}

export function playerSpec(
  name: PlayerName,
  o: { heuristic: string; "max-states": number },
): PlayerSpec {
  switch (name) {
    case "solver":
      return { kind: "solver", maxStates: o["max-states"] };
    case "random":
      return { kind: "agent", agent: "random", options: {} };
    default:
      return { kind: "agent", agent: name, options: { heuristic: o.heuristic } };
  }
}
