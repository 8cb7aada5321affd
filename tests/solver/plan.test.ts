import { describe, expect, it } from "vitest";
import { deal, dealMs } from "../../src/engine/deal.js";
import { resolveRules } from "../../src/engine/rules.js";
import type { State } from "../../src/engine/state.js";
import {
  defaultPlan,
  PLANS,
  replayWins,
  solve,
  type PlanStep,
  type SolvePlan,
} from "../../src/solver/index.js";
import { ADDED, FULL, PRESENT, TranspositionTable } from "../../src/solver/transposition.js";
import { bruteForce } from "./brute.js";

// Every strategy of the plans, each run alone as a complete search.
const W = [20, 8, 16, 6, 6] as const;
const STRATEGIES: readonly PlanStep[] = [
  { name: "best-first", strategy: "best-first", weights: W, complete: true },
  { name: "best-first-patient", strategy: "best-first", weights: W, stepCost: 1, complete: true },
  { name: "best-first-meta", strategy: "best-first", weights: W, meta: true, complete: true },
  { name: "dfs-scored", strategy: "depth-first", weights: [20, 12, 20, 3, 3], complete: true },
  {
    name: "dfs-engine-order",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "engine",
    complete: true,
  },
  {
    name: "dfs-static-order",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static",
    complete: true,
  },
  {
    name: "dfs-manoeuvre",
    strategy: "depth-first",
    weights: [10, 10, 10, 5, 5],
    order: "manoeuvre",
    complete: true,
  },
  {
    name: "dfs-manoeuvre-jittered",
    strategy: "depth-first",
    weights: [10, 10, 10, 5, 5],
    order: "manoeuvre",
    jitter: 10,
    seed: 3,
    complete: true,
  },
  {
    name: "dfs-static-jittered",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static",
    jitter: 20,
    seed: 1,
    complete: true,
  },
  // Manoeuvres only add children, so the class order with them is complete too.
  {
    name: "dfs-static-manoeuvre",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static-manoeuvre",
    complete: true,
  },
  // Horne's prune stays exact in depth-first search where whole runs are parked (suit building);
  // under FreeCell's alternate colours the search leaves it out.
  {
    name: "dfs-engine-order-horne",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "engine",
    horne: true,
    complete: true,
  },
  {
    name: "dfs-static-order-horne",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static",
    horne: true,
    complete: true,
  },
  {
    name: "dfs-static-manoeuvre-horne",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static-manoeuvre",
    horne: true,
    complete: true,
  },
];
// Lean entries leave single moves into a flipper out: never complete.
const LEAN: readonly PlanStep[] = [
  {
    name: "lean-dfs",
    strategy: "depth-first",
    weights: [10, 10, 10, 5, 5],
    order: "manoeuvre",
    lean: true,
  },
  { name: "lean-best-first", strategy: "best-first", weights: W, meta: true, lean: true },
  {
    name: "lean-dfs-jittered",
    strategy: "depth-first",
    weights: [10, 17, 15, 5, 3],
    order: "manoeuvre",
    lean: true,
    jitter: 10,
    seed: 2,
  },
  {
    name: "lean-dfs-classes",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static-manoeuvre",
    lean: true,
  },
];

// Eager entries send every card next on its foundation home at once: never complete either.
const EAGER: readonly PlanStep[] = [
  {
    name: "eager-dfs-static",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static",
    eager: true,
  },
  {
    name: "eager-lean-best-first",
    strategy: "best-first",
    weights: W,
    meta: true,
    lean: true,
    eager: true,
  },
];

// Horne's prune: a parked card goes onto the card it builds on once that card is last in a
// column, so a win that needs it kept parked is missed: never complete either.
const HORNE: readonly PlanStep[] = [
  {
    name: "horne-lean-dfs",
    strategy: "depth-first",
    weights: [10, 17, 15, 5, 3],
    order: "manoeuvre",
    lean: true,
    horne: true,
  },
  { name: "horne-best-first", strategy: "best-first", weights: W, meta: true, horne: true },
  {
    name: "horne-dfs-static",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static",
    horne: true,
  },
  // The racer of the Penguin and Eight Off plans.
  {
    name: "horne-lean-dfs-classes",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "static-manoeuvre",
    lean: true,
    horne: true,
  },
  // FreeCell's second racer: only moves with a purpose, so never complete with or without the prune.
  {
    name: "horne-purpose",
    strategy: "depth-first",
    weights: [20, 12, 20, 3, 3],
    order: "purpose",
    horne: true,
    jitter: 10,
    seed: 1,
  },
  { name: "purpose", strategy: "depth-first", weights: [20, 12, 20, 3, 3], order: "purpose" },
];

