/** The players an experiment can compare, and the options that choose them. */
import { HEURISTIC_NAMES } from "../../src/agents/heuristic.js";
import type { PlayerSpec } from "./types.js";

export const PLAYERS = ["random", "greedy", "lookahead", "solver"] as const;
export type PlayerName = (typeof PLAYERS)[number];

/**
 * `tuned` is the strongest greedy preset (src/agents/heuristic.ts; docs/agents.md): "the best
 * greedy preset" of the flipper experiment. `parlett` is the six tips alone.
 */
export const BEST_GREEDY = "tuned";

/** Solver budget: Penguin deals need ~1k positions, FreeCell ~10k; 200k leaves few unknowns. */
export const DEFAULT_MAX_STATES = 200_000;

export function playerOptions(defaultPlayers: readonly PlayerName[]) {
  return {
    players: {
      type: "list",
      default: defaultPlayers,
      choices: PLAYERS,
      help: "players: agents, and the exact solver (solvability)",
    },
    heuristic: {
      type: "choice",
      default: BEST_GREEDY,
      choices: HEURISTIC_NAMES,
      help: "greedy/lookahead weight preset",
    },
    "max-states": {
      type: "int",
      default: DEFAULT_MAX_STATES,
      min: 1000,
      max: 100_000_000,
      help: "solver budget in positions (beyond it a deal is 'unknown')",
    },
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
