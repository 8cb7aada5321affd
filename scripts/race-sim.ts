/**
 * Races replayed on paper: how a plan's budgets and turns were chosen (docs/solver.md, "Before
 * that (4 December 2026)"). Racers without `share` never see each other's positions (each has its
 * own table; they share only the overall budget) and each one's search is the same however it is cut into turns,
 * so a race is fixed by how many positions each racer needs alone: to win, or before it runs dry
 * or out of its budget. `--collect` runs every racer of the rule set's default plan alone on each
 * deal (at most `--cap` positions, `--complete-cap` for a complete entry) and writes those counts
 * and each racer's CPU time per position; `--data` then replays the default plan's turns (or
 * those of `--plan`) against the counts, and `--anneal N` searches budgets, turns, order and
 * membership for a plan of lower cost: positions weighted by each racer's CPU time per position.
 * The annealing fits the first half of the deals and reports the second half as well: the hard
 * deals that decide the cost are few, so a plan that wins on one half often loses on the other.
 *
 *   npx tsx scripts/race-sim.ts --collect runs/fc-1-8000.json --deals 8000
 *   npx tsx scripts/race-sim.ts --data runs/fc-1-8000.json --check
 *   npx tsx scripts/race-sim.ts --data runs/fc-1-8000.json --anneal 20000 --seed 3
 *   npx tsx scripts/race-sim.ts --collect runs/pg.json --preset penguin --deals 2000 --extra extra.json
 *
 * `--extra FILE`: more racers to collect, a JSON list of plan entries (PlanStep), e.g. the purpose
 * order with another seed; `--anneal` may then put them in the plan. `--check` also solves each
 * deal with the plan for real and counts the deals whose positions the replay got exactly: all of
 * them but some where a best-first racer had a turn (it stores a node's children at once, so it
 * may run past the end of a turn; `unexplained` lists any other). Prints one JSON line per result.
 * Racers that `share` what they have seen change each other's searches, which counts taken alone
 * cannot tell: `--data` replays the plan without `share`, and `--check` solves with that plan.
 */
import { dealMs } from "../src/engine/deal.js";
import { PRESET_NAMES, resolveRules, type RuleOverrides, type Rules } from "../src/engine/rules.js";
import { UsageError } from "../src/errors.js";
import { checkPlan, defaultPlan, type PlanStep, type SolvePlan } from "../src/solver/plan.js";
import { solve } from "../src/solver/search.js";
import { Mulberry32 } from "../src/engine/rng.js";
import { writeOutput } from "../src/util/output.js";
import { readTextFile } from "../src/util/read.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";

const OPTIONS = {
  collect: {
    type: "string",
    default: "",
    help: "run each racer alone and write the counts to this JSON file",
  },
  data: { type: "string", default: "", help: "counts written by --collect, to replay races on" },
  preset: {
    type: "choice",
    default: "freecell",
    choices: PRESET_NAMES,
    help: "rule set (with --collect)",
  },
  empty: {
    type: "choice",
    default: "preset",
    choices: ["preset", "below-base", "any", "none"],
    help: "which cards may fill an empty column (with --collect)",
  },
  from: {
    type: "int",
    default: 1,
    min: 1,
    max: 1_000_000,
    help: "first Microsoft deal (with --collect)",
  },
  deals: { type: "int", default: 4000, min: 2, max: 100_000, help: "deals (with --collect)" },
  cap: {
    type: "int",
    default: 6000,
    min: 1,
    max: 2_000_000,
    help: "most positions a racer may store alone (with --collect)",
  },
  "complete-cap": {
    type: "int",
    default: 300_000,
    min: 1,
    max: 2_000_000,
    help: "the same for a complete entry and for entries with a larger budget",
  },
  extra: { type: "string", default: "", help: "JSON list of more plan entries to collect" },
  plan: {
    type: "string",
    default: "",
    help: "JSON plan to replay instead of the default plan (with --data)",
  },
  check: {
    type: "flag",
    help: "also solve each deal with the plan and compare positions (with --data)",
  },
  anneal: {
    type: "int",
    default: 0,
    min: 0,
    max: 10_000_000,
    help: "annealing steps on the first half of the deals (with --data; 0: none)",
  },
  seed: { type: "int", default: 1, min: 0, max: 2 ** 31 - 1, help: "the annealing's random seed" },
  fixed: {
    type: "string",
    default: "dfs-static",
    help: "entries the annealing leaves as they are, comma-separated (FreeCell's dfs-static: #8166, plan.ts)",
  },
} as const;

