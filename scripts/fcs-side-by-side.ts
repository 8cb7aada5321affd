/**
 * This package's exact solver and Freecell Solver side by side, on the same Microsoft deals, in
 * CPU seconds, on this machine. For each deal set the boards are dealt and written out here
 * (`dealMs`, `formatFcsBoard`), solved by Freecell Solver through scripts/fcs/fcs-batch (which
 * times its own solve loop), and solved by `solve()` at its default plan and budget in this
 * process, in the loop of bench/solver.bench.ts: three warm-up deals, a first run, then the same
 * set again ("again") once the code is compiled.
 *
 *   gcc -O2 -o scripts/fcs/fcs-batch scripts/fcs/fcs-batch.c -lfreecell-solver -lm
 *   nice -n 10 npx tsx scripts/fcs-side-by-side.ts                       # the five full sets
 *   nice -n 10 npx tsx scripts/fcs-side-by-side.ts --rounds 5            # medians of 5 rounds in turns
 *   npx tsx scripts/fcs-side-by-side.ts --sets freecell,penguin --deals 100
 *   npx tsx scripts/fcs-side-by-side.ts --sets seahaven-towers --settings all --replay 500
 *   npx tsx scripts/fcs-side-by-side.ts --sets freecell --rounds 5 --by-size  # where the time goes: easy deals and hard, won and lost apart
 *   npx tsx scripts/fcs-side-by-side.ts --rounds 5 --warm-up 5            # compiled code only (see docs/benchmarks.md)
 *   nice -n 10 npx tsx scripts/fcs-side-by-side.ts --sets freecell,penguin,eight-off --rounds 41 --warm-up 5 --settings lg,eo
 *                                                                         # paired ratios with 95 % intervals narrow enough to tell a few per cent
 *
 * `--replay N` replays Freecell Solver's lines (kings-only sets) through the engine
 * (scripts/fcs/replay.ts); `--settings` picks candidates by name (docs/solver.md lists them).
 * Prints one JSON line per set and per Freecell Solver setting. A deal that one solver calls
 * solvable and the other proves unsolvable is listed under `disagreements` and reported on stderr.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NO_CARD, rankOf, RANKS, suitOf, SUITS } from "../src/engine/card.js";
import { formatFcsBoard } from "../src/engine/board.js";
import { dealMs } from "../src/engine/deal.js";
import { applyMove, CELL0, moveCard, moveTo, moveToEmpty, type Move } from "../src/engine/moves.js";
import { resolveRules, type RuleOverrides, type Rules } from "../src/engine/rules.js";
import type { State } from "../src/engine/state.js";
import { UsageError } from "../src/errors.js";
import { solve } from "../src/solver/search.js";
import { median, medianInterval } from "../experiments/lib/median.js";
import { SOLVER_SETS, type SolverSet } from "../experiments/lib/solver-sets.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";
import { presetWithout } from "./fcs/presets.js";
import { fcsSolution, replayFcs, type ReplayVerdict } from "./fcs/replay.js";

const HARNESS = fileURLToPath(new URL("./fcs/fcs-batch", import.meta.url));
const BUILD = "gcc -O2 -o scripts/fcs/fcs-batch scripts/fcs/fcs-batch.c -lfreecell-solver -lm";

type SetName = SolverSet | "kings-only-bakers-game";
/** The five sets of the default run; kings-only Baker's Game only when asked for. */
const SET_NAMES: readonly SetName[] = SOLVER_SETS;
const ALL_SETS: readonly SetName[] = [...SET_NAMES, "kings-only-bakers-game"];

/** Penguin as Freecell Solver plays it: kings-only Baker's Game on relabelled ranks (see `penguinBoard`). */
const PENGUIN_GAME = [
  "--game",
  "ko_bakers_game",
  "--freecells-num",
  "7",
  "--stacks-num",
  "7",
  "--sequence-move",
  "unlimited",
];

