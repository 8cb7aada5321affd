import { describe, expect, it } from "vitest";
import { resolveRules, type Rules } from "../../src/engine/rules.js";
import { UsageError } from "../../src/errors.js";
import { deal } from "../../src/engine/deal.js";
import { applyMove, generateMoves, MAX_MOVES } from "../../src/engine/moves.js";
import type { State } from "../../src/engine/state.js";
import { ActionCodec } from "../../src/env/actions.js";
import type { Agent } from "../../src/agents/agent.js";
import { agentNames, createAgent } from "../../src/agents/registry.js";
import { FEATURE_NAMES } from "../../src/agents/move-features.js";
import { HEURISTIC_NAMES } from "../../src/agents/heuristic.js";
import { PositionSet } from "../../src/agents/repeat-guard.js";

/** Plays a game, checking every chosen action against the mask; returns the actions and positions. */
function trajectory(agent: Agent, rules: Rules, start: State, seed: number, maxSteps = 300) {
  const codec = new ActionCodec(rules);
  const mask = new Uint8Array(codec.n);
  const am = new Int32Array(codec.n);
  const s = start.clone();
  agent.reset(s.clone(), seed);
  const actions: number[] = [];
  const hashes: string[] = [s.hash().toString()];
  // For each step: did every legal move lead to an already-seen position?
  const forced: boolean[] = [];
  const moves = new Int32Array(MAX_MOVES);
  for (let i = 0; i < maxSteps && !s.isWon(); i++) {
    if (codec.fillMask(s, mask, am) === 0) break;
    const a = agent.act({
      state: s,
      mask,
      observation: new Float32Array(0),
      codec,
      actionMoves: am,
    });
    expect(mask[a], `step ${i}: action ${a} must be legal`).toBe(1);
    const seen = new Set(hashes);
    const n = generateMoves(s, moves);
    let allSeen = true;
    for (let k = 0; k < n; k++) {
      const t = s.clone();
      applyMove(t, moves[k]!);
      if (!seen.has(t.hash().toString())) allSeen = false;
    }
    forced.push(allSeen);
    applyMove(s, am[a]!);
    actions.push(a);
    hashes.push(s.hash().toString());
  }
  return { actions, hashes, forced, won: s.isWon() };
}

const penguin = resolveRules("penguin");

describe("registry", () => {
  it("lists the agents and rejects unknown names with the list", async () => {
    expect(agentNames()).toEqual(
      expect.arrayContaining(["random", "greedy", "lookahead", "solver", "policy"]),
    );
    await expect(createAgent("gredy", {}, penguin)).rejects.toThrow(UsageError);
    await expect(createAgent("gredy", {}, penguin)).rejects.toThrow(
      /known: random, greedy, lookahead/,
    );
  });

  it("rejects unknown heuristics, features and bad weights with one-line errors", async () => {
    await expect(createAgent("greedy", { heuristic: "nope" }, penguin)).rejects.toThrow(
      /known: parlett/,
    );
    await expect(createAgent("greedy", { without: "keep-flipers-empty" }, penguin)).rejects.toThrow(
      /unknown feature/,
    );
    await expect(createAgent("greedy", { weight: "build-in-suit" }, penguin)).rejects.toThrow(
      /feature=number/,
    );
    await expect(createAgent("lookahead", { depth: 0 }, penguin)).rejects.toThrow(/--depth/);
    await expect(createAgent("random", { depth: 3 }, penguin)).rejects.toThrow(
      /agent random has no option "depth"; allowed: agent-seed/,
    );
  });

  it("loads solver and policy lazily: an agent, or a clear UsageError when the area is missing", async () => {
    for (const name of ["solver", "policy"]) {
      try {
        const a = await createAgent(name, {}, penguin);
        expect(typeof a.act).toBe("function");
      } catch (e) {
        // Missing area ("not available"), or the area's own one-line complaint about its options.
        expect(e).toBeInstanceOf(UsageError);
      }
    }
  });

  it("names agents with their options", async () => {
    expect(
      (
        await createAgent(
          "greedy",
          { heuristic: "parlett", without: "keep-flippers-empty", weight: "build-in-suit=2" },
          penguin,
        )
      ).name,
    ).toBe("greedy(parlett,-keep-flippers-empty,build-in-suit=2)");
    expect((await createAgent("lookahead", { depth: 3, width: 2 }, penguin)).name).toBe(
      "lookahead(tuned,depth=3,width=2)",
    );
    expect((await createAgent("random", {}, penguin)).name).toBe("random");
  });
});

