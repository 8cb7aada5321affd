import { describe, expect, it } from "vitest";
import { NO_CARD, rankOf, suitOf, makeCard } from "../../src/engine/card.js";
import { deal } from "../../src/engine/deal.js";
import { applyMove, undoMove } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import { COLUMN_CAP, type State } from "../../src/engine/state.js";
import { ActionCodec } from "../../src/env/actions.js";
import { ActionFeatures, ROW } from "../../src/players/scorer/features.js";
import {
  COLUMN_WIDTH,
  encodeCandidate,
  FLIPPER_WIDTH,
  GLOBAL_WIDTH,
} from "../../src/players/safety/encode.js";
import { STRUCTURE_WIDTH } from "../../src/players/safety/structure.js";
import { FLIPPER_COST_WIDTH } from "../../src/players/safety/flippers.js";
import { CARD_WIDTH, cardWidthOf } from "../../src/players/safety/cards.js";
import { SUIT_ORDERS, SuitRenamer, suitOrderFor } from "../../src/train/safety/suits.js";
import { choiceLoss, choiceLossJs, decisionStarts } from "../../src/train/safety/choice.js";
import type { SafetyData } from "../../src/train/safety/dataset.js";

const rules = resolveRules("penguin");
// The widest feature sets: the structural features, the flipper costs (suit-free, so renaming leaves
// them as they are), then the card rows (suit-free too, so renaming only moves them), with or without their links.
const COSTS_AT = GLOBAL_WIDTH + STRUCTURE_WIDTH;
const CARDS_AT = COSTS_AT + FLIPPER_COST_WIDTH;

/** The same position with suit s renamed order[s] everywhere: columns, flippers, foundations. */
function renamed(s: State, order: Uint8Array): State {
  const t = s.clone();
  const re = (c: number): number => (c === NO_CARD ? c : makeCard(rankOf(c), order[suitOf(c)]!));
  for (let c = 0; c < s.nColumns; c++)
    for (let d = 0; d < s.len[c]!; d++)
      t.cards[c * COLUMN_CAP + d] = re(s.cards[c * COLUMN_CAP + d]!);
  for (let i = 0; i < s.nCells; i++) t.cells[i] = re(s.cells[i]!);
  for (let f = 0; f < 4; f++) t.found[order[f]!] = s.found[f]!;
  t.rehash();
  return t;
}