/** One racer's counts: per deal, positions to win alone (> 0), or −n: ran dry or out of its cap after n. */
interface RacerData {
  readonly step: PlanStep;
  /** Most positions it was let store alone: a count of −cap means out of cap, not run dry. */
  readonly cap: number;
  readonly counts: number[];
  /**
   * What its positions cost, by how far into its search they come: cost[i] CPU microseconds
   * each for the positions from AT[i - 1] (0 for i = 0) to AT[i], the last for all beyond. Measured
   * alone on the first deals with budgets AT[0], AT[1], …: the difference of the CPU times over the
   * difference of the positions stored, so a search's start (building it, its first expansions,
   * which list the most children) falls on its first positions.
   */
  readonly cost: number[];
}
interface SimData {
  readonly preset: string;
  /** Options changed from the preset (`--empty`). */
  readonly overrides: RuleOverrides;
  readonly from: number;
  readonly deals: number;
  readonly racers: Record<string, RacerData>;
}
/** A plan entry as the replay needs it: a racer's name, its budget and its turns. */
interface Entry {
  name: string;
  budget: number;
  slice: number[];
}

/** The budgets at which each racer's CPU time is measured (RacerData.cost), and on how many deals. */
const AT = [10, 25, 50, 100, 200, 400, 800, 1600, 3200, 6400];
const COST_DEALS = 400;
/** raceDeal's verdict when a complete entry ran dry. */
const LOST = "(lost)";
/** The solver's default budget over the whole plan. */
const MAX_STATES = 2_000_000;
const MAX_DATA_BYTES = 1 << 30;

function entriesOf(plan: SolvePlan): Entry[] {
  return plan.map((p) => {
    if (!p.race)
      throw new UsageError(
        `plan entry ${p.name}: only plans whose entries all race can be replayed`,
      );
    const slice =
      p.slice === undefined ? [1000] : typeof p.slice === "number" ? [p.slice] : [...p.slice];
    return { name: p.name, budget: Math.min(p.budget ?? MAX_STATES, MAX_STATES), slice };
  });
}

function collect(
  rules: Rules,
  overrides: RuleOverrides,
  from: number,
  deals: number,
  cap: number,
  completeCap: number,
  extra: readonly PlanStep[],
): SimData {
  const steps = [...defaultPlan(rules), ...extra];
  const seen = new Set<string>();
  for (const step of steps) {
    if (seen.has(step.name))
      throw new UsageError(
        `--extra: a racer named ${step.name} is already in the plan; give it another name`,
      );
    seen.add(step.name);
  }
  // Each racer's CPU time per position is measured once the code is compiled: the default plan
  // on a few hundred deals first, unmeasured.
  for (let d = from; d < from + Math.min(deals, 300); d++) solve(dealMs(rules, d));
  const costs = costCurves(rules, from, Math.min(deals, COST_DEALS), steps);
  const racers: Record<string, RacerData> = {};
  steps.forEach((step, k) => {
    const alone = step.complete || (step.budget ?? Infinity) > cap ? completeCap : cap;
    const plan: SolvePlan = [{ ...step, budget: alone, race: false, slice: undefined }];
    const counts: number[] = [];
    let positions = 0;
    for (let d = from; d < from + deals; d++) {
      const r = solve(dealMs(rules, d), { plan });
      counts.push(r.result === "solved" ? r.states : -r.states);
      positions += r.states;
    }
    racers[step.name] = { step, cap: alone, counts, cost: costs[k]! };
    process.stderr.write(
      `race-sim: ${step.name}: won ${counts.filter((x) => x > 0).length} of ${deals}, ${positions} positions; µs a position from ${AT.join(", ")} on: ${costs[k]!.map((x) => x.toFixed(1)).join(" ")}\n`,
    );
  });
  return { preset: rules.preset, overrides, from, deals, racers };
}

