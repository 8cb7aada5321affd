/** Summary statistics of an evaluation: win rate with its 95% Wilson score interval. */

import { describeValue, InvalidArgumentError } from "../errors.js";
import { wilson, type Interval } from "../util/wilson.js";

export { wilson, type Interval };

/**
 * Exact McNemar test for two players on the same deals: `aOnly` deals won by A alone, `bOnly` by B
 * alone (deals both or neither won say nothing about which is better). Returns the two-sided
 * p-value of "A and B win equally often", i.e. 2 · P(X ≤ min) for X ~ Binomial(aOnly + bOnly, 1/2),
 * capped at 1. Pairing removes the deals' own difficulty, so it sees differences that two
 * separate Wilson intervals cannot.
 */
export function mcnemarExact(aOnly: number, bOnly: number): number {
  for (const [name, v] of [
    ["aOnly", aOnly],
    ["bOnly", bOnly],
  ] as const)
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
      throw new InvalidArgumentError(
        `mcnemarExact: ${name} must be a count of deals (an integer ≥ 0), got ${describeValue(v)}`,
      );
  const n = aOnly + bOnly;
  if (n === 0) return 1;
  const k = Math.min(aOnly, bOnly);
  // Sum C(n, i) / 2^n for i ≤ k in log space (n can be in the thousands).
  let logC = -n * Math.LN2;
  let tail = Math.exp(logC);
  for (let i = 1; i <= k; i++) {
    logC += Math.log((n - i + 1) / i);
    tail += Math.exp(logC);
  }
  return Math.min(1, 2 * tail);
}

export interface GameOutcome {
  readonly won: boolean;
  readonly cardsHome: number;
  readonly moves: number;
}

export interface Summary {
  games: number;
  wins: number;
  winRate: number;
  wilson95: Interval;
  meanCardsHome: number;
  meanMoves: number;
  /** Deals played per second of wall-clock in this run (deals read back from a file excluded). */
  dealsPerSec: number;
  /** Deals played in this run (the rest were already in the file). */
  played: number;
}

/** Adds outcomes one at a time, so a summary of any number of games takes constant memory. */
export class SummaryBuilder {
  #games = 0;
  #wins = 0;
  #home = 0;
  #moves = 0;

  add(r: GameOutcome): void {
    this.#games++;
    if (r.won) this.#wins++;
    this.#home += r.cardsHome;
    this.#moves += r.moves;
  }

  summary(played = 0, seconds = 0): Summary {
    const games = this.#games,
      wins = this.#wins;
    return {
      games,
      wins,
      winRate: games ? wins / games : 0,
      wilson95: wilson(wins, games),
      meanCardsHome: games ? this.#home / games : 0,
      meanMoves: games ? this.#moves / games : 0,
      dealsPerSec: seconds > 0 ? played / seconds : 0,
      played,
    };
  }
}

export function summarize(rows: Iterable<GameOutcome>, played = 0, seconds = 0): Summary {
  const b = new SummaryBuilder();
  for (const r of rows) b.add(r);
  return b.summary(played, seconds);
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export function formatSummary(s: Summary): string {
  return [
    `games ${s.games}, wins ${s.wins}, win rate ${pct(s.winRate)} (95% Wilson ${pct(s.wilson95.low)}–${pct(s.wilson95.high)})`,
    `mean cards home ${s.meanCardsHome.toFixed(2)}, mean moves ${s.meanMoves.toFixed(1)}`,
    `${s.played} deals played in this run, ${s.dealsPerSec.toFixed(1)} deals/s`,
  ].join("\n");
}
