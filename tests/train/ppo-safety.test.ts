// PPO's safety policy (src/train/ppo/safety.ts) samples moves from the player's own scores and
// learns from the same candidates encoded again from packed positions: the two must be one score.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deal } from "../../src/engine/deal.js";
import { applyMove, undoMove } from "../../src/engine/moves.js";
import { PositionSet } from "../../src/engine/position-set.js";
import { resolveRules } from "../../src/engine/rules.js";
import { ActionCodec } from "../../src/env/actions.js";
import { SafetyScorer, SafetyView } from "../../src/players/safety/agent.js";
import { COLUMN_WIDTH, FLIPPER_WIDTH } from "../../src/players/safety/encode.js";
import { loadSafety, squash } from "../../src/players/safety/model.js";

describe("ppo --policy safety", () => {
  it("the tf network on the packed after-states scores each guarded move as the player does", async () => {
    const { BatchEncoder } = await import("../../src/train/safety/batch.js");
    const { TfSafety } = await import("../../src/train/safety/network.js");
    const { PACK_STRIDE, packState } = await import("../../src/train/safety/pack.js");
    const { initBackend, tf } = await import("../../src/train/backend.js");
    await initBackend();
    const rules = resolveRules("penguin");
    const codec = new ActionCodec(rules);
    const { weights } = loadSafety(join(process.cwd(), "models/safety"));
    const scorer = new SafetyScorer(weights, codec.columns);
    const view = new SafetyView(codec, scorer);
    // One game of 25 moves (the player's best each time); every guarded candidate packed as the trainer packs it.
    const s = deal(rules, 1_234_567);
    const seen = new PositionSet();
    seen.addState(s);
    const before = new Uint8Array(25 * PACK_STRIDE);
    const decision: number[] = [];
    const move: number[] = [];
    const afters: Uint8Array[] = [];
    const jsScores: number[] = [];
    const x = s.clone();
    for (let t = 0; t < 25; t++) {
      const n = view.encode(s, seen, 0);
      const value = scorer.score(n);
      packState(s, before, t * PACK_STRIDE);
      x.copyFrom(s);
      let r = 0;
      let best = -1;
      let top = -Infinity;
      for (let a = 0; a < codec.n; a++) {
        if (view.view.mask[a] !== 1) continue;
        if (view.view.guarded[a] === 1) {
          const m = view.view.actionMoves[a]!;
          applyMove(x, m);
          const after = new Uint8Array(PACK_STRIDE);
          packState(x, after, 0);
          undoMove(x, m);
          decision.push(t);
          move.push(m);
          afters.push(after);
          jsScores.push(value[r]!);
          if (value[r]! > top) {
            top = value[r]!;
            best = m;
          }
        }
        r++;
      }
      applyMove(s, best);
      seen.addState(s);
    }
    const R = move.length;
    const after = new Uint8Array(R * PACK_STRIDE);
    afters.forEach((a, k) => after.set(a, k * PACK_STRIDE));
    const enc = new BatchEncoder(
      rules,
      { before, decision: Int32Array.from(decision), move: Int32Array.from(move), after },
      weights.config,
    );
    const G = weights.config.globalWidth;
    const cols = new Float32Array(R * codec.columns * COLUMN_WIDTH);
    const flips = new Float32Array(R * FLIPPER_WIDTH);
    const globals = new Float32Array(R * G);
    for (let k = 0; k < R; k++) enc.encode(k, k, cols, flips, globals);
    const net = new TfSafety(weights);
    const [z, hidden] = tf.tidy(() => {
      const [zT, hT] = net.forwardHidden(
        tf.tensor2d(cols, [R * codec.columns, COLUMN_WIDTH]),
        tf.tensor2d(flips, [R, FLIPPER_WIDTH]),
        tf.tensor2d(globals, [R, G]),
        R,
      );
      return [zT.dataSync(), hT.dataSync()] as const;
    });
    net.dispose();
    expect(R).toBeGreaterThan(100);
    for (let k = 0; k < R; k++) expect(squash(z[k]!)).toBeCloseTo(jsScores[k]!, 4);
    // The value head reads the last hidden layer: one row of the head's last width per candidate.
    const headHidden = weights.config.headHidden;
    expect(hidden.length).toBe(R * headHidden[headHidden.length - 1]!);
    expect(new Set(jsScores.map((v) => v.toFixed(3))).size).toBeGreaterThan(20);
  }, 60_000);
});
