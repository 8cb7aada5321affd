/**
 * Plays the policy network on many deals at once through the evaluation library's game loop
 * (EpisodeRunner.playMany with the `policy` agent): one network call per step for every game
 * still running. It is the evaluation used during training, for the final win rate and for
 * DAgger's games, so `penguin eval --agent policy` and a run's own figures agree game for game.
 * The never-repeat guard is the one every player shares (src/agents/repeat-guard.ts).
 */
import { deal } from "../engine/deal.js";
import type { Rules } from "../engine/rules.js";
import { defaultMaxSteps } from "../env/registry.js";
import { EpisodeRunner } from "../eval/game-loop.js";
import { tfInference, type PolicyNet } from "./model.js";
import { PolicyAgent } from "../players/policy/agent.js";
import { wilson } from "../util/wilson.js";

export interface PlayOptions {
  maxSteps: number;
  repeatGuard: boolean;
  /** Sample from the policy instead of taking the argmax (each game's generator is seeded by its deal). */
  sample: boolean;
  /** Games played side by side (rows of one network call). */
  batch: number;
  /** Keep each game's action ids in its result (DAgger). */
  recordActions?: boolean;
}

const PLAY_DEFAULTS: Omit<PlayOptions, "maxSteps"> = {
  repeatGuard: true,
  sample: false,
  batch: 250,
};

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

/** Plays one game per seed with the network; returns per-game results and the win rate. */
export async function playPolicy(
  net: PolicyNet,
  rules: Rules,
  seeds: readonly number[],
  options: Partial<PlayOptions> = {},
): Promise<PlaySummary> {
  const o = { ...PLAY_DEFAULTS, maxSteps: defaultMaxSteps(rules), ...options };
  const t0 = performance.now();
  const runner = new EpisodeRunner(
    rules,
    new PolicyAgent(tfInference(net), rules, o.sample, o.repeatGuard, "training"),
  );
  const games = await runner.playMany(
    seeds.map((s) => deal(rules, s)),
    seeds,
    { maxSteps: o.maxSteps, batch: o.batch, record: o.recordActions },
  );
  const results = games.map((g, i) => ({
    seed: seeds[i]!,
    won: g.won,
    cardsHome: g.cardsHome,
    moves: g.moves,
    actions: g.actions,
  }));
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
