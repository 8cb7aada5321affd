/**
 * Where a plan's CPU time goes: each entry's share of the solve time on a deal set, with the
 * positions it stored, the deals it won and those it proved lost, and what is left outside the
 * searches (the replay of each line, restarting searches, setting up the race).
 *
 *   npx tsx scripts/racer-times.ts --sets freecell,penguin
 *
 * Each search's `run` is timed (CPU time) by wrapping the method of both strategies. A solve
 * calls the entries' searches for the first time in plan order (each racer's first turn comes in
 * the first round, and the plan's groups run one after another), so the n-th search run in a
 * solve is the plan's n-th entry. The wrapping costs little next to a turn, but the shares are
 * of this instrumented run: compare entries within it, not with other timings.
 */
import { BestFirst } from "../src/solver/best-first.js";
import { DepthFirst } from "../src/solver/depth-first.js";
import { defaultPlan } from "../src/solver/plan.js";
import { solve } from "../src/solver/search.js";
import { dealMs } from "../src/engine/deal.js";
import { resolveRules } from "../src/engine/rules.js";
import { fullDeals, SOLVER_SETS } from "../experiments/lib/solver-sets.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";

const OPTIONS = {
  sets: { type: "list", default: ["freecell", "penguin"], choices: SOLVER_SETS, help: "deal sets" },
  deals: {
    type: "int",
    default: 0,
    min: 0,
    max: 100_000,
    help: "deals per set, from --from on (0 = 1000, or 500 for Eight Off and Seahaven)",
  },
  from: { type: "int", default: 1, min: 1, max: 1_000_000, help: "first Microsoft deal number" },
  "warm-up": {
    type: "int",
    default: 5,
    min: 0,
    max: 100,
    help: "unmeasured passes over the set first (the JIT compiles meanwhile)",
  },
  rounds: { type: "int", default: 5, min: 1, max: 100, help: "measured passes over the set" },
} as const;

interface Tally {
  cpu: number;
  positions: number;
  won: number;
  lost: number;
}

type Run = (this: DepthFirst | BestFirst, deadline: number, stopAt?: number) => string;
/** The searches run so far in the current solve, in the order of their first run. */
let order: (DepthFirst | BestFirst)[] = [];
let tallies: Tally[] = [];

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

for (const proto of [DepthFirst.prototype, BestFirst.prototype]) {
  const run = proto.run as Run;
  (proto as { run: Run }).run = function (deadline, stopAt) {
    let i = order.indexOf(this);
    if (i < 0) i = order.push(this) - 1;
    const size = this.table.size;
    const t = cpuNow();
    const end = run.call(this, deadline, stopAt);
    const tally = tallies[i];
    if (tally) {
      tally.cpu += cpuNow() - t;
      tally.positions += this.table.size - size;
      if (end === "solved") tally.won++;
      if (end === "exhausted") tally.lost++;
    }
    return end;
  };
}

await exitOnUsageError("racer-times", async () => {
  const o = parseOptions("racer-times", OPTIONS, process.argv.slice(2));
  if (o.help) {
    process.stdout.write(`${helpText("scripts/racer-times", OPTIONS)}\n`);
    return;
  }
  for (const set of o.sets) {
    const rules = resolveRules(set, {});
    const plan = defaultPlan(rules);
    const n = o.deals || fullDeals(set);
    const boards = Array.from({ length: n }, (_, i) => dealMs(rules, o.from + i));
    const pass = (): number => {
      const t = cpuNow();
      for (const b of boards) {
        order = [];
        solve(b);
      }
      return cpuNow() - t;
    };
    for (let r = 0; r < o["warm-up"]; r++) pass();
    tallies = plan.map(() => ({ cpu: 0, positions: 0, won: 0, lost: 0 }));
    let total = 0;
    for (let r = 0; r < o.rounds; r++) total += pass();
    // A lost verdict counts only from a complete entry; a racer that runs dry just drops out.
    const inSearches = tallies.reduce((s, t) => s + t.cpu, 0);
    const ms = (us: number): number => Math.round(us / o.rounds / 100) / 10;
    const share = (us: number): number => Math.round((1000 * us) / total) / 10;
    plan.forEach((step, i) => {
      const t = tallies[i]!;
      const row = {
        set,
        deals: n,
        entry: step.name,
        cpuMsPerPass: ms(t.cpu),
        percent: share(t.cpu),
        positionsPerPass: t.positions / o.rounds,
        usPerPosition: t.positions ? Math.round((100 * t.cpu) / t.positions) / 100 : null,
        wonPerPass: t.won / o.rounds,
        ...(step.complete ? { provedLostPerPass: t.lost / o.rounds } : {}),
      };
      process.stdout.write(`${JSON.stringify(row)}\n`);
    });
    process.stdout.write(
      `${JSON.stringify({
        set,
        deals: n,
        entry: "(outside the searches)",
        cpuMsPerPass: ms(total - inSearches),
        percent: share(total - inSearches),
        totalCpuMsPerPass: ms(total),
      })}\n`,
    );
  }
});