describe("suit renaming", () => {
  it("lists the 24 orders of the suits once each, and picks them by a fixed hash of seed, step and row", () => {
    expect(SUIT_ORDERS.length).toBe(24);
    expect(new Set(SUIT_ORDERS.map((o) => o.join(""))).size).toBe(24);
    for (const o of SUIT_ORDERS) expect([...o].sort()).toEqual([0, 1, 2, 3]);
    expect(suitOrderFor(1, 5, 3)).toBe(suitOrderFor(1, 5, 3));
    const picked = new Set<string>();
    for (let step = 0; step < 200; step++) picked.add(suitOrderFor(1, step, 0).join(""));
    expect(picked.size).toBe(24);
  });

  it.each(["cards", "links"] as const)(
    "turns the encoding of every candidate move into the encoding of the suit-renamed position (%s)",
    (set) => {
      const CW = cardWidthOf(set === "links");
      const GW = CARDS_AT + 52 * CW;
      const codec = new ActionCodec(rules);
      const mask = new Uint8Array(codec.n);
      const am = new Int32Array(codec.n);
      const features = new ActionFeatures();
      const renamer = new SuitRenamer();
      const enc = (x: State, row: Float32Array) => {
        const cols = new Float32Array(7 * COLUMN_WIDTH);
        const flips = new Float32Array(FLIPPER_WIDTH);
        const globals = new Float32Array(GW);
        encodeCandidate(x, row, 0, cols, 0, flips, 0, globals, 0, set);
        return { cols, flips, globals };
      };
      let compared = 0;
      let flippers = 0;
      let costed = 0;
      let linked = 0;
      let withLinks = 0;
      for (const seed of [3, 42, 777]) {
        const s = deal(rules, seed);
        // Walk a few moves in so flippers and foundations hold cards.
        for (let i = 0; i < 12; i++) {
          codec.fillMask(s, mask, am);
          const legal = [...mask.keys()].filter((a) => mask[a] === 1);
          if (legal.length === 0) break;
          applyMove(s, am[legal[(i * 7) % legal.length]!]!);
        }
        flippers += [...s.cells.subarray(0, s.nCells)].filter((c) => c !== NO_CARD).length;
        const order = SUIT_ORDERS[(seed * 5) % 24]!;
        const t = renamed(s, order);
        codec.fillMask(s, mask, am);
        for (let a = 0; a < codec.n; a++) {
          if (mask[a] !== 1) continue;
          const m = am[a]!;
          const rowS = new Float32Array(ROW);
          const rowT = new Float32Array(ROW);
          features.fill(s.clone(), Uint8Array.of(1), Int32Array.of(m), 1, rowS, 0);
          features.fill(t.clone(), Uint8Array.of(1), Int32Array.of(m), 1, rowT, 0);
          expect(Array.from(rowT)).toEqual(Array.from(rowS));
          applyMove(s, m);
          applyMove(t, m);
          const x = enc(s, rowS);
          const y = enc(t, rowT);
          undoMove(s, m);
          undoMove(t, m);
          renamer.rename(order, x.cols, 0, 7, x.flips, 0, x.globals, 0, true, CARDS_AT, CW);
          expect(Array.from(x.cols)).toEqual(Array.from(y.cols));
          expect(Array.from(x.flips)).toEqual(Array.from(y.flips));
          expect(Array.from(x.globals)).toEqual(Array.from(y.globals));
          if (x.globals.subarray(COSTS_AT, CARDS_AT).some((v) => v !== 0)) costed++;
          // Some card sits directly on its successor (a built sequence), and no card row is empty.
          for (let k = 0; k < 52; k++) if (x.globals[CARDS_AT + k * CW + 15] === 1) linked++;
          for (let k = 0; k < 52; k++)
            expect(
              x.globals
                .subarray(CARDS_AT + k * CW, CARDS_AT + k * CW + 4)
                .reduce((a, b) => a + b, 0),
            ).toBe(1);
          // The links say something in some row (they are not all zero).
          if (CW > CARD_WIDTH)
            for (let k = 0; k < 52; k++)
              if (
                x.globals
                  .subarray(CARDS_AT + k * CW + CARD_WIDTH, CARDS_AT + (k + 1) * CW)
                  .some((v) => v !== 0)
              )
                withLinks++;
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(10);
      expect(flippers).toBeGreaterThan(2);
      expect(costed).toBeGreaterThan(2);
      expect(linked).toBeGreaterThan(0);
      if (set === "links") expect(withLinks).toBeGreaterThan(compared);
    },
  );
});

describe("the choice objective", () => {
  it("groups a dataset's moves by position and refuses moves out of order", () => {
    const data = {
      deal: new Int32Array(3),
      decision: Int32Array.of(0, 0, 0, 2, 2),
    } as unknown as SafetyData;
    expect(Array.from(decisionStarts(data))).toEqual([0, 3, 3, 5]);
    const bad = {
      deal: new Int32Array(2),
      decision: Int32Array.of(0, 1, 0),
    } as unknown as SafetyData;
    expect(() => decisionStarts(bad)).toThrow(/not grouped by position/);
  });

  it("is −log of the softmax weight on the winnable moves; its gradient lowers the losing moves", async () => {
    const { initBackend, tf } = await import("../../src/train/backend.js");
    await initBackend();
    // Two positions: three moves (the last loses), then two winnable moves.
    const z = [0.5, -1, 2, 0.3, 0.3];
    const target = [0.5, 0.5, 0, 0.5, 0.5];
    const seg = [0, 0, 0, 1, 1];
    const want = (choiceLossJs(z, target, 0, 3) + choiceLossJs(z, target, 3, 5)) / 2;
    // Position 2 sits at its minimum, log 2: both moves equal.
    expect(choiceLossJs(z, target, 3, 5)).toBeCloseTo(Math.log(2), 6);
    const sq = z.map((v) => 20 * Math.tanh(v / 20));
    const lse = Math.log(Math.exp(sq[0]!) + Math.exp(sq[1]!) + Math.exp(sq[2]!));
    expect(choiceLossJs(z, target, 0, 3)).toBeCloseTo(lse - 0.5 * (sq[0]! + sq[1]!), 6);
    const member = tf.tensor2d(
      seg.flatMap((p) => [p === 0 ? 1 : 0, p === 1 ? 1 : 0]),
      [5, 2],
    );
    const f = (zt: Parameters<typeof choiceLoss>[0]) =>
      choiceLoss(zt, member, tf.tensor1d(target), 2);
    const loss = tf.tidy(() => f(tf.tensor1d(z)).dataSync()[0]!);
    expect(loss).toBeCloseTo(want, 5);
    const g = tf.tidy(() =>
      Array.from(
        tf
          .grad((x) => f(x as Parameters<typeof choiceLoss>[0]))(tf.tensor1d(z))
          .dataSync(),
      ),
    );
    expect(g[2]!).toBeGreaterThan(0); // descent lowers the losing move
    expect(g[1]!).toBeLessThan(0); // and raises the winnable one that scores low
    expect(g[3]!).toBeCloseTo(0, 6);
    expect(g[4]!).toBeCloseTo(0, 6);
  });
});

describe("the exact-label oracle and the never-repeat guard", () => {
  it("safe goes back to a seen position when only such moves are winnable; safe:back=0 never does while a fresh move exists", async () => {
    const { labelGame, emptyBlock } = await import("../../src/train/safety/label.js");
    const { parsePlayers } = await import("../../src/train/safety/dataset.js");
    const { PACK_STRIDE, unpackState, Unpacker } = await import("../../src/train/safety/pack.js");
    expect(() => parsePlayers("safe:back=2")).toThrow(/safe:back must be 0 or 1/);
    // Deal 500294: the oracle that may go back first does so at move 11 (found on the validation deals).
    const backsWhileFresh = (back: boolean): number => {
      const out = emptyBlock();
      labelGame(
        rules,
        500294,
        { kind: "safe", shuffle: 0.2, back },
        0,
        { maxStates: 20000, maxSteps: 30 },
        out,
      );
      const unpacker = new Unpacker(rules);
      const before = Uint8Array.from(out.before);
      const seen = new Set<string>();
      let backs = 0;
      for (let d = 0; d < out.deal.length; d++) {
        const s = unpacker.state(before[d * PACK_STRIDE]!);
        unpackState(before, d * PACK_STRIDE, s);
        s.rehash();
        seen.add(`${s.hashLo},${s.hashHi}`);
        let fresh = 0;
        let playedBack = false;
        for (let k = 0; k < out.decision.length; k++) {
          if (out.decision[k] !== d) continue;
          applyMove(s, out.move[k]!);
          const repeat = seen.has(`${s.hashLo},${s.hashHi}`);
          undoMove(s, out.move[k]!);
          if (!repeat) fresh++;
          if (out.played[k] === 1) playedBack = repeat;
        }
        if (playedBack && fresh > 0) backs++;
      }
      return backs;
    };
    expect(backsWhileFresh(true)).toBeGreaterThan(0);
    expect(backsWhileFresh(false)).toBe(0);
  }, 60_000);
});

describe("the exact-label oracle ordered by lookahead", () => {
  it("plays, among the fresh winnable moves, the one lookahead's search values most (greedy breaking ties)", async () => {
    const { labelGame, emptyBlock } = await import("../../src/train/safety/label.js");
    const { parsePlayers } = await import("../../src/train/safety/dataset.js");
    const { PACK_STRIDE, unpackState, Unpacker } = await import("../../src/train/safety/pack.js");
    const { LookaheadAgent } = await import("../../src/agents/lookahead.js");
    const { MoveScorer, weightsOf } = await import("../../src/agents/heuristic.js");
    expect(parsePlayers("safe:order=lookahead:back=0")[0]!.options.order).toBe("lookahead");
    expect(() => parsePlayers("safe:order=best")).toThrow(/safe:order must be greedy or lookahead/);
    const out = emptyBlock();
    labelGame(
      rules,
      500007,
      { kind: "safe", shuffle: 0, back: false, order: "lookahead" },
      0,
      { maxStates: 20000, maxSteps: 40 },
      out,
    );
    const unpacker = new Unpacker(rules);
    const before = Uint8Array.from(out.before);
    const teacher = new LookaheadAgent({});
    const greedy = new MoveScorer(weightsOf({ preset: "tuned", without: [], weight: {} }));
    let differs = 0;
    for (let d = 0; d < out.deal.length; d++) {
      const s = unpacker.state(before[d * PACK_STRIDE]!).clone();
      unpackState(before, d * PACK_STRIDE, s);
      if (d === 0) teacher.reset(s.clone());
      const rows = [...out.decision.keys()].filter(
        (k) => out.decision[k] === d && out.label[k] === 1,
      );
      const moves = Int32Array.from(rows, (k) => out.move[k]!);
      const value = new Float64Array(rows.length);
      const score = new Float64Array(rows.length);
      // The teacher has seen the game's earlier positions, so moves back to them get −Infinity.
      teacher.valuesAt(s, moves, rows.length, value);
      greedy.scoreMoves(s, moves, rows.length, score);
      let best = -1;
      for (let i = 0; i < rows.length; i++)
        if (
          value[i]! > -Infinity &&
          (best < 0 ||
            value[i]! > value[best]! ||
            (value[i] === value[best] && score[i]! > score[best]!))
        )
          best = i;
      expect(best).toBeGreaterThanOrEqual(0);
      const played = rows.find((k) => out.played[k] === 1);
      expect(played).toBe(rows[best]);
      let g = 0;
      for (let i = 1; i < rows.length; i++) if (score[i]! > score[g]!) g = i;
      if (g !== best) differs++;
    }
    expect(out.deal.length).toBe(40);
    // Lookahead's order is not greedy's: it picks another winnable move at some positions.
    expect(differs).toBeGreaterThan(0);
  }, 60_000);
});

describe("an ensemble of safety networks", () => {
  it("scores a move by the mean of its networks' outputs, and refuses networks with other inputs", async () => {
    const { loadSafety, initWeights, defaultConfig } = await import(
      "../../src/players/safety/model.js"
    );
    const { SafetyView } = await import("../../src/players/safety/agent.js");
    const { PositionSet } = await import("../../src/agents/repeat-guard.js");
    const codec = new ActionCodec(rules);
    const a = loadSafety("results/train-safety/run-choice").weights;
    const b = initWeights(a.config, 9);
    const s = deal(rules, 11);
    type W = typeof a;
    const risks = (w: W | W[]) => {
      const v = new SafetyView(codec, w);
      v.look(s, new PositionSet());
      return Array.from(v.risk);
    };
    expect(risks([a, a])).toEqual(risks(a));
    // For a choice network the view averages the bounded scores, then turns them into relative risks.
    const both = risks([a, b]);
    const ra = risks(a),
      rb = risks(b);
    const legal = ra.map((_, i) => i).filter((i) => ra[i] !== 0 || rb[i] !== 0 || both[i] !== 0);
    expect(legal.length).toBeGreaterThan(3);
    expect(legal.some((i) => Math.abs(both[i]! - ra[i]!) > 1e-3)).toBe(true);
    expect(() => new SafetyView(codec, [a, initWeights(defaultConfig(7), 1)])).toThrow(
      /share their inputs and objective/,
    );
  });
});