interface Setting {
  readonly name: string;
  /** Whether its "unsolvable" is a proof for the game (a complete search over single-card or full move sets). */
  readonly exhaustive: boolean;
  readonly args: () => string[];
  /** How the JSON names the options, when they are too long to print. */
  readonly shown?: string;
}
interface DealSet {
  readonly preset: string;
  /** Options changed from the preset, so that both solvers play the same game. */
  readonly overrides?: RuleOverrides;
  readonly full: number;
  readonly settings: readonly Setting[];
  /**
   * How many of the first settings the default run measures: the fastest whose verdicts agreed
   * with this package's proofs and whose lines replayed legally, and, where that one's
   * "unsolvable" is no proof, the fastest exact one.
   */
  readonly chosen: number;
}
const LG_MINUS = "(the looking-glass preset's options, without the moves ";
const HORNE = ["-sp", "r:tf"];
const NO_J_PRESETS = ["as", "ct", "obf", "eo", "te"];

/**
 * Candidate settings for a suit-building game. `atomic` (single-card moves, Horne's prune, which
 * is safe when cards build in suit) searches every position, so its "unsolvable" is a proof;
 * `X-then-atomic` runs X and, only when X finds no line, a second instance (`-ni`) with atomic
 * moves, so its verdicts are exact too. The others stop when their own move set is exhausted.
 */
function suitGame(game: string, order: readonly string[]): Setting[] {
  const g = ["--game", game];
  const atomicArgs = [...g, "--method", "soft-dfs", "-to", "01ABCDE", ...HORNE];
  const meta = [...g, "--method", "soft-dfs", "-to", "0123456789", ...HORNE];
  const all: Setting[] = [
    { name: "atomic", exhaustive: true, args: () => atomicArgs },
    {
      name: "atomic-no-horne",
      exhaustive: true,
      args: () => [...g, "--method", "soft-dfs", "-to", "01ABCDE"],
    },
    { name: "meta", exhaustive: false, args: () => meta },
    { name: "meta-then-atomic", exhaustive: true, args: () => [...meta, "-ni", ...atomicArgs] },
    { name: "lg", exhaustive: false, args: () => [...g, "-l", "lg"] },
    {
      name: "lg-without-j",
      exhaustive: false,
      args: () => [...g, ...presetWithout("looking-glass", "j")],
      shown: `--game ${game} ${LG_MINUS}"j")`,
    },
    // Presets tuned for FreeCell whose move orders have no `j` moves (amateur-star,
    // conspiracy-theory, one-big-family, enlightened-ostrich, three-eighty).
    ...NO_J_PRESETS.flatMap((p): Setting[] => [
      { name: p, exhaustive: false, args: () => [...g, "-l", p] },
      {
        name: `${p}-then-atomic`,
        exhaustive: true,
        args: () => [...g, "-l", p, "-ni", ...atomicArgs],
      },
    ]),
    {
      name: "lg-without-j-then-atomic",
      exhaustive: true,
      args: () => [...g, ...presetWithout("looking-glass", "j"), "-ni", ...atomicArgs],
      shown: `--game ${game} ${LG_MINUS}"j") -ni ${atomicArgs.join(" ")}`,
    },
  ];
  return order.map((name) => all.find((x) => x.name === name)!);
}

/** Single-card moves over every position of FreeCell (no Horne's prune: with two parents a card may have to stay parked). */
const FREECELL_ATOMIC = ["--method", "soft-dfs", "-to", "01ABCDE"];