/**
 * RacerData.cost for each step, alone on deals from .. from+n-1. Every racer is timed in each of
 * three passes, in turn, and keeps its least time per budget: the machine's slow spells, which
 * inflate a pass and never shrink one, then fall on all racers alike.
 */
function costCurves(rules: Rules, from: number, n: number, steps: readonly PlanStep[]): number[][] {
  const boards = Array.from({ length: n }, (_, i) => dealMs(rules, from + i));
  const cpu = steps.map(() => AT.map(() => Infinity));
  const pos = steps.map(() => AT.map(() => 0));
  for (let pass = 0; pass < 3; pass++) {
    steps.forEach((step, k) => {
      AT.forEach((budget, i) => {
        const plan: SolvePlan = [{ ...step, budget, race: false, slice: undefined }];
        const t = process.cpuUsage();
        let p = 0;
        for (const b of boards) p += solve(b, { plan }).states;
        const c = process.cpuUsage(t);
        cpu[k]![i] = Math.min(cpu[k]![i]!, c.user + c.system);
        pos[k]![i] = p;
      });
    });
  }
  return steps.map((_, k) => {
    const cost: number[] = [];
    AT.forEach((_, i) => {
      const dp = pos[k]![i]! - (i > 0 ? pos[k]![i - 1]! : 0);
      const dc = cpu[k]![i]! - (i > 0 ? cpu[k]![i - 1]! : 0);
      // No more positions past this budget (every deal decided before it): the last cost holds.
      cost.push(dp > 0 ? Math.max(dc, 0) / dp : (cost[i - 1] ?? 1));
    });
    return cost;
  });
}

/** The CPU microseconds of a racer's positions from a to b (RacerData.cost). */
function costOf(cost: readonly number[], a: number, b: number): number {
  let us = 0;
  for (let i = 0; i < AT.length && a < b; i++) {
    const hi = i === AT.length - 1 ? Infinity : AT[i]!;
    if (a >= hi) continue;
    const to = Math.min(b, hi);
    us += (to - a) * cost[i]!;
    a = to;
  }
  return us;
}

/**
 * The race of `plan` on deal d as solve() runs it (search.ts, `race`): positions stored, their
 * cost in microseconds, and who decided (a racer's name; LOST when a complete entry ran dry;
 * null: no verdict within the counts).
 */
function raceDeal(
  plan: readonly Entry[],
  data: SimData,
  d: number,
): { positions: number; us: number; winner: string | null; bestFirst: boolean } {
  const racers = plan.map((e) => {
    const r = data.racers[e.name];
    if (!r) throw new UsageError(`plan entry ${e.name}: no counts for it in --data`);
    const need = r.counts[d]!;
    return {
      e,
      need,
      dry: need < 0 && -need < r.cap && r.step.complete === true,
      cost: r.cost,
      used: 0,
      turns: 0,
      bestFirst: r.step.strategy === "best-first",
    };
  });
  // Whether a best-first racer had a turn: it may run past a turn's end, which the replay does not.
  let bestFirst = false;
  let live = racers;
  let left = MAX_STATES;
  let us = 0;
  while (live.length > 0 && left > 0) {
    for (const r of live) {
      const length =
        live.length > 1
          ? Math.min(r.e.slice[Math.min(r.turns++, r.e.slice.length - 1)]!, left)
          : left;
      const end = Math.min(r.e.budget, r.need > 0 ? r.need : -r.need);
      const step = Math.min(length, end - r.used);
      if (r.bestFirst && step > 0) bestFirst = true;
      us += costOf(r.cost, r.used, r.used + step);
      r.used += step;
      left -= step;
      if (r.need > 0 && r.used === r.need)
        return { positions: MAX_STATES - left, us, winner: r.e.name, bestFirst };
      if (r.dry && r.used === -r.need)
        return { positions: MAX_STATES - left, us, winner: LOST, bestFirst };
      if (r.used === end) live = live.filter((x) => x !== r);
    }
  }
  return { positions: MAX_STATES - left, us, winner: null, bestFirst };
}