type Case = readonly [label: string, start: () => State, winnable: boolean];
// Verdicts that outside facts fix: FreeCell #11982 needs 5 cells; the fewest-cells list
// (tests/data) gives 2 for #19793 and #21158; the other verdicts were checked against Freecell
// Solver's exhaustive searches (Baker's Game, Seahaven Towers, Eight Off, Penguin MS deals) and
// against the naive breadth-first search of solver.test.ts where small.
const ms = (preset: string, n: number, cells?: number) => () =>
  dealMs(resolveRules(preset, cells === undefined ? {} : { cells }), n);
const CASES: readonly Case[] = [
  ["FreeCell #11982, 4 cells", ms("freecell", 11982), false],
  ["FreeCell #11982, 5 cells", ms("freecell", 11982, 5), true],
  ["FreeCell #19793, 2 cells", ms("freecell", 19793, 2), true],
  ["FreeCell #19793, 1 cell", ms("freecell", 19793, 1), false],
  ["FreeCell #21158, 1 cell", ms("freecell", 21158, 1), false],
  ["Baker's Game #1", ms("bakers-game", 1), true],
  ["Baker's Game #3", ms("bakers-game", 3), true],
  ["Baker's Game #10", ms("bakers-game", 10), false],
  ["Baker's Game #14", ms("bakers-game", 14), false],
  ["Seahaven Towers #2", ms("seahaven-towers", 2), true],
  ["Seahaven Towers #21", ms("seahaven-towers", 21), false],
  ["Eight Off #1", ms("eight-off", 1), true],
  ["Penguin #3", ms("penguin", 3), true],
  ["Penguin seed 71", () => deal(resolveRules("penguin"), 71), false],
];

describe("search strategies, each alone", () => {
  for (const step of STRATEGIES)
    it(`${step.name}: exact verdicts on the fixed sample`, () => {
      for (const [label, start, winnable] of CASES) {
        const s = start();
        const r = solve(s, { plan: [step], maxStates: 400_000 });
        expect(r.result, `${step.name} on ${label}`).toBe(winnable ? "solved" : "unsolvable");
        if (r.result === "solved") expect(replayWins(s, r.moves)).toBe(true);
      }
    });
});

describe("lean, eager and horne searches", () => {
  for (const step of [...LEAN, ...EAGER, ...HORNE])
    it(`${step.name}: never "unsolvable", and wins the won deals of the sample with a line that replays`, () => {
      for (const [label, start, winnable] of CASES) {
        const s = start();
        const r = solve(s, { plan: [step], maxStates: 400_000 });
        // Lost deals: the search runs dry, which proves nothing when moves were left out (or
        // cards sent home that a win might have needed).
        expect(r.result, `${step.name} on ${label}`).toBe(winnable ? "solved" : "unknown");
        if (r.result === "solved") expect(replayWins(s, r.moves)).toBe(true);
      }
    });

  it("an eager search sends home cards the complete search keeps: on FreeCell #11982 it runs dry sooner", () => {
    const s = dealMs(resolveRules("freecell"), 11982);
    const proof = solve(s, { plan: [STRATEGIES[5]!] });
    const eager = solve(s, { plan: [{ ...STRATEGIES[5]!, complete: false, eager: true }] });
    expect(proof.result).toBe("unsolvable");
    expect(eager.result).toBe("unknown");
    expect(eager.states).toBeLessThan(proof.states);
  });

  it("a lean, eager, purpose-order or best-first horne entry cannot be marked complete, turn lists must hold positive integers, and orders are named", () => {
    const s = dealMs(resolveRules("freecell"), 1);
    expect(() => solve(s, { plan: [{ ...LEAN[0]!, complete: true }] })).toThrow(
      /lean.*cannot be complete/,
    );
    expect(() => solve(s, { plan: [{ ...STRATEGIES[5]!, eager: true }] })).toThrow(
      /eager.*cannot be complete/,
    );
    expect(() => solve(s, { plan: [{ ...STRATEGIES[0]!, horne: true }] })).toThrow(
      /horne.*cannot be complete/,
    );
    expect(() => solve(s, { plan: [{ ...STRATEGIES[5]!, order: "purpose" }] })).toThrow(
      /purpose-order.*cannot be complete/,
    );
    for (const slice of [[], [100, 0], [2.5]])
      expect(() => solve(s, { plan: [{ ...LEAN[0]!, slice, race: true }] })).toThrow(/slice/);
    const order = "classes" as PlanStep["order"];
    expect(() => solve(s, { plan: [{ ...LEAN[0]!, order }] })).toThrow(
      "plan lean-dfs: order must be one of score, manoeuvre, engine, static, static-manoeuvre, purpose, got classes",
    );
  });

  it("a jittered search depends on its seed alone: the same seed repeats it, other seeds search differently", () => {
    const step: PlanStep = { ...LEAN[2]!, budget: 20_000 };
    const counts = (seed: number): number[] =>
      [1, 2, 92, 657, 1941].map(
        (n) => solve(dealMs(resolveRules("freecell"), n), { plan: [{ ...step, seed }] }).states,
      );
    expect(counts(2)).toEqual(counts(2));
    const others = [5, 6, 7].map(counts);
    // Seeds reorder near-ties only, so some deals may come out alike, but not all of them.
    for (const o of others) expect(o).not.toEqual(counts(2));
    const s = dealMs(resolveRules("freecell"), 1);
    for (const bad of [{ jitter: -1 }, { jitter: 2.5 }, { seed: 0.5 }, { emptyFrom: -1 }])
      expect(() => solve(s, { plan: [{ ...step, ...bad }] })).toThrow(/jitter|seed|emptyFrom/);
  });

  it("a race follows each entry's list of turns", () => {
    // The first racer gets 1 position a turn, so the second (same search) wins first.
    const s = dealMs(resolveRules("freecell"), 1);
    const step = STRATEGIES[3]!;
    const r = solve(s, {
      plan: [
        { ...step, name: "slow", race: true, slice: [1] },
        { ...step, name: "fast", race: true, slice: [1, 5000] },
      ],
    });
    expect(r).toMatchObject({ result: "solved", by: "fast" });
    const r2 = solve(s, {
      plan: [
        { ...step, name: "slow", race: true, slice: [5000] },
        { ...step, name: "fast", race: true, slice: [1] },
      ],
    });
    expect(r2).toMatchObject({ result: "solved", by: "slow" });
  });
});

