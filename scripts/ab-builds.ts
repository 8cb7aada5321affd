/**
 * Two builds of this package's solver, timed against each other in one process: their `dist/`
 * trees are loaded side by side and solve the same Microsoft deals in turns, round after round
 * (which one goes first alternates), so the machine's slow spells fall on both. Prints one JSON
 * line per deal set: the median CPU seconds of each build over the rounds after two warm-up
 * rounds, the median of the rounds' own ratios (b / a) with its 95 % interval (`ratio95`, from
 * order statistics: above 1 at the low end, b was slower), whether the two builds stored the same
 * positions and gave the same verdicts deal by deal, and with `--control` the same ratio for
 * build a against itself, which shows how far apart two identical runs land on this machine.
 *
 *   git worktree add ../old <commit> && ln -s "$PWD/node_modules" ../old/node_modules && (cd ../old && npm run build)
 *   npm run build && npx tsx scripts/ab-builds.ts --a ../old --b . --sets freecell,penguin --control
 *
 * Built code only: TypeScript run through `tsx` from two directories timed 5 % apart with the
 * same source (docs/solver.md, "Before that (3 December 2026, night)").
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "../src/errors.js";
import type { State } from "../src/engine/state.js";
import { median, medianInterval } from "../experiments/lib/median.js";
import { fullDeals, SOLVER_SETS } from "../experiments/lib/solver-sets.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";

const OPTIONS = {
  a: {
    type: "string",
    default: "",
    help: "root of the first build (a directory with dist/src/solver/search.js)",
  },
  b: { type: "string", default: ".", help: "root of the second build" },
  sets: { type: "list", default: ["freecell", "penguin"], choices: SOLVER_SETS, help: "deal sets" },
  deals: {
    type: "int",
    default: 0,
    min: 0,
    max: 100_000,
    help: "deals per set, from --from on (0 = 1000, or 500 for Eight Off and Seahaven)",
  },
  from: { type: "int", default: 1, min: 1, max: 1_000_000, help: "first Microsoft deal number" },
  cells: { type: "int", default: -1, min: -1, max: 8, help: "free cells (-1: the preset's)" },
  "group-move": {
    type: "choice",
    default: "preset",
    choices: ["preset", "unlimited", "supermove", "free-cells", "single"],
    help: "group-move rule",
  },
  empty: {
    type: "choice",
    default: "preset",
    choices: ["preset", "below-base", "any", "none"],
    help: "which cards may fill an empty column",
  },
  rounds: {
    type: "int",
    default: 10,
    min: 3,
    max: 200,
    help: "rounds per build and set, the first two not counted",
  },
  control: { type: "flag", help: "also time build a against itself, as many rounds" },
} as const;

interface Build {
  solve: (s: State) => { states: number; result: string };
  deal: (n: number, preset: string, overrides: Overrides) => State;
}
type Overrides = Record<string, string | number>;

async function load(root: string): Promise<Build> {
  const dist = resolve(root, "dist/src");
  if (!existsSync(resolve(dist, "solver/search.js")))
    throw new UsageError(
      `--a/--b: ${root} has no dist/src/solver/search.js; run npm run build there`,
    );
  const url = (p: string): string => pathToFileURL(resolve(dist, p)).href;
  const search = (await import(url("solver/search.js"))) as { solve: Build["solve"] };
  const deal = (await import(url("engine/deal.js"))) as {
    dealMs: (r: unknown, n: number) => State;
  };
  const rules = (await import(url("engine/rules.js"))) as {
    resolveRules: (p: string, o: Overrides) => unknown;
  };
  return {
    solve: search.solve,
    deal: (n, preset, overrides) => deal.dealMs(rules.resolveRules(preset, overrides), n),
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** One pass of a build over its boards: CPU seconds, and each deal's positions and verdict. */
function pass(
  build: Build,
  boards: readonly State[],
): { cpu: number; states: number[]; verdicts: string[] } {
  const states: number[] = [];
  const verdicts: string[] = [];
  const t = process.cpuUsage();
  for (const s of boards) {
    const r = build.solve(s);
    states.push(r.states);
    verdicts.push(r.result);
  }
  const c = process.cpuUsage(t);
  return { cpu: (c.user + c.system) / 1e6, states, verdicts };
}

/** Median CPU seconds of x and y and the median of the rounds' ratios y / x, in alternating turns. */
function race(x: Build, bx: readonly State[], y: Build, by: readonly State[], rounds: number) {
  const tx: number[] = [];
  const ty: number[] = [];
  let last: { x: ReturnType<typeof pass>; y: ReturnType<typeof pass> } | undefined;
  for (let r = 0; r < rounds; r++) {
    const first = r % 2 === 0;
    const p = first ? pass(x, bx) : pass(y, by);
    const q = first ? pass(y, by) : pass(x, bx);
    last = first ? { x: p, y: q } : { x: q, y: p };
    if (r >= 2) tx.push(last.x.cpu), ty.push(last.y.cpu);
  }
  const ratios = ty.map((t, i) => t / tx[i]!);
  return {
    x: median(tx),
    y: median(ty),
    ratio: median(ratios),
    ratio95: medianInterval(ratios),
    last: last!,
  };
}

await exitOnUsageError("ab-builds", async () => {
  const o = parseOptions("ab-builds", OPTIONS, process.argv.slice(2));
  if (o.help) {
    process.stdout.write(`${helpText("scripts/ab-builds", OPTIONS)}\n`);
    return;
  }
  if (!o.a) throw new UsageError("--a: give the root of the first build (a directory with dist/)");
  const a = await load(o.a);
  const b = await load(o.b);
  const overrides: Overrides = {};
  if (o.cells >= 0) overrides.cells = o.cells;
  if (o["group-move"] !== "preset") overrides.groupMove = o["group-move"];
  if (o.empty !== "preset") overrides.emptyColumn = o.empty;
  for (const preset of o.sets) {
    const n = o.deals || fullDeals(preset);
    const boardsOf = (x: Build): State[] =>
      Array.from({ length: n }, (_, i) => x.deal(o.from + i, preset, overrides));
    const ba = boardsOf(a);
    const bb = boardsOf(b);
    const ab = race(a, ba, b, bb, o.rounds);
    const same = ab.last.x.states.every(
      (v, i) => v === ab.last.y.states[i] && ab.last.x.verdicts[i] === ab.last.y.verdicts[i],
    );
    const row: Record<string, unknown> = {
      set: preset,
      ...overrides,
      from: o.from,
      deals: n,
      rounds: o.rounds,
      aCpuSeconds: round3(ab.x),
      bCpuSeconds: round3(ab.y),
      ratio: round3(ab.ratio),
      ratio95: ab.ratio95?.map(round3) ?? null,
      aPositions: ab.last.x.states.reduce((s, v) => s + v, 0),
      bPositions: ab.last.y.states.reduce((s, v) => s + v, 0),
      samePositionsAndVerdicts: same,
    };
    if (o.control) row.controlRatio = round3(race(a, ba, a, boardsOf(a), o.rounds).ratio);
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
});
