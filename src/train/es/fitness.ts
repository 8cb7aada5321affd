/**
 * How the evolution-strategies trainer scores a weight vector: the linear action-scorer (a weight
 * per column of the scorer's action rows, src/train/scorer/features.ts) plays deals through the
 * evaluation library's game loop exactly as `penguin eval --agent scorer` plays them (the best
 * legal, non-repeating action; the shared tie-break), and each deal earns 1 for a win, else a
 * little partial credit for cards home, so that generations where few deals are won still tell
 * better weights from worse.
 */
import { deal } from "../../engine/deal.js";
import type { Rules } from "../../engine/rules.js";
import type { State } from "../../engine/state.js";
import { ActionCodec } from "../../env/actions.js";
import { EpisodeRunner } from "../../eval/game-loop.js";
import { ScorerAgent, type RowScorer } from "../../players/scorer/agent.js";
import { ROW } from "../../players/scorer/features.js";

/** Credit of a lost deal per card home, as a share of a win's 1 (52 cards home in a loss: 0.3). */
const CARD_CREDIT = 0.3 / 52;

export interface GameResult {
  won: boolean;
  cardsHome: number;
}

/** Scores a row as w · row. */
class Linear implements RowScorer {
  w: Float64Array = new Float64Array(ROW);
  logit(rows: Float32Array, offset: number): number {
    let v = 0;
    for (let j = 0; j < ROW; j++) v += rows[offset + j]! * this.w[j]!;
    return v;
  }
}

/** Plays deals with linear weights over the action rows; one per thread, reused for every game. */
export class LinearPlayer {
  readonly #linear = new Linear();
  readonly #runner: EpisodeRunner;
  /** Dealt start positions by seed: the same few deals are replayed by every member of a generation. */
  readonly #starts = new Map<number, State>();

  constructor(readonly rules: Rules) {
    this.#runner = new EpisodeRunner(
      rules,
      new ScorerAgent(this.#linear, new ActionCodec(rules), "es-linear"),
    );
  }

  play(w: Float64Array, seed: number, maxSteps: number): GameResult {
    if (w.length !== ROW) throw new Error(`weights must have ${ROW} entries, got ${w.length}`);
    let start = this.#starts.get(seed);
    if (!start) {
      if (this.#starts.size >= 4096) this.#starts.clear();
      start = deal(this.rules, seed);
      this.#starts.set(seed, start);
    }
    this.#linear.w = w;
    const g = this.#runner.play(start, seed, maxSteps);
    return { won: g.won, cardsHome: g.cardsHome };
  }

  /** Sum over `seeds` of 1 per win, CARD_CREDIT per card home in a loss; and the number of wins. */
  score(
    w: Float64Array,
    seeds: readonly number[],
    maxSteps: number,
  ): { fitness: number; wins: number } {
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
