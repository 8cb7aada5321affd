/**
 * Games for the replay viewer: an agent's game recorded move by move through the evaluation's own
 * game loop (EpisodeRunner), or the exact solver's line; and where along a game the deal stopped
 * being winnable.
 *
 * Why a binary search finds the first losing move. Let P0 be the deal and Pk the position after
 * move k. If P(k+1) can be won, so can Pk (play move k+1, then that win). So "Pk can be won" is
 * true for k = 0 … j−1 and false from j on: one switch at most, which a binary search over k
 * finds with about log2(moves) solver calls.
 */
import type { Agent, AgentInput } from "../agents/agent.js";
import { createAgent } from "../agents/registry.js";
import { rankOf } from "../engine/card.js";
import { formatBoard } from "../engine/board.js";
import { applyMove, legalMoves, type Move } from "../engine/moves.js";
import { rulesLabel, type Rules } from "../engine/rules.js";
import type { State } from "../engine/state.js";
import { agentSeed, dealState, type DealRef } from "../eval/deals.js";
import { agentLabel } from "../eval/evaluate.js";
import { defaultMaxSteps } from "../env/registry.js";
import { EpisodeRunner } from "../eval/game-loop.js";
import { lineText, solve } from "../solver/search.js";
import type { ReplayData, Winnability } from "./page/replay-data.js";

export interface RecordedGame {
  readonly player: string;
  readonly moves: Move[];
}

/** Plays `start` with `agent` in the evaluation's game loop and keeps every move it played. */
export function recordGame(
  agent: Agent,
  start: State,
  seed: number,
  maxSteps = defaultMaxSteps(start.rules),
): RecordedGame {
  const moves: Move[] = [];
  const recorder: Agent = {
    name: agent.name,
    needsObservation: agent.needsObservation,
    reset: (s, sd) => agent.reset(s, sd),
    act: (input: AgentInput) => {
      const a = agent.act(input);
      // The runner fills actionMoves for every legal action; an illegal choice it rejects itself.
      if (input.actionMoves && input.mask[a] === 1) moves.push(input.actionMoves[a]!);
      return a;
    },
  };
  new EpisodeRunner(start.rules, recorder).play(start, seed, maxSteps);
  return { player: agentLabel(agent, start.rules, maxSteps), moves };
}

export interface SolverBudget {
  /** Positions each solver call may examine (deterministic, unlike a time limit). */
  readonly maxStates: number;
}
export const DEFAULT_REPLAY_STATES = 1_000_000;

/** Where the game `moves` from `start` stopped being winnable (see the file comment). */
export function findLosingMove(
  start: State,
  moves: readonly Move[],
  budget: SolverBudget = { maxStates: DEFAULT_REPLAY_STATES },
): Winnability {
  const positions: State[] = [start.clone()];
  for (const m of moves) {
    const s = positions[positions.length - 1]!.clone();
    applyMove(s, m);
    positions.push(s);
  }
  const verdict = (k: number): "won" | "lost" | "unknown" => {
    const r = solve(positions[k]!, { maxStates: budget.maxStates });
    return r.result === "solved" ? "won" : r.result === "unsolvable" ? "lost" : "unknown";
  };
  const n = moves.length;
  const last = positions[n]!;
  // The end position settles the common cases without a search.
  let hi: number;
  if (last.isWon()) return { kind: "always" };
  if (legalMoves(last).length === 0) hi = n;
  else {
    const v = verdict(n);
    if (v === "won") return { kind: "always" };
    if (v === "unknown") return { kind: "unknown", from: 1, to: n };
    hi = n;
  }
  const v0 = verdict(0);
  if (v0 === "lost") return { kind: "never" };
  if (v0 === "unknown") return { kind: "unknown", from: 1, to: hi };
  // Invariant: P(lo) can be won, P(hi) cannot.
  let lo = 0;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const v = verdict(mid);
    if (v === "won") lo = mid;
    else if (v === "lost") hi = mid;
    else return { kind: "unknown", from: lo + 1, to: hi };
  }
  return { kind: "move", index: hi };
}

/** The beak, when the layout says which card it is: the deepest card of column 1 in a Penguin deal. */
export function beakOf(start: State): number | undefined {
  if (start.rules.base !== "beak" || start.rules.deal !== "penguin" || start.len[0] === 0)
    return undefined;
  const c = start.cards[0]!;
  return rankOf(c) === start.base ? c : undefined;
}

export function dealName(d: DealRef): string {
  return d.kind === "seed" ? `seed ${d.seed}` : `Microsoft #${d.n}`;
}

export interface ReplaySpec {
  readonly rules: Rules;
  readonly deal: DealRef;
  /** Agent name and options as `penguin eval` takes them; ignored with `solverLine`. */
  readonly agent: string;
  readonly agentOptions?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly maxSteps?: number;
  /** Replay the exact solver's winning line instead of the agent's game. */
  readonly solverLine?: boolean;
  /** Solver budget for the "no longer winnable" marker; 0 skips it. */
  readonly maxStates?: number;
}

/** Plays (or solves) the deal and gathers everything the replay page shows. */
export async function buildReplay(spec: ReplaySpec): Promise<ReplayData> {
  const start = dealState(spec.rules, spec.deal);
  const maxStates = spec.maxStates ?? DEFAULT_REPLAY_STATES;
  let player: string;
  let moves: Move[];
  if (spec.solverLine) {
    const r = solve(start, { maxStates: Math.max(maxStates, 1) });
    player = `solver line (${r.result === "solved" ? `${r.moves.length} moves` : r.result === "unsolvable" ? "the deal cannot be won" : "budget ran out"})`;
    moves = r.result === "solved" ? r.moves : [];
  } else {
    const agent = await createAgent(spec.agent, spec.agentOptions ?? {}, spec.rules);
    ({ player, moves } = recordGame(
      agent,
      start,
      agentSeed(spec.deal),
      spec.maxSteps ?? defaultMaxSteps(spec.rules),
    ));
  }
  const end = start.clone();
  for (const m of moves) applyMove(end, m);
  const ending = end.isWon() ? "won" : legalMoves(end).length === 0 ? "stuck" : "step-limit";
  const winnable: Winnability =
    maxStates > 0
      ? findLosingMove(start, moves, { maxStates })
      : { kind: "unknown", from: 0, to: 0 };
  const beak = beakOf(start);
  return {
    format: "penguin-replay 1",
    deal: dealName(spec.deal),
    rules: spec.rules,
    rulesLabel: rulesLabel(spec.rules),
    player,
    won: end.isWon(),
    cardsHome: end.cardsHome(),
    board: formatBoard(start),
    moves: lineText(start, moves),
    ...(beak === undefined ? {} : { beak }),
    winnable,
    ending,
  };
}

/** A one-line summary for the terminal. */
export function replaySummary(d: ReplayData): string {
  const w = d.winnable;
  const loss =
    w?.kind === "move"
      ? `; no longer winnable after move ${w.index} (${d.moves[w.index - 1]})`
      : w?.kind === "never"
        ? "; the deal cannot be won"
        : w?.kind === "unknown" && w.from > 0
          ? `; first losing move between ${w.from} and ${w.to} (solver budget ran out)`
          : "";
  return `${d.deal}, ${d.rulesLabel}, ${d.player}: ${d.won ? "won" : "lost"}, ${d.cardsHome}/52 home, ${d.moves.length} moves${loss}`;
}
