/**
 * The safety network played in lockstep batches gives every game exactly the moves it gets one
 * game at a time, for any batch size and worker count; and the batched network's logits are
 * JsSafety's, bit for bit, on real candidate rows.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { resolveRules } from "../../src/engine/rules.js";
import { deal } from "../../src/engine/deal.js";
import { applyMove, generateMoves, MAX_MOVES } from "../../src/engine/moves.js";
import { ActionCodec } from "../../src/env/actions.js";
import { PositionSet } from "../../src/agents/repeat-guard.js";
import { createAgent } from "../../src/agents/registry.js";
import { evaluate, type EvalRow } from "../../src/eval/evaluate.js";
import { seedRange } from "../../src/eval/deals.js";
import { SafetyView } from "../../src/players/safety/agent.js";
import { SafetyBatch, SafetyInputs } from "../../src/players/safety/batch.js";
import { COLUMN_WIDTH, FLIPPER_WIDTH } from "../../src/players/safety/encode.js";
import {
  defaultConfig,
  initWeights,
  JsSafety,
  layerShapes,
  loadSafety,
} from "../../src/players/safety/model.js";
import { dense, denseChains, denseKernel } from "../../src/players/safety/dense.js";
import { Rng } from "../../src/util/rng.js";

const root = join(import.meta.dirname, "../..");
const shipped = join(root, "results/train-safety/run-links-scratch/last");
const rules = resolveRules("penguin");

async function rows(batch: number | undefined, workers: number): Promise<string[]> {
  const out: EvalRow[] = [];
  for await (const r of evaluate({
    agent: "safety",
    agentOptions: { model: shipped },
    rules,
    deals: seedRange(100_001, 4),
    // Short games: the moves of each still go through every batch arrangement.
    maxSteps: 60,
    workers,
    ...(batch === undefined ? {} : { batch }),
    timing: false,
  }))
    out.push(r);
  return out.map((r) => `${r.deal} ${r.won} ${r.cardsHome} ${r.moves}`);
}

describe("batched safety network", () => {
  it("plays every game the same in lockstep batches of any size, in any number of workers", async () => {
    const one = await rows(1, 1);
    expect(one).toHaveLength(4);
    expect(await rows(3, 1)).toEqual(one);
    expect(await rows(4, 1)).toEqual(one);
    expect(await rows(3, 2)).toEqual(one);
    // The agent's own default (one game at a time) and evaluate's (32 in lockstep).
    expect(await rows(undefined, 1)).toEqual(one);
    expect(await rows(32, 1)).toEqual(one);
  });

  it("plays the shipped network when no model is named", async () => {
    const named = await createAgent("safety", { model: shipped }, rules);
    const plain = await createAgent("safety", {}, rules);
    expect(plain.name).toBe(named.name.replace(shipped, "shipped"));
    const s = deal(rules, 100_003);
    const codec = new ActionCodec(rules);
    const mask = new Uint8Array(codec.n);
    const actionMoves = new Int32Array(codec.n);
    codec.fillMask(s, mask, actionMoves);
    const input = { state: s, mask, observation: new Float32Array(0), codec, actionMoves };
    for (const a of [named, plain]) a.reset(s.clone(), 100_003);
    expect(plain.act(input)).toBe(named.act(input));
  });

  it("gives JsSafety's logits bit for bit, whatever the rows around them", () => {
    const { weights } = loadSafety(shipped);
    const codec = new ActionCodec(rules);
    const view = new SafetyView(codec, weights);
    const s = deal(rules, 100_007);
    const moves = new Int32Array(MAX_MOVES);
    let row = 0;
    // Candidates of a few successive positions in one batch.
    for (let step = 0; step < 4; step++) {
      row += view.encode(s, new PositionSet(), row);
      const n = generateMoves(s, moves);
      applyMove(s, moves[step % n]!);
    }
    const inp = view.scorer.inputs;
    const batched = new SafetyBatch(weights).forward(inp, row).slice(0, row);
    // The plain-JavaScript layers give the same bits as the WebAssembly ones.
    const plain = new SafetyBatch(weights, "js").forward(inp, row).slice(0, row);
    for (let r = 0; r < row; r++) expect(Object.is(plain[r], batched[r])).toBe(true);
    const reversed = new SafetyBatch(weights);
    const js = new JsSafety(weights);
    const G = inp.globalWidth;
    const C = inp.columns * COLUMN_WIDTH;
    for (let r = 0; r < row; r++) {
      const z = js.logit(inp.cols, r * C, inp.flips, r * FLIPPER_WIDTH, inp.globals, r * G);
      expect(Object.is(batched[r], Math.fround(z))).toBe(true);
    }
    // Rows scored one at a time, last first (every lookup a fresh table): the same numbers.
    const one = new SafetyInputs(inp.columns, G);
    one.ensure(1);
    for (let r = row - 1; r >= 0; r--) {
      one.cols.set(inp.cols.subarray(r * C, r * C + C));
      one.flips.set(inp.flips.subarray(r * FLIPPER_WIDTH, (r + 1) * FLIPPER_WIDTH));
      one.globals.set(inp.globals.subarray(r * G, (r + 1) * G));
      expect(Object.is(new SafetyBatch(weights).forward(one, 1)[0], batched[r])).toBe(true);
      expect(Object.is(reversed.forward(one, 1)[0], batched[r])).toBe(true);
    }
  });

  it("runs the dense layers in WebAssembly with JavaScript's bits, odd widths and zero inputs included", () => {
    expect(denseKernel()).toBe("wasm");
    // Widths through each of the kernel's paths: blocks of 32 outputs, of 4, and single outputs
    // (39 = 32 + 4 + 3, 19 = 4 · 4 + 3, 16, and a layer of one output).
    const w = initWeights(defaultConfig(7, [39, 16], [19]), 3);
    const rng = new Rng("dense-kernel-test");
    for (const b of w.b) for (let j = 0; j < b.length; j++) b[j] = rng.next() - 0.5;
    const starts = new Set([0, 2]);
    const wasm = denseChains(w, starts, "wasm");
    const js = denseChains(w, starts, "js");
    const bits = (a: Float32Array) => Array.from(new Int32Array(Float32Array.from(a).buffer));
    const widths = layerShapes(w.config).map(([i]) => i);
    for (let t = 0; t < 40; t++)
      for (const [first, depth, relu] of [
        [0, 2, true],
        [0, 1, false],
        [2, 2, false],
      ] as const) {
        for (let i = 0; i < widths[first]!; i++) {
          const v = rng.next() < 0.5 ? 0 : (rng.next() - 0.3) * 4;
          wasm.x[i] = v;
          js.x[i] = v;
        }
        const a = bits(wasm.run(first, depth, relu));
        expect(a).toEqual(bits(js.run(first, depth, relu)));
        if (depth === 1) {
          // The JavaScript chain is dense() itself.
          const out = new Float32Array(39);
          dense(w.W[0]!, w.b[0]!, js.x, 0, widths[0]!, out, 0, false);
          expect(a).toEqual(bits(out));
        }
      }
  });
});
