import { describe, expect, it } from "vitest";
import { deal } from "../../src/engine/deal.js";
import { applyMove, generateMoves, MAX_MOVES, undoMove } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import type { State } from "../../src/engine/state.js";
import { HEURISTIC_PRESETS, MoveScorer } from "../../src/agents/heuristic.js";
import { LookaheadAgent } from "../../src/agents/lookahead.js";
import { ActionCodec } from "../../src/env/actions.js";

const WIN = 1e6;
const LOSS = -1e4;

/**
 * The lookahead search as docs/agents.md defines it, written out plainly: every move of every
 * node scored, the `width` best followed (the first on ties), positions of the game or of the
 * path skipped. The agent bounds scores and skips moves that cannot matter; it must give the
 * very same values.
 */
function plainValues(x: State, depth: number, width: number, seen: Set<bigint>): number[] {
  const scorer = new MoveScorer(HEURISTIC_PRESETS.tuned!);
  const search = (s: State, left: number, path: bigint[]): number => {
    const moves = new Int32Array(MAX_MOVES);
    const score = new Float64Array(MAX_MOVES);
    const n = generateMoves(s, moves);
    if (n === 0) return LOSS;
    scorer.scoreMoves(s, moves, n, score);
    const here = [...path, s.hash()];
    let best = -Infinity;
    for (let taken = 0; taken < width; taken++) {
      let i = -1;
      for (let j = 0; j < n; j++)
        if (score[j]! > -Infinity && (i < 0 || score[j]! > score[i]!)) i = j;
      if (i < 0) break;
      const sc = score[i]!;
      score[i] = -Infinity;
      applyMove(s, moves[i]!);
      const h = s.hash();
      if (seen.has(h) || here.includes(h)) {
        undoMove(s, moves[i]!);
        taken--;
        continue;
      }
      const v = s.isWon() ? sc + WIN : left > 1 ? sc + search(s, left - 1, here) : sc;
      undoMove(s, moves[i]!);
      if (v > best) best = v;
    }
    return best === -Infinity ? LOSS : best;
  };
  const moves = new Int32Array(MAX_MOVES);
  const score = new Float64Array(MAX_MOVES);
  const n = generateMoves(x, moves);
  scorer.scoreMoves(x, moves, n, score);
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    applyMove(x, moves[i]!);
    const h = x.hash();
    values.push(
      seen.has(h)
        ? -Infinity
        : x.isWon()
          ? WIN
          : depth > 1
            ? score[i]! + search(x, depth - 1, [])
            : score[i]!,
    );
    undoMove(x, moves[i]!);
  }
  return values;
}

describe("lookahead search", () => {
  it("values every move as the plain search does, on FreeCell's wide lists", () => {
    const moves = new Int32Array(MAX_MOVES);
    const out = new Float64Array(MAX_MOVES);
    let wide = 0;
    // Lost games wander into positions of 25 to 90 moves after 35 to 50 moves.
    for (const [seed, depth, width, from, to] of [
      [100001, 3, 3, 36, 46],
      [100003, 4, 2, 46, 52],
    ] as const) {
      const rules = resolveRules("freecell");
      const x = deal(rules, seed);
      const agent = new LookaheadAgent({ depth, width });
      agent.reset(x);
      const codec = new ActionCodec(rules);
      const mask = new Uint8Array(codec.n);
      const actionMoves = new Int32Array(codec.n);
      const order = new Int32Array(MAX_MOVES);
      const observation = new Float32Array(0);
      const seen = new Set<bigint>([x.hash()]);
      for (let ply = 0; ply < to; ply++) {
        const legal = codec.fillMask(x, mask, actionMoves, order);
        if (legal === 0) break;
        seen.add(x.hash());
        if (ply >= from) {
          const n = generateMoves(x, moves);
          if (n >= 24) wide++;
          agent.valuesAt(x, moves, n, out);
          expect(Array.from(out.subarray(0, n)), `${seed} ply ${ply}`).toEqual(
            plainValues(x, depth, width, seen),
          );
        }
        const a = agent.act({
          state: x,
          mask,
          observation,
          codec,
          actionMoves,
          order,
          legal,
          game: 0,
        });
        applyMove(x, actionMoves[a]!);
      }
    }
    expect(wide).toBeGreaterThan(8);
  });
});