const SETS: Readonly<Record<SetName, DealSet>> = {
  freecell: {
    preset: "freecell",
    full: 1000,
    chosen: 1,
    settings: [
      { name: "lg", exhaustive: false, args: () => ["-l", "lg"] },
      // For fewer cells, where deals are lost: exact, but a lost deal's proof may need far more memory.
      {
        name: "lg-then-atomic",
        exhaustive: true,
        args: () => ["-l", "lg", "-ni", ...FREECELL_ATOMIC],
      },
    ],
  },
  "kings-only-bakers-game": {
    preset: "kings-only-bakers-game",
    // Freecell Solver moves at most free cells + 1 cards as a group where only kings may fill
    // an empty column; the preset's supermove counts empty columns too, an easier game.
    overrides: { groupMove: "free-cells" },
    full: 1000,
    chosen: 1,
    settings: suitGame("ko_bakers_game", [
      "meta-then-atomic",
      "atomic",
      "eo",
      "eo-then-atomic",
      "meta",
    ]),
  },
  "bakers-game": {
    preset: "bakers-game",
    full: 1000,
    chosen: 1,
    settings: suitGame("bakers_game", [
      "meta-then-atomic",
      "atomic",
      "atomic-no-horne",
      "meta",
      "lg",
      "as",
      "as-then-atomic",
      "eo-then-atomic",
    ]),
  },
  "eight-off": {
    preset: "eight-off",
    full: 500,
    chosen: 3,
    settings: suitGame("eight_off", [
      "eo",
      "eo-then-atomic",
      "lg-without-j",
      "meta-then-atomic",
      "lg-without-j-then-atomic",
      "meta",
      "atomic",
      "lg",
      "as",
      "as-then-atomic",
      "ct",
      "ct-then-atomic",
      "obf",
      "obf-then-atomic",
      "te",
      "te-then-atomic",
    ]),
  },
  "seahaven-towers": {
    preset: "seahaven-towers",
    full: 500,
    chosen: 3,
    settings: suitGame("seahaven", [
      "eo",
      "eo-then-atomic",
      "lg-without-j",
      "lg-without-j-then-atomic",
      "meta-then-atomic",
      "meta",
      "atomic",
      "lg",
      "as",
      "as-then-atomic",
      "ct",
      "ct-then-atomic",
      "obf",
      "obf-then-atomic",
      "te",
      "te-then-atomic",
    ]),
  },
  penguin: {
    preset: "penguin",
    full: 1000,
    // Also Freecell Solver's default search, with and without Horne's prune, for comparison: no
    // setting is exact here (see penguinBoard).
    chosen: 3,
    settings: [
      { name: "eo", exhaustive: false, args: () => [...PENGUIN_GAME, "-l", "eo"] },
      // Every position of the relabelled game once `eo` finds no line (its moves lack the wrap onto a base card).
      {
        name: "eo-then-atomic",
        exhaustive: false,
        args: () => [
          ...PENGUIN_GAME,
          "-l",
          "eo",
          "-ni",
          ...PENGUIN_GAME,
          "--method",
          "soft-dfs",
          "-to",
          "01ABCDE",
          ...HORNE,
        ],
      },
      { name: "default-horne", exhaustive: false, args: () => [...PENGUIN_GAME, ...HORNE] },
      { name: "default", exhaustive: false, args: () => [...PENGUIN_GAME] },
      {
        name: "lg-without-j",
        exhaustive: false,
        args: () => [...PENGUIN_GAME, ...presetWithout("looking-glass", "j")],
        shown: `${PENGUIN_GAME.join(" ")} ${LG_MINUS}"j")`,
      },
      { name: "lg", exhaustive: false, args: () => [...PENGUIN_GAME, "-l", "lg"] },
      ...NO_J_PRESETS.filter((p) => p !== "eo").map(
        (p): Setting => ({ name: p, exhaustive: false, args: () => [...PENGUIN_GAME, "-l", p] }),
      ),
    ],
  },
};

const OPTIONS = {
  sets: { type: "list", default: SET_NAMES, choices: ALL_SETS, help: "deal sets to measure" },
  // -1 rather than 0 for "not given": 0 cells is a rule set of its own.
  cells: {
    type: "int",
    default: -1,
    min: -1,
    max: 8,
    help: "free cells (Penguin: flippers) for every set, in both solvers (-1: each set's own)",
  },
  deals: {
    type: "int",
    default: 0,
    min: 0,
    max: 1_000_000,
    help: "deals per set, MS 1…N (0 = the full set: 1000, or 500 for Eight Off and Seahaven)",
  },
  settings: {
    type: "string",
    default: "default",
    help: "Freecell Solver settings: default (the chosen ones per set), all (every candidate), or a comma list of candidate names (e.g. lg,as,meta-then-atomic)",
  },
  harness: { type: "string", default: HARNESS, help: "path of the built fcs-batch" },
  "fcs-max-mb": {
    type: "int",
    default: 4096,
    min: 64,
    max: 1 << 20,
    help: "address-space cap of each Freecell Solver run, in MB",
  },
  replay: {
    type: "int",
    default: 0,
    min: 0,
    max: 1_000_000,
    help: "replay Freecell Solver's lines for the first N deals of each set through the engine (fc-solve -m -sn)",
  },
  rounds: {
    type: "int",
    default: 1,
    min: 1,
    max: 50,
    help: "after the first run, solve each set this many more times with each solver, in turns, and report medians (the machine's noise)",
  },
  "warm-up": {
    type: "int",
    default: 0,
    min: 0,
    max: 50,
    help: "after the first run, solve the set this many more times unmeasured before the rounds (V8 keeps compiling for several passes: the rounds then measure compiled code)",
  },
  "by-size": {
    type: "flag",
    help: "also print, per setting, the deals grouped by the positions our solver stored, then won and lost apart, with each solver's CPU time on them (medians of the rounds after the first, deal by deal)",
  },
} as const;

