import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { AgentOptions } from "../../src/agents/agent.js";
import { createAgent } from "../../src/agents/registry.js";
import { deal } from "../../src/engine/deal.js";
import { applyMove, isLegal } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import { UsageError } from "../../src/errors.js";
import { ActionCodec } from "../../src/env/actions.js";
import { evaluate, type EvalRow } from "../../src/eval/evaluate.js";
import { seedRange } from "../../src/eval/deals.js";
import type { GuidedAgent } from "../../src/solver/guided.js";
import { solve } from "../../src/solver/search.js";

const penguin = resolveRules("penguin");
const MODEL = "results/train-safety/run";

/** Plays one deal move by move, checking each move; returns the moves and each decision's expansions. */
function game(agent: GuidedAgent, seed: number, maxSteps = 400) {
  const codec = new ActionCodec(penguin);
  const mask = new Uint8Array(codec.n);
  const am = new Int32Array(codec.n);
  const s = deal(penguin, seed);
  agent.reset(s.clone(), seed);
  const moves: number[] = [];
  const expanded: number[] = [];
  while (!s.isWon() && moves.length < maxSteps && codec.fillMask(s, mask, am) > 0) {
    const a = agent.act({
      state: s,
      mask,
      observation: new Float32Array(0),
      codec,
      actionMoves: am,
    });
    expect(mask[a]).toBe(1);
    expect(isLegal(s, am[a]!)).toBe(true);
    applyMove(s, am[a]!);
    moves.push(am[a]!);
    expanded.push(agent.lastExpanded);
  }
  return { moves, expanded, won: s.isWon() };
}

async function guided(options: AgentOptions): Promise<GuidedAgent> {
  return (await createAgent("guided", options, penguin)) as GuidedAgent;
}

describe("guided agent", () => {
  it("never expands more than its budget in one move, and uses it", async () => {
    for (const nodes of [10, 30]) {
      const agent = await guided({ order: "greedy", nodes });
      const { expanded } = game(agent, 3);
      expect(Math.max(...expanded)).toBeLessThanOrEqual(nodes);
      expect(Math.max(...expanded)).toBe(nodes);
    }
    const net = await guided({ order: "safety", model: MODEL, nodes: 10 });
    const { expanded } = game(net, 3, 60);
    expect(Math.max(...expanded)).toBeLessThanOrEqual(10);
    // One batched network call per expanded position, plus one at the root of each search.
    expect(net.ordering.calls).toBeLessThanOrEqual(
      expanded.reduce((a, b) => a + b, 0) + expanded.length,
    );
  });

  it("plays legal games in both orders, the same game for the same deal", async () => {
    for (const options of [
      { order: "greedy", nodes: 30 },
      { order: "safety", model: MODEL, nodes: 5 },
      { order: "safety-root", model: MODEL, nodes: 30 },
    ]) {
      const a = game(await guided(options), 5, 80);
      const b = game(await guided(options), 5, 80);
      expect(a.moves.length).toBeGreaterThan(10);
      expect(b.moves).toEqual(a.moves);
    }
  });

  it("a line it finds is a win: deal 2 with 100 positions a move is won", async () => {
    const agent = await guided({ order: "greedy", nodes: 100 });
    const g = game(agent, 2);
    expect(g.won).toBe(true);
    expect(solve(deal(penguin, 2)).result).toBe("solved");
  });

  it("vetoes only moves the solver proves lost (5 flippers, deals 1-6)", async () => {
    const rules = resolveRules("penguin", { cells: 5 });
    const codec = new ActionCodec(rules);
    const mask = new Uint8Array(codec.n);
    const am = new Int32Array(codec.n);
    const agent = (await createAgent(
      "guided",
      { order: "greedy", nodes: 300 },
      rules,
    )) as GuidedAgent;
    let vetoes = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const s = deal(rules, seed);
      agent.reset(s.clone(), seed);
      for (let step = 0; step < 300 && !s.isWon() && codec.fillMask(s, mask, am) > 0; step++) {
        const a = agent.act({
          state: s,
          mask,
          observation: new Float32Array(0),
          codec,
          actionMoves: am,
        });
        for (const m of agent.lastVetoed) {
          const after = s.clone();
          applyMove(after, m);
          expect(solve(after, { maxStates: 500_000 }).result).toBe("unsolvable");
          vetoes++;
        }
        applyMove(s, am[a]!);
      }
    }
    expect(vetoes).toBeGreaterThan(0);
  });

  it("gives the same rows with 1 and 2 workers", async () => {
    const spec = {
      agent: "guided",
      agentOptions: { order: "greedy", nodes: 30 },
      rules: penguin,
      deals: seedRange(1, 4),
      timing: false,
    };
    const one: EvalRow[] = [];
    const two: EvalRow[] = [];
    for await (const r of evaluate(spec)) one.push(r);
    for await (const r of evaluate({ ...spec, workers: 2 })) two.push(r);
    expect(one.map((r) => r.agent)[0]).toBe("guided(order=greedy,nodes=30)");
    expect(two).toEqual(one);
  });

  it("rejects bad options with a one-line UsageError", async () => {
    for (const [opts, msg] of [
      [{ nodes: -1 }, /nodes must be an integer from 0 to 100000, got -1/],
      [{ nodes: "1e9" }, /nodes must be an integer/],
      [{ count: "all" }, /count must be one of expanded, stored, got all/],
      [{ order: "safety", model: "/nonexistent" }, /no safety network at \/nonexistent/],
      [{ model: "x" }, /model is only read with order=safety or safety-root/],
      [{ depth: 3 }, /agent guided has no option "depth"/],
    ] as const) {
      const e = await createAgent("guided", opts, penguin).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(UsageError);
      expect((e as Error).message).toMatch(msg);
      expect((e as Error).message).not.toContain("\n");
    }
  });

  it("the command exits 2 with one line on a bad option", () => {
    for (const [opt, msg] of [
      ["order=best", /order must be one of greedy, safety, safety-root, got best/],
      ["nodes=-1", /nodes must be an integer from 0 to/],
    ] as const) {
      const r = spawnSync(
        "node",
        [
          "bin/penguin.js",
          "eval",
          "--agent",
          "guided",
          "--agent-opt",
          opt,
          "--deals",
          "1",
          "--no-timing",
        ],
        { encoding: "utf8" },
      );
      expect(r.status, opt).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
    }
  });
});
