/**
 * How the evolution-strategies trainer scores a weight vector: the linear action-scorer (a weight
 * per column of the scorer's action rows, src/train/scorer/features.ts) plays deals exactly as
 * `penguin eval --agent scorer` plays them (argmax over the legal, non-repeating actions, lowest
 * id on ties), and each deal earns 1 for a win, else a little partial credit for cards home, so
 * that generations where few deals are won still tell better weights from worse.
 */
import { deal } from "../../engine/deal.js";
import { applyMove } from "../../engine/moves.js";
import type { Rules } from "../../engine/rules.js";
import type { State } from "../../engine/state.js";
import { PositionSet } from "../../agents/position-set.js";
import { ActionCodec } from "../../env/actions.js";
import { ScorerView } from "../scorer/agent.js";
import { ROW } from "../scorer/features.js";

/** Credit of a lost deal per card home, as a share of a win's 1 (52 cards home in a loss: 0.3). */
export const CARD_CREDIT = 0.3 / 52;

export interface GameResult {
  won: boolean;
  cardsHome: number;
}

/** Plays deals with linear weights over the action rows; one per thread, reused for every game. */
export class LinearPlayer {
  private readonly view: ScorerView;
  private readonly seen = new PositionSet();
  /** Scores a row as w · row; the same argmax as the scorer agent's (ScorerView.choose). */
  private readonly linear: { w: Float64Array; logit(rows: Float32Array, offset: number): number } = {
    w: new Float64Array(ROW),
    logit(rows: Float32Array, offset: number): number {
      let v = 0;
      for (let j = 0; j < ROW; j++) v += rows[offset + j]! * this.w[j]!;
      return v;
    },
  };
  /** Dealt start positions by seed: the same few deals are replayed by every member of a generation. */
  private readonly starts = new Map<number, State>();

  constructor(readonly rules: Rules) {
    this.view = new ScorerView(new ActionCodec(rules));
  }

  play(w: Float64Array, seed: number, maxSteps: number): GameResult {
    if (w.length !== ROW) throw new Error(`weights must have ${ROW} entries, got ${w.length}`);
    let start = this.starts.get(seed);
    if (!start) {
      if (this.starts.size >= 4096) this.starts.clear();
      start = deal(this.rules, seed);
      this.starts.set(seed, start);
    }
    const s = start.clone();
    const { view, seen } = this;
    seen.clear();
    seen.add(s.hashLo, s.hashHi);
    this.linear.w = w;
    for (let step = 0; step < maxSteps && !s.isWon(); step++) {
      if (view.look(s, seen) === 0) break;
      const best = view.choose(this.linear);
      applyMove(s, view.actionMoves[best]!);
      seen.add(s.hashLo, s.hashHi);
    }
    return { won: s.isWon(), cardsHome: s.cardsHome() };
  }

  /** Sum over `seeds` of 1 per win, CARD_CREDIT per card home in a loss; and the number of wins. */
  score(w: Float64Array, seeds: readonly number[], maxSteps: number): { fitness: number; wins: number } {
    let fitness = 0;
    let wins = 0;
    for (const seed of seeds) {
      const g = this.play(w, seed, maxSteps);
      if (g.won) wins++;
      fitness += g.won ? 1 : CARD_CREDIT * g.cardsHome;
    }
    return { fitness, wins };
  }
}
