import { truncateSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deal } from "../../src/engine/deal.js";
import { applyMove, generateMoves, MAX_MOVES } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import type { State } from "../../src/engine/state.js";
import { HEURISTIC_PRESETS, MoveScorer } from "../../src/agents/heuristic.js";
import { FEATURES } from "../../src/agents/move-features.js";
import { PositionSet } from "../../src/agents/repeat-guard.js";
import { ActionCodec } from "../../src/env/actions.js";
import { initBackend, tf } from "../../src/train/backend.js";
import { Rng } from "../../src/util/rng.js";
import { JsScorer, readScorer } from "../../src/players/scorer/model.js";
import { ScorerView } from "../../src/players/scorer/agent.js";
import { GREEDY_FEATURES, ROW } from "../../src/players/scorer/features.js";
import {
  buildScorer,
  forward,
  jsScorerOf,
  loadScorer,
  saveScorer,
} from "../../src/train/scorer/model.js";
import { CheckpointError } from "../../src/train/checkpoint.js";
import { scratchDir } from "./helpers.js";

const rules = resolveRules("penguin");
const codec = new ActionCodec(rules);

/** Positions reached by seeded random play from a few deals (varied: flippers in use, empty columns). */
function positions(count: number): State[] {
  const rng = new Rng(7);
  const out: State[] = [];
  const moves = new Int32Array(MAX_MOVES);
  for (let seed = 3_000_000; out.length < count; seed++) {
    const s = deal(rules, seed);
    for (let step = 0; step < 40 && out.length < count; step++) {
      const n = generateMoves(s, moves);
      if (n === 0) break;
      out.push(s.clone());
      applyMove(s, moves[rng.int(n)]!);
    }
  }
  return out;
}

describe("action-scorer", () => {
  it("feature block: ROW floats per action id, zero rows exactly for illegal actions, greedy's score on the skip path", () => {
    const view = new ScorerView(codec);
    const tuned = new MoveScorer(HEURISTIC_PRESETS.tuned!);
    const score = new Float64Array(MAX_MOVES);
    let legalRows = 0;
    for (const s of positions(120)) {
      const n = view.look(s, new PositionSet());
      expect(view.rows.length).toBe(codec.n * ROW);
      let legal = 0;
      for (let a = 0; a < codec.n; a++) {
        const row = view.rows.subarray(a * ROW, (a + 1) * ROW);
        const zero = row.every((v) => v === 0);
        expect(zero).toBe(view.mask[a] === 0);
        legal += view.mask[a]!;
      }
      expect(legal).toBe(n);
      legalRows += n;
      // Σ tuned weight × feature row = MoveScorer's score of the same move.
      const x = s.clone();
      for (let a = 0; a < codec.n; a++) {
        if (view.mask[a] !== 1) continue;
        const one = new Int32Array([view.actionMoves[a]!]);
        tuned.scoreMoves(x, one, 1, score);
        let dot = 0;
        for (let f = 0; f < GREEDY_FEATURES; f++)
          dot += (HEURISTIC_PRESETS.tuned![FEATURES[f]!.name] ?? 0) * view.rows[a * ROW + f]!;
        expect(dot).toBeCloseTo(score[0]!, 3);
      }
    }
    expect(legalRows).toBeGreaterThan(500);
  });

  it("masked argmax never picks an illegal or repeating action", async () => {
    await initBackend();
    const net = buildScorer({ actions: codec.n, row: ROW, hidden: [16], seed: 3, init: "zero" });
    const js = jsScorerOf(net);
    const view = new ScorerView(codec);
    let checked = 0;
    for (const s of positions(200)) {
      // A seen-set holding the result of the first legal move: the guard must avoid it.
      const seen = new PositionSet();
      const moves = new Int32Array(MAX_MOVES);
      const n = generateMoves(s, moves);
      if (n > 1) {
        const y = s.clone();
        applyMove(y, moves[0]!);
        seen.add(y.hashLo, y.hashHi);
      }
      view.look(s, seen);
      const a = view.choose(js);
      expect(view.mask[a]).toBe(1);
      if (n > 1) expect(codec.decode(s, a)).not.toBe(moves[0]);
      checked++;
    }
    expect(checked).toBe(200);
  });

  it("save → load gives identical logits; the JS forward matches tf; a damaged checkpoint is refused", async () => {
    await initBackend();
    const net = buildScorer({
      actions: codec.n,
      row: ROW,
      hidden: [16, 8],
      seed: 5,
      init: "tuned",
    });
    const view = new ScorerView(codec);
    const block = new Float32Array(3 * codec.n * ROW);
    positions(3).forEach((s, i) => {
      view.look(s, new PositionSet());
      block.set(view.rows, i * codec.n * ROW);
    });
    const dir = join(scratchDir("scorer-ckpt"), "checkpoint");
    await saveScorer(dir, net);
    const back = await loadScorer(dir);
    expect(back.config).toEqual(net.config);
    const x = tf.tensor3d(block, [3, codec.n, ROW]);
    const l1 = forward(net, x);
    const l2 = forward(back, x);
    expect(l1.shape).toEqual([3, codec.n]);
    const d1 = l1.dataSync() as Float32Array;
    const d2 = l2.dataSync() as Float32Array;
    expect(Buffer.from(d2.buffer).equals(Buffer.from(d1.buffer))).toBe(true);
    const js = jsScorerOf(back);
    for (let r = 0; r < 3 * codec.n; r++) expect(js.logit(block, r * ROW)).toBeCloseTo(d1[r]!, 3);
    // The player reads the same checkpoint without TensorFlow.js and gets the same numbers.
    const read = new JsScorer(readScorer(dir));
    for (let r = 0; r < 3 * codec.n; r++)
      expect(read.logit(block, r * ROW)).toBe(js.logit(block, r * ROW));
    tf.dispose([x, l1, l2]);
    truncateSync(join(dir, "weights.bin"), 100);
    await expect(loadScorer(dir)).rejects.toThrow(CheckpointError);
    await expect(loadScorer(dir)).rejects.toThrow(
      /weights\.bin does not match its recorded SHA-256/,
    );
  });
});