/** A card on Freecell Solver's board after relabelling ranks so the base rank is the ace. */
function relabelled(s: State, c: number): string {
  return RANKS[(rankOf(c) - s.base + 13) % 13]! + SUITS[suitOf(c)]!;
}

/**
 * Penguin as kings-only Baker's Game: ranks relabelled (rank − base mod 13), so the base card is
 * an ace, the card below the base a king, and the three base cards dealt home are aces on their
 * foundations. Foundation counts carry over unchanged (n cards home = top rank n).
 */
function penguinBoard(s: State): string {
  const found = [2, 0, 1, 3].map(
    (su) => `${SUITS[su]}-${s.found[su] ? RANKS[s.found[su]! - 1] : "0"}`,
  );
  const cells = Array.from(s.cells.subarray(0, s.nCells), (c) =>
    c === NO_CARD ? " -" : ` ${relabelled(s, c)}`,
  ).join("");
  const lines = [`Foundations: ${found.join(" ")}`, `Freecells:${cells}`];
  for (let c = 0; c < s.nColumns; c++)
    lines.push(
      `:${s
        .column(c)
        .map((x) => ` ${relabelled(s, x)}`)
        .join("")}`,
    );
  return `${lines.join("\n")}\n`;
}

/**
 * Whether a line plays the card below the base onto the base card of its suit: a Penguin move
 * that kings-only Baker's Game cannot make (a king never goes on an ace), so Freecell Solver
 * may call such a deal unsolvable while Penguin wins it.
 */