describe("plans", () => {
  it("a plan without a complete entry answers only solved or unknown, even when it searched everything", () => {
    const lost = dealMs(resolveRules("freecell"), 11982);
    const partial: SolvePlan = STRATEGIES.map(({ complete: _, ...step }) => ({
      ...step,
      race: true,
    }));
    const r = solve(lost, { plan: partial, maxStates: 2_000_000 });
    expect(r).toMatchObject({ result: "unknown", reason: "max-states" });
    // Each racer ran out of positions (about 72,000 for this proof) rather than of budget.
    expect(r.states).toBeLessThan(2_000_000);
    const won = solve(dealMs(resolveRules("freecell"), 1), { plan: partial });
    expect(won.result).toBe("solved");
  });

  it("the default plans end with their complete search and decide the sample", () => {
    for (const [label, start, winnable] of CASES) {
      const s = start();
      const plan = defaultPlan(s.rules);
      expect(plan[plan.length - 1]!.complete, label).toBe(true);
      expect(solve(s).result, label).toBe(winnable ? "solved" : "unsolvable");
      expect(solve(s, { plan: PLANS.teacher }).result, `teacher plan on ${label}`).toBe(
        winnable ? "solved" : "unsolvable",
      );
    }
  });

  it("the plans of Baker's Game, Eight Off and Penguin (beak home too) give exact verdicts on their known deals", () => {
    // Eight Off #465 and Penguin MS #616 are the only lost deals of MS 1-500 and MS 1-1000
    // (Freecell Solver's exhaustive search agrees on Eight Off's).
    const cases: readonly (readonly [SolvePlan, Case])[] = [
      [PLANS.bakers, ["Baker's Game #3", ms("bakers-game", 3), true]],
      [PLANS.bakers, ["Baker's Game #10", ms("bakers-game", 10), false]],
      [PLANS.eightOff, ["Eight Off #1", ms("eight-off", 1), true]],
      [PLANS.eightOff, ["Eight Off #2", ms("eight-off", 2), true]],
      [PLANS.eightOff, ["Eight Off #465", ms("eight-off", 465), false]],
      [PLANS.penguin, ["Penguin #3", ms("penguin", 3), true]],
      [PLANS.penguin, ["Penguin #616", ms("penguin", 616), false]],
      [PLANS.penguin, ["Penguin seed 71", () => deal(resolveRules("penguin"), 71), false]],
      [PLANS.penguin, ["Penguin, 5 flippers, #1", ms("penguin", 1, 5), true]],
      [PLANS.beakHome, ["Penguin, beak home, #1", ms("penguin-beak-home", 1), true]],
    ];
    for (const [plan, [label, start, winnable]] of cases) {
      const s = start();
      expect(defaultPlan(s.rules), label).toBe(plan);
      const r = solve(s);
      expect(r.result, label).toBe(winnable ? "solved" : "unsolvable");
      if (r.result === "solved") expect(replayWins(s, r.moves), label).toBe(true);
      else expect(r.by, label).toBe(plan[plan.length - 1]!.name);
    }
  });

  it("FreeCell deals that every short racer misses are solved at the default budget", () => {
    // Every MS deal 1-32000 but #11982 can be won. On these two the racers with budgets of a few
    // thousand positions all fail, and the complete search alone spent its 2,000,000 positions
    // without finding the win; the patient best-first racer's larger budget finds it.
    for (const n of [10824, 30359]) {
      const s = dealMs(resolveRules("freecell"), n);
      const r = solve(s);
      expect(r.result, `#${n}`).toBe("solved");
      if (r.result === "solved") expect(replayWins(s, r.moves), `#${n}`).toBe(true);
      expect(r.states, `#${n}`).toBeLessThan(200_000);
    }
  });

  it("FreeCell #8166, which the purpose-order searches miss, is won within a few hundred positions", () => {
    // Without the class-order racer the plan ran to its complete search here: 839,590 positions,
    // over a second. It wins the deal when the racers keep their positions apart; when they share
    // them, lean-flippers-2 does first.
    const rules = resolveRules("freecell");
    const s = dealMs(rules, 8166);
    const apart = defaultPlan(rules).map(({ share, ...p }) => p);
    for (const [r, by] of [
      [solve(s), "lean-flippers-2"],
      [solve(s, { plan: apart }), "dfs-static"],
    ] as const) {
      expect(r).toMatchObject({ result: "solved", by });
      if (r.result === "solved") expect(replayWins(s, r.moves)).toBe(true);
      expect(r.states).toBeLessThan(2000);
    }
  });

  it("kings-only FreeCell #733 and #1509 are won within a few thousand positions, #733 by the move-class search past its first turns", () => {
    // That search stopped at 200 positions before: #1509 was then undecided after 2,000,000
    // positions of the complete search, and #733 took 256,000.
    for (const n of [733, 1509]) {
      const s = dealMs(resolveRules("freecell", { emptyColumn: "below-base" }), n);
      const r = solve(s);
      expect(r, `#${n}`).toMatchObject({
        result: "solved",
        by: n === 733 ? "dfs-static" : "lean-empty-columns",
      });
      if (r.result === "solved") expect(replayWins(s, r.moves), `#${n}`).toBe(true);
      expect(r.states, `#${n}`).toBeLessThan(10_000);
    }
  });

  it("FreeCell with fewer than 4 cells or single-card moves gets its own plan, which wins #209 with 3 cells", () => {
    // The published fewest-cells list wins #209 with 2 cells. With 3 cells the 4-cell plan left
    // it undecided after 2,000,000 positions; its patient racer needs about 160,000.
    expect(defaultPlan(resolveRules("freecell"))).toBe(PLANS.alternate);
    for (const cells of [0, 1, 2, 3])
      expect(defaultPlan(resolveRules("freecell", { cells })), `${cells} cells`).toBe(
        PLANS.fewerCells,
      );
    expect(defaultPlan(resolveRules("freecell", { groupMove: "single" }))).toBe(PLANS.fewerCells);
    expect(defaultPlan(resolveRules("freecell", { cells: 5, groupMove: "free-cells" }))).toBe(
      PLANS.alternate,
    );
    for (const emptyColumn of ["below-base", "none"] as const)
      expect(defaultPlan(resolveRules("freecell", { emptyColumn })), emptyColumn).toBe(
        PLANS.kingsOnly,
      );
    const s = dealMs(resolveRules("freecell", { cells: 3 }), 209);
    const r = solve(s);
    expect(r.result).toBe("solved");
    if (r.result === "solved") expect(replayWins(s, r.moves)).toBe(true);
    expect(r.states).toBeLessThan(400_000);
  });

  it("penguin-beak-home: a move that sends base cards home is never taken for a manoeuvre", () => {
    // Such a move may set bit 30 (the suit of a base card it sends home), the bit that marks a
    // manoeuvre under other rules. Read as manoeuvres, these moves made #36 look lost, and made
    // #994 end in a line that did not replay (the default plan's depth-first searches, and the
    // teacher plan's best-first search when it rebuilds its line).
    for (const n of [36, 994]) {
      const s = dealMs(resolveRules("penguin-beak-home"), n);
      for (const plan of [PLANS.beakHome, PLANS.teacher]) {
        const r = solve(s, { plan });
        expect(r.result, `#${n}`).toBe("solved");
        if (r.result === "solved") expect(replayWins(s, r.moves), `#${n}`).toBe(true);
      }
    }
    // A lost deal stays lost, and the naive breadth-first search agrees.
    const lost = dealMs(resolveRules("penguin-beak-home"), 1223);
    expect(solve(lost).result).toBe("unsolvable");
    expect(bruteForce(lost, 1_000_000)).toBe("unsolvable");
  });

  it("tables that share a key set: a key one stored is present for the others, while sizes and budgets stay each table's own", () => {
    const seen = new TranspositionTable(100);
    const budget = { left: 3 };
    const [a, b] = [new TranspositionTable(2, budget), new TranspositionTable(2, budget)];
    a.keys = b.keys = seen;
    expect(a.add(5, 7)).toBe(ADDED);
    expect([b.has(5, 7), b.add(5, 7)]).toEqual([true, PRESENT]);
    expect([a.size, b.size, seen.size, budget.left]).toEqual([1, 0, 1, 2]);
    expect([b.add(1, 1), b.add(2, 2), b.add(3, 3)]).toEqual([ADDED, ADDED, FULL]); // b's own cap of 2
    expect(a.add(4, 4)).toBe(FULL); // the race's budget of 3
    // Restarted without one, a table keeps its keys to itself again.
    b.restart(2);
    expect([b.has(5, 7), b.add(5, 7), seen.has(5, 7), seen.size]).toEqual([false, ADDED, true, 3]);
  });

  it("racers that share what they have seen store fewer positions in all, with the same verdicts, and never answer lost", () => {
    const rules = resolveRules("freecell");
    const apart = defaultPlan(rules).map(({ share, ...p }) => p);
    expect(defaultPlan(rules).filter((p) => p.share).length).toBe(6);
    let together = 0;
    let alone = 0;
    for (let n = 1; n <= 300; n++) {
      const s = dealMs(rules, n);
      const [a, b] = [solve(s), solve(s, { plan: apart })];
      expect(a.result, `#${n}`).toBe(b.result);
      if (a.result === "solved") expect(replayWins(s, a.moves), `#${n}`).toBe(true);
      together += a.states;
      alone += b.states;
    }
    // FreeCell MS 1-300: 43,747 positions shared, 48,682 apart.
    expect(together).toBeLessThan(alone * 0.95);
    // Lost with 4 cells: the sharing racers alone run dry, and only the complete search may say so.
    const lost = dealMs(rules, 11982);
    expect(solve(lost, { plan: defaultPlan(rules).filter((p) => !p.complete) }).result).toBe(
      "unknown",
    );
    expect(solve(lost).result).toBe("unsolvable");
  });

  it("a race never stores more positions than maxStates", () => {
    const s = dealMs(resolveRules("freecell"), 11982);
    for (const maxStates of [1, 7, 999, 5000])
      expect(solve(s, { maxStates }).states).toBeLessThanOrEqual(maxStates);
  });

  it("searches restarted from an earlier solve give what new ones give", () => {
    // solve() restarts the small searches of its last call with the same plan entries; copies
    // of the entries get new searches. Each deal is solved twice (after another deal, then
    // after itself, where anything left of the last search would show) and against new searches.
    // Penguin keeps one search per base rank: MS 4 (base 12, as MS 3) restarts MS 3's searches
    // after MS 5 (base 0) had searches of its own.
    const deals = [
      ...[1, 2, 92, 657].map((n) => ms("freecell", n)),
      ms("bakers-game", 10),
      ...[3, 5, 4].map((n) => ms("penguin", n)),
      ms("freecell", 11982),
    ];
    for (const start of deals) {
      const s = start();
      const after = [solve(s), solve(s)];
      const fresh = solve(s, { plan: defaultPlan(s.rules).map((p) => ({ ...p })) });
      for (const r of after) expect({ ...r, ms: 0 }).toEqual({ ...fresh, ms: 0 });
    }
  });

  it("rejects malformed plans with a clear message", () => {
    const s = dealMs(resolveRules("freecell"), 1);
    expect(() => solve(s, { plan: [] })).toThrow(/at least one entry/);
    expect(() =>
      solve(s, {
        plan: [
          {
            name: "x",
            strategy: "depth-first",
            weights: [1, 2, 3, 4, 5],
            complete: true,
            share: true,
          },
        ],
      }),
    ).toThrow(
      /plan x: a lean, eager, sharing, purpose-order or best-first horne search cannot be complete/,
    );
    expect(() =>
      solve(s, {
        plan: [{ name: "x", strategy: "depth-first", weights: [1, 2, 3, 4, 5], budget: 0 }],
      }),
    ).toThrow(/budget/);
  });
});