/** Positions, cost (CPU microseconds), deals proved lost and deals left open over deals from .. to-1. */
function replay(
  plan: readonly Entry[],
  data: SimData,
  from: number,
  to: number,
): { positions: number; cost: number; lost: number; open: number } {
  let positions = 0;
  let us = 0;
  let lost = 0;
  let open = 0;
  for (let d = from; d < to; d++) {
    const r = raceDeal(plan, data, d);
    positions += r.positions;
    us += r.us;
    if (r.winner === LOST) lost++;
    else if (!r.winner) open++;
  }
  return { positions, cost: Math.round(us), lost, open };
}

/**
 * Simulated annealing over the entries' budgets, turns, order and racers, on the deals from 0 to
 * `upto`. The last entry (the complete search) stays last and as it is, and so do the entries
 * named in `fixed`.
 */
function anneal(
  start: readonly Entry[],
  data: SimData,
  upto: number,
  steps: number,
  seed: number,
  fixed: ReadonlySet<string>,
): Entry[] {
  const rnd = new Mulberry32(seed);
  const ri = (n: number): number => rnd.nextU32() % n;
  const scale = (v: number): number =>
    Math.max(1, Math.round(v * [0.5, 0.7, 0.85, 0.95, 1.05, 1.2, 1.4, 2][ri(8)]!));
  // A deal left open weighs as a second of CPU time: a plan must keep deciding what it decided.
  const f = (p: readonly Entry[]): number => {
    const r = replay(p, data, 0, upto);
    return r.cost + r.open * 1e6;
  };
  const names = Object.keys(data.racers);
  let cur = structuredClone(start) as Entry[];
  let curV = f(cur);
  let best = cur;
  let bestV = curV;
  for (let it = 0; it < steps; it++) {
    const p = structuredClone(cur);
    const last = p.length - 1;
    const i = ri(last);
    const e = p[i]!;
    const unused = names.filter((n) => !p.some((q) => q.name === n));
    const move = ri(8);
    if (fixed.has(e.name) && move !== 3) continue;
    if (move <= 1) {
      const k = ri(e.slice.length);
      e.slice[k] = scale(e.slice[k]!);
    } else if (move === 2) e.budget = scale(e.budget);
    else if (move === 3) {
      const j = ri(last);
      [p[i], p[j]] = [p[j]!, e];
    } else if (move === 4) {
      if (last < 2) continue;
      p.splice(i, 1);
    } else if (move === 5) {
      if (unused.length === 0) continue;
      p.splice(ri(last + 1), 0, {
        name: unused[ri(unused.length)]!,
        budget: [100, 300, 600, 1500][ri(4)]!,
        slice: [[50, 100, 200, 300][ri(4)]!, 1],
      });
    } else if (move === 6) {
      if (e.slice.length < 4)
        e.slice.splice(ri(e.slice.length + 1), 0, [1, 25, 50, 100, 300][ri(5)]!);
      else e.slice.splice(ri(e.slice.length), 1);
    } else {
      if (unused.length === 0) continue;
      e.name = unused[ri(unused.length)]!;
    }
    // Past its cap a racer's count says nothing: no budget above it.
    for (const q of p.slice(0, -1)) q.budget = Math.min(q.budget, data.racers[q.name]!.cap);
    const v = f(p);
    const temperature = 0.003 * bestV * (1 - it / steps);
    if (v < curV || rnd.next() < Math.exp((curV - v) / Math.max(temperature, 1e-9)))
      (cur = p), (curV = v);
    if (v < bestV) (best = p), (bestV = v);
  }
  return best;
}

