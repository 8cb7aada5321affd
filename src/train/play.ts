/**
 * Plays the policy network on many deals at once (one network call per step for every game
 * still running) — the evaluation used during training and for the final win rate.
 *
 * The never-repeat guard (on by default, as in the greedy agents): before choosing, every legal
 * action whose result is a position already seen in this game is masked out. A game never needs
 * to revisit a position (cut the cycle out of any winning line and it still wins), so the guard
 * never removes a win; it only stops the net from shuffling cards between flippers forever. When
 * every legal action repeats, the guard lets them all through (as the greedy agent does). A game
 * ends when it is won, when no legal action is left, or after maxSteps (default 1000, as in
 * `penguin eval`).
 */
import { deal } from "../engine/deal.js";
import { applyMove, MAX_MOVES, undoMove } from "../engine/moves.js";
import type { Rules } from "../engine/rules.js";
import type { State } from "../engine/state.js";
import { ActionCodec } from "../env/actions.js";
import { PolicyFeatures } from "./features.js";
import { chooseMasked } from "./masked.js";
import { inferBatch, type PolicyNet } from "./model.js";
import { Rng } from "./rng.js";
import { wilson } from "../util/wilson.js";

export interface PlayOptions {
  maxSteps: number;
  repeatGuard: boolean;
  /** Sample from the policy instead of taking the argmax. */
  sample: boolean;
  /** Seed of the sampling generator (only used with sample). */
  seed: number;
  /** Games played side by side (rows of one network call). */
  batch: number;
  /** Keep each game's action ids in its result (DAgger). */
  recordActions?: boolean;
}

export const PLAY_DEFAULTS: PlayOptions = { maxSteps: 1000, repeatGuard: true, sample: false, seed: 0, batch: 250 };

export interface GameResult {
  seed: number;
  won: boolean;
  cardsHome: number;
  moves: number;
  /** Action ids played, with recordActions. */
  actions?: number[];
}

export interface PlaySummary {
  games: number;
  wins: number;
  winRate: number;
  meanCardsHome: number;
  results: GameResult[];
  seconds: number;
}

/** A 53-bit key from the engine's 64-bit Zobrist hash (collisions are negligible in one game). */
export function positionKey(s: State): number {
  return (s.hashHi & 0x1fffff) * 4294967296 + (s.hashLo >>> 0);
}

/**
 * Clears mask bits of actions that lead to a position in `seen`. `actionMoves` holds the engine
 * move of each legal action (ActionCodec.fillMask). `s` is changed and restored (apply + undo).
 * Returns the number of actions left.
 */
export function guardMask(s: State, mask: Uint8Array, maskOffset: number, n: number, actionMoves: Int32Array, seen: ReadonlySet<number>): number {
  let left = 0;
  for (let a = 0; a < n; a++) {
    if (mask[maskOffset + a] !== 1) continue;
    const m = actionMoves[a]!;
    applyMove(s, m);
    const repeat = seen.has(positionKey(s));
    undoMove(s, m);
    if (repeat) mask[maskOffset + a] = 0;
    else left++;
  }
  return left;
}

/** Plays one game per seed with the network; returns per-game results and the win rate. */
export function playPolicy(net: PolicyNet, rules: Rules, seeds: readonly number[], options: Partial<PlayOptions> = {}): PlaySummary {
  const o = { ...PLAY_DEFAULTS, ...options };
  const t0 = performance.now();
  const codec = new ActionCodec(rules);
  const encoder = new PolicyFeatures(rules, net.config.features ?? "env");
  const A = codec.n;
  const O = encoder.size;
  const B = Math.max(1, Math.min(o.batch, seeds.length));
  const obs = new Float32Array(B * O);
  const masks = new Uint8Array(B * A);
  const logits = new Float32Array(B * A);
  const moves = new Int32Array(Math.max(A, MAX_MOVES));
  const rowGame = new Int32Array(B);
  const rng = o.sample ? new Rng(o.seed) : undefined;
  const results: GameResult[] = new Array(seeds.length);

  interface Live {
    index: number;
    state: State;
    seen: Set<number>;
    steps: number;
    actions?: number[];
  }
  let next = 0;
  const live: Live[] = [];
  const start = (): void => {
    while (live.length < B && next < seeds.length) {
      const state = deal(rules, seeds[next]!);
      live.push({ index: next, state, seen: new Set([positionKey(state)]), steps: 0, actions: o.recordActions ? [] : undefined });
      next++;
    }
  };
  const finish = (g: Live): void => {
    results[g.index] = { seed: seeds[g.index]!, won: g.state.isWon(), cardsHome: g.state.cardsHome(), moves: g.steps, actions: g.actions };
  };
  const actionMoves: Int32Array[] = Array.from({ length: B }, () => new Int32Array(A));
  start();
  while (live.length > 0) {
    // Encode every running game; games with nothing left to play end here.
    let rows = 0;
    for (let i = 0; i < live.length; ) {
      const g = live[i]!;
      const mOff = rows * A;
      const mask = masks.subarray(mOff, mOff + A);
      const legal = g.state.isWon() || g.steps >= o.maxSteps ? 0 : codec.fillMask(g.state, mask, moves);
      if (legal > 0) {
        actionMoves[rows]!.set(moves.subarray(0, A));
        // The net sees the plain legal mask; the guard only narrows its choice.
        encoder.encode(g.state, masks, mOff, obs, rows * O);
        // As in the greedy agent: when every legal move repeats a position, any of them may be played.
        if (o.repeatGuard && guardMask(g.state, masks, mOff, A, moves, g.seen) === 0) codec.fillMask(g.state, mask);
      }
      if (legal === 0) {
        finish(g);
        live[i] = live[live.length - 1]!;
        live.pop();
        continue;
      }
      rowGame[rows] = i;
      rows++;
      i++;
    }
    if (rows === 0) {
      start();
      continue;
    }
    inferBatch(net, obs, rows, logits);
    for (let r = 0; r < rows; r++) {
      const g = live[rowGame[r]!]!;
      const a = chooseMasked(logits, r * A, A, masks, r * A, rng);
      applyMove(g.state, actionMoves[r]![a]!);
      g.actions?.push(a);
      g.steps++;
      g.seen.add(positionKey(g.state));
    }
    start();
  }
  const wins = results.filter((r) => r.won).length;
  return {
    games: seeds.length,
    wins,
    winRate: seeds.length ? wins / seeds.length : 0,
    meanCardsHome: seeds.length ? results.reduce((s, r) => s + r.cardsHome, 0) / seeds.length : 0,
    results,
    seconds: (performance.now() - t0) / 1000,
  };
}

/** Wilson score 95% interval for k successes in n trials. */
export function wilson95(k: number, n: number): [number, number] {
  const w = wilson(k, n);
  return [w.low, w.high];
}
