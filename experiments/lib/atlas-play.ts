/**
 * One block of atlas deals: deals from … to−1 of a row, played by the solver (solvable, proved
 * lost or unknown) or by an agent (won or not), through the experiments' task module (play-condition.ts),
 * so a verdict here is the one every other experiment gives for the same deal.
 */
import { atlasRow } from "./atlas-rows.js";
import { play } from "./play-condition.js";
import type { Condition, PlayerSpec } from "./types.js";

export interface BlockTask {
  readonly row: string;
  readonly player: PlayerSpec;
  readonly from: number;
  readonly to: number;
}

export interface BlockResult {
  readonly won: number;
  /** Deals proved lost by the solver, or not won by an agent (agents: left empty, see below). */
  readonly lost: number[];
  /** Deals the solver's budget ran out on. */
  readonly unknown: number[];
}

export function condition(row: string, player: PlayerSpec): Condition {
  const r = atlasRow(row);
  return { labels: { row }, preset: r.preset, overrides: r.overrides, player };
}

export async function playBlock(t: BlockTask): Promise<BlockResult> {
  const c = condition(t.row, t.player);
  const deck = atlasRow(t.row).deck;
  let won = 0;
  const lost: number[] = [];
  const unknown: number[] = [];
  for (let d = t.from; d < t.to; d++) {
    const o = await play(c, d, deck);
    if (o.outcome === "won") won++;
    // An agent's lost deals are most deals: only the solver's (the re-checkable proofs) are kept.
    else if (o.outcome === "unknown") unknown.push(d);
    else if (t.player.kind === "solver") lost.push(d);
  }
  return { won, lost, unknown };
}