function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readTextFile(path, { maxBytes: MAX_DATA_BYTES, what }));
  } catch (e) {
    if (e instanceof SyntaxError)
      throw new UsageError(`${what}: ${path} is not JSON (${e.message})`);
    throw e;
  }
}

await exitOnUsageError("race-sim", async () => {
  const o = parseOptions("race-sim", OPTIONS, process.argv.slice(2));
  if (o.help) {
    process.stdout.write(`${helpText("scripts/race-sim", OPTIONS)}\n`);
    return;
  }
  if (!o.collect === !o.data)
    throw new UsageError(
      "give one of --collect FILE (run the racers) and --data FILE (replay races)",
    );
  if (o.collect) {
    const extra = o.extra ? readJson(o.extra, "--extra") : [];
    if (!Array.isArray(extra)) throw new UsageError("--extra: give a JSON list of plan entries");
    try {
      if (extra.length > 0) checkPlan(extra as PlanStep[]);
    } catch (e) {
      if (e instanceof RangeError) throw new UsageError(`--extra: ${e.message}`);
      throw e;
    }
    const overrides: RuleOverrides = o.empty === "preset" ? {} : { emptyColumn: o.empty };
    const rules = resolveRules(o.preset, overrides);
    const data = collect(
      rules,
      overrides,
      o.from,
      o.deals,
      o.cap,
      o["complete-cap"],
      extra as PlanStep[],
    );
    writeOutput(o.collect, `${JSON.stringify(data)}\n`, { what: "--collect" });
    return;
  }
  const data = readJson(o.data, "--data") as SimData;
  if (!data || typeof data !== "object" || !data.racers || !Number.isInteger(data.deals))
    throw new UsageError(`--data: ${o.data} was not written by --collect`);
  const rules = resolveRules(data.preset, data.overrides ?? {});
  const given: SolvePlan = o.plan ? (readJson(o.plan, "--plan") as SolvePlan) : defaultPlan(rules);
  if (!Array.isArray(given)) throw new UsageError("--plan: give a JSON list of plan entries");
  const plan = given.map(({ share, ...p }) => p);
  try {
    checkPlan(plan);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`--plan: ${e.message}`);
    throw e;
  }
  const entries = entriesOf(plan);
  const all = replay(entries, data, 0, data.deals);
  process.stdout.write(
    `${JSON.stringify({
      preset: data.preset,
      ...data.overrides,
      from: data.from,
      deals: data.deals,
      plan: o.plan || "default",
      ...all,
    })}\n`,
  );
  if (o.check) {
    let same = 0;
    let real = 0;
    // Deals replayed wrong where no best-first racer had a turn: none, or the replay is wrong.
    const unexplained: number[] = [];
    for (let d = 0; d < data.deals; d++) {
      const r = solve(dealMs(rules, data.from + d), { plan });
      const sim = raceDeal(entries, data, d);
      real += r.states;
      if (r.states === sim.positions) same++;
      else if (!sim.bestFirst) unexplained.push(data.from + d);
    }
    process.stdout.write(
      `${JSON.stringify({
        check: "solve() with the plan",
        positions: real,
        replayedPositions: all.positions,
        dealsExact: same,
        deals: data.deals,
        unexplained,
      })}\n`,
    );
  }
  if (o.anneal > 0) {
    const half = data.deals >> 1;
    const best = anneal(entries, data, half, o.anneal, o.seed, new Set(o.fixed.split(",")));
    const fitted = { before: replay(entries, data, 0, half), after: replay(best, data, 0, half) };
    const heldOut = {
      before: replay(entries, data, half, data.deals),
      after: replay(best, data, half, data.deals),
    };
    process.stdout.write(`${JSON.stringify({ annealed: best, fitted, heldOut })}\n`);
  }
});
