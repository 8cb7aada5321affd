/**
 * DAgger (Ross, Gordon & Bagnell 2011) with the solver as the expert: the current policy plays
 * fresh training deals; from a few positions of each game the solver is asked for a winning line,
 * and that whole line (every position on it, labelled with the solver's move) joins the data.
 * Plain behaviour cloning only ever sees positions on the solver's own paths; these records teach
 * the net what to do in the positions its own moves lead to. Positions from which the solver
 * finds no win (the policy had already lost there) add nothing.
 *
 * A round's records depend on the policy of that moment and on the solver's time limit, so they
 * are stored in the run folder (dagger-<round>.json) and reused on --resume.
 */
import { deal } from "../engine/deal.js";
import { applyMove, MAX_MOVES } from "../engine/moves.js";
import { ActionCodec } from "../env/actions.js";
import type { TrainContext } from "./context.js";
import type { DealSolution, SolveFn } from "./dataset.js";
import { playPolicy } from "./play.js";
import { Rng } from "../util/rng.js";

export interface DaggerRoundResult {
  records: DealSolution[];
  games: number;
  policyWins: number;
  queries: number;
  solved: number;
  seconds: number;
}

/** First deal seed of DAgger round r (1-based): after the behaviour-cloning deals, never reused. */
function daggerDealStart(ctx: TrainContext, round: number): number {
  return ctx.o.trainDealStart + ctx.o.trainDeals + (round - 1) * ctx.o.daggerDeals;
}

export async function collectDagger(
  ctx: TrainContext,
  round: number,
  solve: SolveFn,
): Promise<DaggerRoundResult> {
  const o = ctx.o;
  const t0 = performance.now();
  const start = daggerDealStart(ctx, round);
  const seeds = Array.from({ length: o.daggerDeals }, (_, i) => start + i);
  const played = await playPolicy(ctx.net, ctx.rules, seeds, {
    maxSteps: o.maxSteps,
    repeatGuard: o.repeatGuard,
    recordActions: true,
  });
  const rng = new Rng(`${o.seed}/dagger/${round}`);
  const codec = new ActionCodec(ctx.rules);
  const mask = new Uint8Array(codec.n);
  const moves = new Int32Array(Math.max(codec.n, MAX_MOVES));
  const records: DealSolution[] = [];
  let queries = 0;
  let solved = 0;
  for (const g of played.results) {
    const path = g.actions ?? [];
    // Positions where the game can still go wrong: before its last move, at most the first 300.
    const span = Math.min(path.length, 300);
    if (span === 0) continue;
    const picks = new Set<number>();
    for (let k = 0; k < o.daggerStates; k++) picks.add(rng.int(span));
    const at = [...picks].sort((a, b) => a - b);
    const s = deal(ctx.rules, g.seed);
    let step = 0;
    for (const target of at) {
      while (step < target) {
        codec.fillMask(s, mask, moves);
        applyMove(s, moves[path[step]!]!);
        step++;
      }
      queries++;
      const r = await solve(s.clone(), {
        maxStates: o.daggerMaxStates,
        timeoutMs: o.solverTimeoutMs,
      });
      if (r.result !== "solved" || !r.moves || r.moves.length === 0) continue;
      const x = s.clone();
      const actions: number[] = [];
      for (const m of r.moves) {
        actions.push(codec.encode(x, m));
        applyMove(x, m);
      }
      if (!x.isWon()) continue;
      solved++;
      records.push({ seed: g.seed, result: "solved", actions, prefix: path.slice(0, target) });
    }
  }
  return {
    records,
    games: played.games,
    policyWins: played.wins,
    queries,
    solved,
    seconds: (performance.now() - t0) / 1000,
  };
}
