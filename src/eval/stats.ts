/** Summary statistics of an evaluation: win rate with its 95% Wilson score interval. */

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** Wilson score interval for `wins` successes in `n` trials (z = 1.96 for 95%). */
export function wilson(wins: number, n: number, z = 1.959963984540054): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = wins / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Exact McNemar test for two players on the same deals: `aOnly` deals won by A alone, `bOnly` by B
 * alone (deals both or neither won say nothing about which is better). Returns the two-sided
 * p-value of "A and B win equally often", i.e. 2 · P(X ≤ min) for X ~ Binomial(aOnly + bOnly, 1/2),
 * capped at 1. Pairing removes the deals' own difficulty, so it sees differences that two
 * separate Wilson intervals cannot.
 */
export function mcnemarExact(aOnly: number, bOnly: number): number {
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

export function summarize(rows: Iterable<GameOutcome>, played = 0, seconds = 0): Summary {
  let games = 0;
  let wins = 0;
  let home = 0;
  let moves = 0;
  for (const r of rows) {
    games++;
    if (r.won) wins++;
    home += r.cardsHome;
    moves += r.moves;
  }
  return {
    games,
    wins,
    winRate: games ? wins / games : 0,
    wilson95: wilson(wins, games),
    meanCardsHome: games ? home / games : 0,
    meanMoves: games ? moves / games : 0,
    dealsPerSec: seconds > 0 ? played / seconds : 0,
    played,
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export function formatSummary(s: Summary): string {
  return [
    `games ${s.games}, wins ${s.wins}, win rate ${pct(s.winRate)} (95% Wilson ${pct(s.wilson95.low)}–${pct(s.wilson95.high)})`,
    `mean cards home ${s.meanCardsHome.toFixed(2)}, mean moves ${s.meanMoves.toFixed(1)}`,
    `${s.played} deals played in this run, ${s.dealsPerSec.toFixed(1)} deals/s`,
  ].join("\n");
}
