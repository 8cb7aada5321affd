/**
 * What the two after-state policies (afterstate.ts, safety.ts) share: playing an agent on a list
 * of deals, a training game and its moves, sampling a move from the softmax of its candidates'
 * logits, and a minibatch's advantage scale. One copy, so both trainers sample and normalise in the same order of
 * operations (their runs are byte-reproducible, and resume replays them exactly).
 */
import type { Agent } from "../../agents/agent.js";
import { deal } from "../../engine/deal.js";
import { applyMove } from "../../engine/moves.js";
import { PositionSet } from "../../engine/position-set.js";
import type { Rules } from "../../engine/rules.js";
import type { State } from "../../engine/state.js";
import type { ActionCodec } from "../../env/actions.js";
import { EpisodeRunner } from "../../eval/game-loop.js";
import type { Rng } from "../../util/rng.js";

/** Win rate and mean cards home of one argmax game per seed, through the evaluation's game loop. */
export interface SeedsPlayed {
  games: number;
  wins: number;
  winRate: number;
  meanCardsHome: number;
  seconds: number;
}

/** Plays `agent` once on each seed's deal (the game loop `penguin eval` uses). */
export function playSeeds(
  agent: Agent,
  rules: Rules,
  seeds: readonly number[],
  maxSteps: number,
): SeedsPlayed {
  const t0 = performance.now();
  const runner = new EpisodeRunner(rules, agent);
  let wins = 0;
  let cards = 0;
  for (const s of seeds) {
    const g = runner.play(deal(rules, s), s, maxSteps);
    if (g.won) wins++;
    cards += g.cardsHome;
  }
  const n = seeds.length;
  return {
    games: n,
    wins,
    winRate: n ? wins / n : 0,
    meanCardsHome: n ? cards / n : 0,
    seconds: (performance.now() - t0) / 1000,
  };
}

/**
 * Draws one of the first `count` logits with probability softmax(logits): a single uniform
 * from `rng`, walked down the cumulative weights. Returns the pick, the largest logit and
 * log Σ exp(logit − top), so the caller has the pick's log-probability (logits[pick] − top −
 * logSum) without a second pass.
 */
export function sampleSoftmax(
  logits: Float64Array,
  count: number,
  rng: Rng,
): { pick: number; top: number; logSum: number } {
  let top = -Infinity;
  for (let j = 0; j < count; j++) top = Math.max(top, logits[j]!);
  let sum = 0;
  for (let j = 0; j < count; j++) sum += Math.exp(logits[j]! - top);
  let u = rng.next() * sum;
  let pick = count - 1;
  for (let j = 0; j < count; j++) {
    u -= Math.exp(logits[j]! - top);
    if (u <= 0) {
      pick = j;
      break;
    }
  }
  return { pick, top, logSum: Math.log(sum) };
}

/** Mean and standard deviation (+1e-8) of the advantages of the minibatch perm[m0, m0 + size). */
export function advantageScale(
  adv: Float32Array,
  perm: Int32Array,
  m0: number,
  size: number,
): { mean: number; sd: number } {
  let mean = 0;
  for (let j = 0; j < size; j++) mean += adv[perm[m0 + j]!]!;
  mean /= size;
  let v2 = 0;
  for (let j = 0; j < size; j++) v2 += (adv[perm[m0 + j]!]! - mean) ** 2;
  return { mean, sd: Math.sqrt(v2 / Math.max(1, size - 1)) + 1e-8 };
}

/** A training game: its deal, the positions it has seen (the repeat guard) and its moves. */
export interface TrainingGame {
  seed: number;
  s: State;
  seen: PositionSet;
  moves: number[];
}

/** The game of `seed` with `moves` played (a resume replays the saved games this way). */
export function replayGame(rules: Rules, seed: number, moves: readonly number[]): TrainingGame {
  const g = { seed, s: deal(rules, seed), seen: new PositionSet(), moves: moves.slice() };
  g.seen.addState(g.s);
  for (const m of g.moves) {
    applyMove(g.s, m);
    g.seen.addState(g.s);
  }
  return g;
}

/**
 * Plays `move` in `g` and returns its reward: 1 for a win, plus the shaping γΦ(s′) − Φ(s) with
 * Φ = shaping × cards home / 52 (Φ of an ended game is 0). `end` when won, out of moves or stuck.
 */
export function playTrainingMove(
  g: TrainingGame,
  move: number,
  o: { shaping: number; gamma: number; maxSteps: number },
  codec: ActionCodec,
  scratchMask: Uint8Array,
): { won: boolean; end: boolean; reward: number } {
  const before = (o.shaping * g.s.cardsHome()) / 52;
  applyMove(g.s, move);
  g.moves.push(move);
  g.seen.addState(g.s);
  const won = g.s.isWon();
  const end = won || g.moves.length >= o.maxSteps || codec.fillMask(g.s, scratchMask) === 0;
  const after = end ? 0 : o.gamma * ((o.shaping * g.s.cardsHome()) / 52);
  return { won, end, reward: (won ? 1 : 0) + after - before };
}