describe("agents play only legal actions", () => {
  const configs: [string, Record<string, string | number>][] = [
    ["random", {}],
    ...HEURISTIC_NAMES.map((h): [string, Record<string, string>] => ["greedy", { heuristic: h }]),
    ["lookahead", { depth: 2, width: 2 }],
  ];
  for (const preset of ["penguin", "freecell", "seahaven-towers"]) {
    const rules = resolveRules(preset);
    for (const [name, opts] of configs) {
      it(`${name} ${JSON.stringify(opts)} on ${preset}`, async () => {
        const agent = await createAgent(name, opts, rules);
        let steps = 0;
        for (let seed = 1; seed <= 3; seed++)
          steps += trajectory(
            agent,
            rules,
            deal(rules, seed),
            seed,
            name === "lookahead" ? 60 : 200,
          ).actions.length;
        expect(steps).toBeGreaterThan(10);
      });
    }
  }
});

describe("greedy", () => {
  it("never returns to a position of the episode while another move exists", async () => {
    let steps = 0;
    for (const h of HEURISTIC_NAMES) {
      const agent = await createAgent("greedy", { heuristic: h }, penguin);
      for (let seed = 1; seed <= 4; seed++) {
        const t = trajectory(agent, penguin, deal(penguin, seed), seed, 400);
        const seen = new Set<string>([t.hashes[0]!]);
        for (let i = 0; i < t.actions.length; i++) {
          const next = t.hashes[i + 1]!;
          if (seen.has(next))
            expect(
              t.forced[i],
              `${h} seed ${seed} step ${i} revisits while a fresh move exists`,
            ).toBe(true);
          seen.add(next);
        }
        steps += t.actions.length;
      }
    }
    // Long games, so the check covers wandering play, not only quick wins.
    expect(steps).toBeGreaterThan(500);
  });

  it("has a named feature for each of Parlett's tips, and switching one off changes play", async () => {
    const tips = [
      "free-base-cards",
      "keep-flippers-empty",
      "plan-empty-columns",
      "build-in-suit",
      "short-flipper-use",
    ];
    expect(FEATURE_NAMES).toEqual(expect.arrayContaining([...tips, "foundation-first"]));
    const base = await createAgent("greedy", { heuristic: "parlett" }, penguin);
    const starts = Array.from({ length: 12 }, (_, i) => deal(penguin, 500 + i));
    const ref = starts.map((s, i) => trajectory(base, penguin, s, i, 150).actions.join(","));
    for (const f of [...tips, "foundation-first"]) {
      const off = await createAgent("greedy", { heuristic: "parlett", without: f }, penguin);
      const differs = starts.some(
        (s, i) => trajectory(off, penguin, s, i, 150).actions.join(",") !== ref[i],
      );
      expect(differs, `--without ${f} changes some game`).toBe(true);
    }
  });
});

describe("determinism", () => {
  it("random: same seed same game, other seed other game", async () => {
    const s = deal(penguin, 42);
    const a = trajectory(await createAgent("random", {}, penguin), penguin, s, 7).actions;
    const b = trajectory(await createAgent("random", {}, penguin), penguin, s, 7).actions;
    const c = trajectory(await createAgent("random", {}, penguin), penguin, s, 8).actions;
    const d = trajectory(
      await createAgent("random", { "agent-seed": 3 }, penguin),
      penguin,
      s,
      7,
    ).actions;
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a).not.toEqual(d);
  });

  it("greedy and lookahead: same deal same game, also after other games", async () => {
    for (const [name, o] of [
      ["greedy", { heuristic: "tuned" }],
      ["lookahead", { depth: 2, width: 2 }],
    ] as const) {
      const agent = await createAgent(name, o, penguin);
      const first = trajectory(agent, penguin, deal(penguin, 9), 9, 100).actions;
      trajectory(agent, penguin, deal(penguin, 10), 10, 100);
      expect(trajectory(agent, penguin, deal(penguin, 9), 9, 100).actions).toEqual(first);
    }
  });
});

describe("PositionSet", () => {
  it("adds, finds and grows without losing keys", () => {
    const p = new PositionSet();
    for (let i = 0; i < 5000; i++) expect(p.add(i * 7919, i ^ 0xdeadbeef)).toBe(true);
    expect(p.add(0, 0xdeadbeef)).toBe(false);
    expect(p.size).toBe(5000);
    for (let i = 0; i < 5000; i++) expect(p.has(i * 7919, i ^ 0xdeadbeef)).toBe(true);
    expect(p.has(1, 1)).toBe(false);
    p.clear();
    expect(p.has(0, 0xdeadbeef)).toBe(false);
  });
});