function usesWrapOntoBase(start: State, moves: readonly Move[]): boolean {
  const s = start.clone();
  for (const m of moves) {
    const to = moveTo(m);
    if (to < CELL0 && !moveToEmpty(m)) {
      const under = s.top(to);
      const card = moveCard(m);
      if (
        rankOf(under) === s.base &&
        suitOf(under) === suitOf(card) &&
        rankOf(card) === (s.base + 12) % 13
      )
        return true;
    }
    applyMove(s, m);
  }
  return false;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * CPU milliseconds of this process's main thread alone (Linux: its schedstat, in nanoseconds), or
 * NaN elsewhere. Process CPU also counts V8's compiler threads, which optimise the solver's code
 * in the background while it runs: most of what a first run costs over a second.
 */
const MAIN_THREAD = `/proc/self/task/${process.pid}/schedstat`;
function mainThreadMs(): number {
  try {
    return Number(readFileSync(MAIN_THREAD, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return NaN;
  }
}
const round = (x: number, d: number): number => Math.round(x * 10 ** d) / 10 ** d;
/** The run whose figure is the median: its other figures (worst deal, verdicts) come with it. */
function medianRun<T>(runs: readonly T[], by: (x: T) => number): T {
  return [...runs].sort((a, b) => by(a) - by(b))[(runs.length - 1) >> 1]!;
}
const spread = (xs: readonly number[]): [number, number] => [
  round(Math.min(...xs), 3),
  round(Math.max(...xs), 3),
];

type Verdict = "solved" | "unsolvable" | "unknown";
interface OursRun {
  cpuSeconds: number;
  /** The same, the main thread alone (NaN off Linux). */
  mainThreadSeconds: number;
  positions: number;
  counts: Record<Verdict, number>;
  worst: { deal: number; ms: number; positions: number };
  verdicts: Verdict[];
  wrapWins: Set<number>;
  /** Per deal (index deal − 1): CPU milliseconds and positions stored. */
  dealMs: number[];
  dealPositions: number[];
}

/**
 * Freecell Solver's options with `cells` free cells: after each `--game` (which sets its own
 * count), in place of a count already given, or first when no game is named (FreeCell).
 */
function withCells(args: readonly string[], cells: number): string[] {
  if (cells < 0) return [...args];
  const out: string[] = args.includes("--game") ? [] : ["--freecells-num", String(cells)];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--freecells-num") {
      i++;
      continue;
    }
    out.push(args[i]!);
    if (args[i] === "--game") out.push(args[++i]!, "--freecells-num", String(cells));
  }
  return out;
}

/** One pass of `solve()` over MS deals 1…n, timed per deal as bench/solver.bench.ts does. */
function runOurs(rules: Rules, n: number, penguin: boolean): OursRun {
  const counts = { solved: 0, unsolvable: 0, unknown: 0 };
  const verdicts: Verdict[] = [];
  const wrapWins = new Set<number>();
  const lines = new Map<number, Move[]>();
  let positions = 0;
  let worst = { deal: 0, ms: -1, positions: 0 };
  let solving = 0;
  let main = 0;
  const msByDeal: number[] = [];
  const positionsByDeal: number[] = [];
  for (let d = 1; d <= n; d++) {
    const start = dealMs(rules, d);
    // The main thread's clock is read outside the process-CPU window: each read of it costs
    // 10-20 µs, which would count as solving (about 13 ms, 8 %, on Penguin MS 1-1000 once compiled).
    const tm = mainThreadMs();
    const t = cpuMs();
    const r = solve(start);
    const ms = cpuMs() - t;
    main += mainThreadMs() - tm;
    solving += ms;
    counts[r.result]++;
    verdicts.push(r.result);
    positions += r.states;
    msByDeal.push(ms);
    positionsByDeal.push(r.states);
    if (ms > worst.ms) worst = { deal: d, ms, positions: r.states };
    if (penguin && r.result === "solved") lines.set(d, r.moves);
  }
  // The solve() calls alone: dealing the boards is left out, as fcs-batch leaves out parsing them.
  const cpuSeconds = solving / 1000;
  // Checked after the timed loop, so the check's cost is not counted as solving.
  for (const [d, moves] of lines) if (usesWrapOntoBase(dealMs(rules, d), moves)) wrapWins.add(d);
  return {
    cpuSeconds,
    mainThreadSeconds: main / 1000,
    positions,
    counts,
    worst: { ...worst, ms: round(worst.ms, 1) },
    verdicts,
    wrapWins,
    dealMs: msByDeal,
    dealPositions: positionsByDeal,
  };
}

/** Upper ends of the `--by-size` groups, in positions our solver stored for a deal. */
const SIZES = [50, 100, 200, 500, 1000, 3000, Infinity];

/**
 * Deals grouped by the positions our solver stored for them, with each solver's CPU time on each
 * group (per deal, the median over the rounds; the groups' sums of those medians): where the
 * time goes, for easy and hard deals apart. Then the won and the lost deals apart: our
 * "unsolvable" is a proof, Freecell Solver's only under a setting that searches every position.
 */
function bySize(ours: readonly OursRun[], fcs: readonly FcsRun[]) {
  const perDeal = <T>(runs: readonly T[], f: (r: T) => number[], d: number): number =>
    median(runs.map((r) => f(r)[d]!));
  const stored = ours[0]!.dealPositions;
  const n = stored.length;
  const sum = (keep: (d: number) => boolean) => {
    let deals = 0,
      oursMs = 0,
      fcsMs = 0,
      positions = 0,
      iterations = 0;
    for (let d = 0; d < n; d++) {
      if (!keep(d)) continue;
      deals++;
      positions += stored[d]!;
      oursMs += perDeal(ours, (r) => r.dealMs, d);
      fcsMs += perDeal(fcs, (r) => r.dealMs, d);
      iterations += perDeal(fcs, (r) => r.dealIterations, d);
    }
    return {
      deals,
      oursMs: round(oursMs, 1),
      fcsMs: round(fcsMs, 1),
      ratio: fcsMs > 0 ? round(oursMs / fcsMs, 2) : null,
      ourPositions: positions,
      fcsIterations: iterations,
    };
  };
  const sizes = SIZES.map((top, k) => {
    const low = k === 0 ? 0 : SIZES[k - 1]!;
    return {
      positions: top === Infinity ? `${low}+` : `${low}-${top - 1}`,
      ...sum((d) => stored[d]! >= low && stored[d]! < top),
    };
  });
  const verdicts = (["solved", "unsolvable"] as const).map((v) => ({
    verdict: v,
    ...sum((d) => ours[0]!.verdicts[d] === v),
  }));
  return [...sizes, ...verdicts].filter((b) => b.deals > 0);
}

type FcsVerdict = "solved" | "unsolved-exhaustive" | "intractable-limit";
interface FcsRun {
  cpuSeconds: number;
  processCpuSeconds: number;
  peakRssMb: number;
  iterations: number;
  counts: Record<FcsVerdict, number>;
  worst: { deal: number; ms: number; iterations: number };
  verdicts: FcsVerdict[];
  version: string;
  /** Per deal (index deal − 1): milliseconds of its solve and iterations. */
  dealMs: number[];
  dealIterations: number[];
}

function runFcs(
  harness: string,
  maxMb: number,
  boardsFile: string,
  args: string[],
  n: number,
): FcsRun {
  const p = spawnSync(harness, ["--max-mb", String(maxMb), boardsFile, ...args], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (p.error) throw new UsageError(`cannot run ${harness}: ${p.error.message}`);
  if (p.status !== 0) {
    const why = p.signal
      ? `killed by ${p.signal}, most likely over --fcs-max-mb ${maxMb}`
      : `exit ${p.status}: ${p.stderr.trim().split("\n")[0]}`;
    throw new Error(`fcs-batch ${args.slice(0, 12).join(" ")} failed (${why})`);
  }
  const verdicts: FcsVerdict[] = [];
  const counts = { solved: 0, "unsolved-exhaustive": 0, "intractable-limit": 0 };
  let worst = { deal: 0, ms: -1, iterations: 0 };
  let total: Record<string, string> = {};
  const dealMs: number[] = [];
  const dealIterations: number[] = [];
  for (const line of p.stdout.split("\n")) {
    const f = line.split("\t");
    if (f[0] === "board") {
      const [deal, verdict, iters, ms] = [
        Number(f[1]),
        f[2] as FcsVerdict,
        Number(f[3]),
        Number(f[4]),
      ];
      verdicts[deal - 1] = verdict;
      dealMs[deal - 1] = ms;
      dealIterations[deal - 1] = iters;
      counts[verdict]++;
      if (ms > worst.ms) worst = { deal, ms: round(ms, 1), iterations: iters };
    } else if (f[0] === "total")
      total = Object.fromEntries(f.slice(1).map((kv) => kv.split("=") as [string, string]));
  }
  if (verdicts.filter(Boolean).length !== n)
    throw new Error(`fcs-batch reported ${verdicts.length} of ${n} boards`);
  return {
    cpuSeconds: Number(total.cpu_s),
    processCpuSeconds: Number(total.process_cpu_s),
    peakRssMb: Number(total.peak_rss_mb),
    iterations: Number(total.iterations),
    counts,
    worst,
    verdicts,
    version: total.version ?? "?",
    dealMs,
    dealIterations,
  };
}

/** Deals where one solver calls the deal solvable and the other proves it unsolvable. */
function disagreements(
  ours: OursRun,
  fcs: FcsRun,
  fcsExhaustive: boolean,
): { deal: number; ours: Verdict; fcs: FcsVerdict; note?: string }[] {
  const out: { deal: number; ours: Verdict; fcs: FcsVerdict; note?: string }[] = [];
  ours.verdicts.forEach((v, i) => {
    const f = fcs.verdicts[i]!;
    if (v === "unsolvable" && f === "solved")
      out.push({
        deal: i + 1,
        ours: v,
        fcs: f,
        note: "Freecell Solver's line breaks a rule, or this solver's proof is wrong",
      });
    if (v === "solved" && f === "unsolved-exhaustive") {
      const note = ours.wrapWins.has(i + 1)
        ? "our line plays the card below the base onto the base card, which kings-only Baker's Game cannot"
        : fcsExhaustive
          ? "Freecell Solver's search is meant to be complete here: a bug on one side"
          : "Freecell Solver's move set for this setting is not complete";
      out.push({ deal: i + 1, ours: v, fcs: f, note });
    }
  });
  return out;
}

/**
 * Freecell Solver's lines for deals 1…n, each replayed through the engine: counts by outcome
 * and the first few deals whose line breaks a rule (or does not end won).
 */
function replaySet(dir: string, rules: Rules, penguin: boolean, args: string[], n: number) {
  // Standard notation leaves a run's length out; with kings-only columns it follows from the
  // position, with any card allowed into an empty column it may not, so only those sets replay.
  if (rules.emptyColumn !== "below-base") return undefined;
  const counts: Record<ReplayVerdict, number> = {
    won: 0,
    illegal: 0,
    "not-won": 0,
    "no-solution": 0,
  };
  const broken: { deal: number; move: number; token: string }[] = [];
  const file = join(dir, "one.board");
  for (let d = 1; d <= n; d++) {
    const start = dealMs(rules, d);
    writeFileSync(file, penguin ? penguinBoard(start) : formatFcsBoard(start));
    const tokens = fcsSolution(args, file);
    const r = tokens ? replayFcs(start, tokens) : { verdict: "no-solution" as const };
    counts[r.verdict]++;
    if ((r.verdict === "illegal" || r.verdict === "not-won") && broken.length < 10)
      broken.push({ deal: d, move: r.at ?? -1, token: r.token ?? "" });
  }
  return { deals: n, ...counts, broken };
}

/** FreeCell MS 1 as written here must match Freecell Solver's own dealer, card for card. */
function checkDealer(): void {
  const p = spawnSync("make-microsoft-freecell-board", ["-t", "1"], { encoding: "utf8" });
  if (p.error || p.status !== 0) return; // the dealer is optional; the boards are ours either way
  const theirs = p.stdout
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/));
  const ours = formatFcsBoard(dealMs(resolveRules("freecell"), 1))
    .trim()
    .split("\n")
    .slice(2)
    .map((l) => l.slice(1).trim().split(/\s+/));
  if (JSON.stringify(theirs) !== JSON.stringify(ours))
    throw new Error(
      `FreeCell MS 1 differs from make-microsoft-freecell-board -t 1: ${JSON.stringify(ours[0])} vs ${JSON.stringify(theirs[0])}`,
    );
  process.stderr.write(
    "FreeCell MS 1 as dealt here is card for card make-microsoft-freecell-board -t 1\n",
  );
}

