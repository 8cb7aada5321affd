/**
 * The atlas's verdict version: what a shard's verdicts depend on, and nothing else, so that shard
 * files resume and merge across refactors that leave the verdicts alone and are refused across
 * changes that could alter them. A version reads `s<VERDICT_SEMANTICS>+<probe>`:
 *
 * - `VERDICT_SEMANTICS`, a number bumped by hand whenever a change to the rules or to a search
 *   could alter a verdict in a way the probe below may not see (a rule that only rare positions
 *   reach). tests/experiments/atlas-version.test.ts pins each row's rules walk (below) under it:
 *   a change to the move lists or to what a move does fails that test until the number is bumped
 *   and the pins rewritten (`npx tsx scripts/atlas/semantics-pins.ts`).
 * - `probe`: 12 hex digits of a hash, worked out when a run starts, of the row's rules, the
 *   player's budget, the rules walk, and the player's play on the row's first probe deals: each
 *   deal's layout and verdict, with the positions the solver searched (agents: the moves played
 *   and the cards home). A change to a search's order, pruning or budget accounting changes the
 *   positions searched, so the probe differs and the merge refuses to mix the two; a refactor
 *   that searches exactly as before keeps the version, and its shards go on where others stopped.
 *
 * The hash of the source files (`codeVersion`, atlas-shard.ts) is still written beside each
 * block, as a record of which build played it, but it no longer decides whether shards fit.
 */
import { createHash, type Hash } from "node:crypto";
import { formatBoard } from "../../src/engine/board.js";
import { applyMove, legalMoves } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import { dealState, type DealRef } from "../../src/eval/deals.js";
import { keyTable } from "../../src/util/rng.js";
import { atlasRow, type AtlasRow } from "./atlas-rows.js";
import { condition } from "./atlas-play.js";
import { play } from "./play-condition.js";
import type { PlayerSpec } from "./types.js";

/**
 * Bump when the rules or a search change in a way that could alter a verdict (then rewrite the
 * pins: `npx tsx scripts/atlas/semantics-pins.ts`). Shards of another number never merge.
 */
export const VERDICT_SEMANTICS = 1;

/** Deals 1 … n of a row's deck the probe plays: about a CPU-second or less per player. */
const PROBE_DEALS = { solver: 200, random: 100, greedy: 100, lookahead: 30, safety: 10 } as const;
/** Walks of the rules walk, and plies each. */
const WALKS = 3;
const PLIES = 80;

function ref(row: AtlasRow, d: number): DealRef {
  return row.deck === "seed" ? { kind: "seed", seed: d } : { kind: "ms", n: d };
}

function walkInto(h: Hash, row: AtlasRow): void {
  const rules = resolveRules(row.preset, row.overrides);
  h.update(`${JSON.stringify(rules)}\n`);
  for (let d = 1; d <= WALKS; d++) {
    const s = dealState(rules, ref(row, d));
    // The walk's choices are fixed words (keyTable), not a generator's stream: they never change.
    const pick = keyTable(d, PLIES);
    for (let ply = 0; ply < PLIES; ply++) {
      h.update(formatBoard(s));
      const moves = legalMoves(s);
      h.update(`${moves.join(" ")}\n`);
      if (moves.length === 0) break;
      applyMove(s, moves[pick[ply]! % moves.length]!);
    }
  }
}

/**
 * A row's rules walk: seeded random walks from its first deals, hashing each position the walk
 * reaches and its legal moves in the engine's order (what the rules allow and what a move does).
 */
export function rulesWalk(rowName: string): string {
  const h = createHash("sha256");
  walkInto(h, atlasRow(rowName));
  return h.digest("hex").slice(0, 16);
}

const versions = new Map<string, Promise<string>>();

/** The version of a row's verdicts by `player` (one of PROBE_DEALS's names) under `spec`. */
export function verdictVersion(
  rowName: string,
  player: keyof typeof PROBE_DEALS,
  spec: PlayerSpec,
): Promise<string> {
  // Once per process: the code cannot change under a running process.
  const key = JSON.stringify([rowName, player, spec]);
  let v = versions.get(key);
  if (!v) {
    v = probe(rowName, player, spec);
    versions.set(key, v);
  }
  return v;
}

async function probe(
  rowName: string,
  player: keyof typeof PROBE_DEALS,
  spec: PlayerSpec,
): Promise<string> {
  const row = atlasRow(rowName);
  const h = createHash("sha256");
  h.update(`${row.preset} ${JSON.stringify(row.overrides)} ${row.deck}\n`);
  h.update(`${JSON.stringify(spec)}\n`);
  walkInto(h, row);
  const c = condition(row.name, spec);
  const n = Math.min(PROBE_DEALS[player], row.probe ?? Number.POSITIVE_INFINITY);
  const rules = resolveRules(row.preset, row.overrides);
  for (let d = 1; d <= n; d++) {
    const o = await play(c, d, row.deck);
    h.update(formatBoard(dealState(rules, ref(row, d))));
    // The solver's line (its length) is shortened after the search and decides nothing.
    h.update(
      spec.kind === "solver"
        ? `${d} ${o.outcome} ${o.states}\n`
        : `${d} ${o.outcome} ${o.moves} ${o.cardsHome}\n`,
    );
  }
  return `s${VERDICT_SEMANTICS}+${h.digest("hex").slice(0, 12)}`;
}