await exitOnUsageError("fcs-side-by-side", async () => {
  const args = parseOptions("fcs-side-by-side", OPTIONS, process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${helpText("scripts/fcs-side-by-side", OPTIONS)}\n`);
    return;
  }
  if (spawnSync("fc-solve", ["--version"], { encoding: "utf8" }).error)
    throw new UsageError(
      "Freecell Solver is not installed (fc-solve not found); install freecell-solver-bin and libfreecell-solver-dev",
    );
  if (!existsSync(args.harness))
    throw new UsageError(`the harness ${args.harness} is not built; build it with: ${BUILD}`);
  const sets = args.sets as SetName[];
  const named = args.settings.split(",").map((x) => x.trim());
  if (args.settings !== "default" && args.settings !== "all") {
    const known = new Set(sets.flatMap((n) => SETS[n].settings.map((x) => x.name)));
    const unknown = named.filter((x) => !known.has(x));
    if (unknown.length)
      throw new UsageError(
        `--settings: unknown ${JSON.stringify(unknown[0])} for these sets; known: default, all, ${[...known].join(", ")}`,
      );
  }
  checkDealer();
  // Warm the JIT as the solver bench does, so the first deal's compile time is not counted.
  const rulesOf = (name: SetName): Rules =>
    resolveRules(SETS[name].preset, {
      ...SETS[name].overrides,
      ...(args.cells >= 0 ? { cells: args.cells } : {}),
    });
  for (const name of sets) for (let n = 1001; n <= 1003; n++) solve(dealMs(rulesOf(name), n));
  const dir = mkdtempSync(join(tmpdir(), "fcs-side-by-side-"));
  try {
    for (const name of sets) {
      const set = SETS[name];
      const n = args.deals || set.full;
      const rules = rulesOf(name);
      const penguin = name === "penguin";
      const file = join(dir, `${name}.boards`);
      let text = "";
      for (let d = 1; d <= n; d++) {
        const s = dealMs(rules, d);
        text += `#board ${d}\n${penguin ? penguinBoard(s) : formatFcsBoard(s)}`;
      }
      writeFileSync(file, text);
      const first = runOurs(rules, n, penguin);
      for (let w = 0; w < args["warm-up"]; w++) runOurs(rules, n, penguin);
      const settings =
        args.settings === "all"
          ? set.settings
          : args.settings === "default"
            ? set.settings.slice(0, set.chosen)
            : set.settings.filter((x) => named.includes(x.name));
      // Rounds in turns, ours then each setting's, so that the machine's slow spells fall on both.
      const agains: OursRun[] = [];
      const fcsRuns = settings.map((): FcsRun[] => []);
      const failed = settings.map((): string | undefined => undefined);
      for (let r = 0; r < args.rounds; r++) {
        agains.push(runOurs(rules, n, penguin));
        settings.forEach((setting, i) => {
          if (failed[i] !== undefined) return;
          try {
            fcsRuns[i]!.push(
              runFcs(
                args.harness,
                args["fcs-max-mb"],
                file,
                withCells(setting.args(), args.cells),
                n,
              ),
            );
          } catch (e) {
            // One setting running out of memory should not lose the others' figures.
            if (e instanceof UsageError) throw e;
            failed[i] = (e as Error).message;
          }
        });
      }
      const again = medianRun(agains, (x) => x.cpuSeconds);
      for (const [i, setting] of settings.entries()) {
        if (failed[i] !== undefined) {
          process.stdout.write(
            `${JSON.stringify({
              set: name,
              deals: n,
              fcs: { setting: setting.name, error: failed[i] },
            })}\n`,
          );
          continue;
        }
        const runs = fcsRuns[i]!;
        const fcs = medianRun(runs, (x) => x.cpuSeconds);
        const dis = disagreements(first, fcs, setting.exhaustive);
        for (const x of dis)
          process.stderr.write(
            `DISAGREEMENT ${name} deal ${x.deal}: ours ${x.ours}, Freecell Solver (${setting.name}) ${x.fcs}: ${x.note}\n`,
          );
        const row = {
          set: name,
          deals: n,
          cells: rules.cells,
          ours: {
            cpuSeconds: round(first.cpuSeconds, 3),
            againCpuSeconds: round(again.cpuSeconds, 3),
            // null off Linux (JSON has no NaN).
            mainThreadCpuSeconds: round(first.mainThreadSeconds, 3),
            againMainThreadCpuSeconds: round(again.mainThreadSeconds, 3),
            positions: first.positions,
            ...first.counts,
            worstDeal: first.worst,
            againWorstDeal: again.worst,
            peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
          },
          fcs: {
            version: fcs.version,
            setting: setting.name,
            args: setting.shown ?? withCells(setting.args(), args.cells).join(" "),
            exhaustive: setting.exhaustive,
            cpuSeconds: round(fcs.cpuSeconds, 3),
            processCpuSeconds: round(fcs.processCpuSeconds, 3),
            peakRssMb: fcs.peakRssMb,
            iterations: fcs.iterations,
            ...fcs.counts,
            worstDeal: fcs.worst,
          },
          ratio: round(first.cpuSeconds / fcs.cpuSeconds, 2),
          againRatio: round(again.cpuSeconds / fcs.cpuSeconds, 2),
          ...(args.rounds > 1
            ? {
                rounds: args.rounds,
                warmUpPasses: args["warm-up"],
                // Each side's fastest and slowest round, and the median of the rounds' own ratios
                // with its 95 % interval (a run's median alone can be 30 % off here).
                againCpuSecondsRange: spread(agains.map((x) => x.cpuSeconds)),
                fcsCpuSecondsRange: spread(runs.map((x) => x.cpuSeconds)),
                pairedAgainRatio: round(
                  median(agains.map((x, r) => x.cpuSeconds / runs[r]!.cpuSeconds)),
                  2,
                ),
                pairedAgainRatio95:
                  medianInterval(agains.map((x, r) => x.cpuSeconds / runs[r]!.cpuSeconds))?.map(
                    (x) => round(x, 2),
                  ) ?? null,
              }
            : {}),
          disagreements: dis,
        };
        const replay =
          args.replay > 0
            ? replaySet(
                dir,
                rules,
                penguin,
                withCells(setting.args(), args.cells),
                Math.min(args.replay, n),
              )
            : undefined;
        if (replay && (replay.illegal || replay["not-won"]))
          process.stderr.write(
            `REPLAY ${name} (${setting.name}): ${replay.illegal + replay["not-won"]} of ${replay.deals} lines do not replay to a win: ${JSON.stringify(replay.broken)}\n`,
          );
        process.stdout.write(`${JSON.stringify(replay ? { ...row, replay } : row)}\n`);
        if (args["by-size"])
          for (const b of bySize(agains, runs))
            process.stdout.write(`${JSON.stringify({ set: name, setting: setting.name, ...b })}\n`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
