/**
 * This package's exact solver and Freecell Solver side by side, on the same Microsoft deals, in
 * CPU seconds, on this machine, both treated alike. For each deal set the boards are dealt and
 * written out here (`dealMs`, `formatFcsBoard`). Each round starts one fresh process of each
 * solver: scripts/fcs/fcs-batch (Freecell Solver through its library) and scripts/fcs/ours-batch.ts
 * (`solve()` at its default plan and budget). Each process solves the whole set `--passes` times
 * and times its solve calls alone. Pass 1 is reported as **cold** (the first pass in a fresh
 * process: V8's compiling for ours, page faults and cold caches for both); after `--warm-up`
 * unmeasured passes, the median of the remaining passes is the round's **warm** figure. Rounds
 * interleave the two solvers (who goes first alternates), and the ratios ours ÷ theirs are
 * paired round by round: the median with its 95 % interval from order statistics (6 rounds or
 * more). Pin it to one core (`taskset -c 1`) and measure one set per run.
 *
 * Freecell Solver 6.16.0, as docs/solver.md measures it (Release build: -O3 -DNDEBUG, no LTO).
 * Prerequisites: CMake, gperf, Perl with Moo, Path::Tiny and Template (Debian: gperf libmoo-perl
 * libpath-tiny-perl libtemplate-perl), Python 3 with six and pysol_cards (its configure step
 * checks for them; the library does not use them). The measured build used rinutils 0.10.3,
 * xxHash-wrapper e51a2e4 (the tag's submodule) and patsolve ccdeb9b (the last commit before the
 * tag; CMake clones patsolve and downloads Shlomif_Common.cmake itself when they are missing).
 *
 *   git clone --branch 0.10.3 https://github.com/shlomif/rinutils
 *   cmake -S rinutils -B rin-build -DCMAKE_INSTALL_PREFIX=/opt/fcs6 && cmake --build rin-build --target install
 *   git clone --branch freecell-solver-6.16.0 --recurse-submodules https://github.com/shlomif/fc-solve
 *   cmake -S fc-solve/fc-solve/source -B fcs-build -DCMAKE_BUILD_TYPE=Release \
 *     -DCMAKE_INSTALL_PREFIX=/opt/fcs6 -DCMAKE_PREFIX_PATH=/opt/fcs6 \
 *     -DFCS_WITH_TEST_SUITE=OFF -DFCS_BUILD_DOCS=OFF -DBUILD_STATIC_LIBRARY=OFF
 *   cmake --build fcs-build -j2 && cmake --build fcs-build --target install
 *   gcc -O2 -o /opt/fcs6/bin/fcs-batch scripts/fcs/fcs-batch.c -I/opt/fcs6/include \
 *     -L/opt/fcs6/lib -Wl,-rpath,/opt/fcs6/lib -lfreecell-solver -lm
 *   export PATH=/opt/fcs6/bin:$PATH     # fc-solve 6.16.0
 *   export FCS_PRESETS_DIR=/opt/fcs6/share/freecell-solver/presets/   # for the settings without `j`
 *
 * Or Debian's package, version 5.0.0: apt-get install freecell-solver-bin libfreecell-solver-dev, and
 *   gcc -O2 -o scripts/fcs/fcs-batch scripts/fcs/fcs-batch.c -lfreecell-solver -lm
 *
 * Runs:
 *   taskset -c 1 nice -n 10 npx tsx scripts/fcs-side-by-side.ts --harness /opt/fcs6/bin/fcs-batch \
 *     --sets penguin --settings eo --rounds 9 --passes 6 --warm-up 1
 *   npx tsx scripts/fcs-side-by-side.ts --sets freecell,penguin --deals 100 --rounds 1
 *   npx tsx scripts/fcs-side-by-side.ts --sets seahaven-towers --settings all --replay 500
 *   npx tsx scripts/fcs-side-by-side.ts --sets freecell --rounds 5 --by-size   # easy deals and hard, won and lost apart
 *
 * `--replay N` replays Freecell Solver's lines (kings-only sets) through the engine
 * (scripts/fcs/replay.ts); `--settings` picks candidates by name (docs/solver.md lists them).
 * Prints one JSON line per set and per Freecell Solver setting. A deal that one solver calls
 * solvable and the other proves unsolvable is listed under `disagreements` and reported on stderr.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NO_CARD, rankOf, RANKS, suitOf, SUITS } from "../src/engine/card.js";
import { formatFcsBoard } from "../src/engine/board.js";
import { dealMs } from "../src/engine/deal.js";
import { resolveRules, type RuleOverrides, type Rules } from "../src/engine/rules.js";
import type { State } from "../src/engine/state.js";
import { UsageError } from "../src/errors.js";
import { SOLVER_SETS, type SolverSet } from "../experiments/lib/solver-sets.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";
import {
  type Batch,
  coldAndWarm,
  pairedRatio,
  parseBatch,
  spreadOf,
  warmDealMs,
} from "./fcs/batch.js";
import { presetWithout } from "./fcs/presets.js";
import { fcsSolution, replayFcs, type ReplayVerdict } from "./fcs/replay.js";

const HARNESS = fileURLToPath(new URL("./fcs/fcs-batch", import.meta.url));
const OURS = fileURLToPath(new URL("./fcs/ours-batch.ts", import.meta.url));
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
    default: 3,
    min: 1,
    max: 100,
    help: "rounds, each a fresh process of each solver, in turns (who goes first alternates); 6 or more give the paired ratios a 95 % interval",
  },
  passes: {
    type: "int",
    default: 3,
    min: 2,
    max: 100,
    help: "passes over the set in each fresh process: the first is the cold one, then --warm-up unmeasured passes, then the warm ones",
  },
  "warm-up": {
    type: "int",
    default: 1,
    min: 0,
    max: 98,
    help: "unmeasured passes after the first, before the warm ones (V8 keeps compiling for a few passes)",
  },
  "by-size": {
    type: "flag",
    help: "also print, per setting, the deals grouped by the positions our solver stored, then won and lost apart, with each solver's warm CPU time on them (per deal, the median of the warm passes)",
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

/** Runs one fresh process of a batch solver and reads its output (scripts/fcs/batch.ts). */
function runBatch(
  what: string,
  cmd: string,
  args: readonly string[],
  boards: number,
  passes: number,
): Batch {
  const p = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 256 << 20 });
  if (p.error) throw new UsageError(`cannot run ${cmd}: ${p.error.message}`);
  if (p.status !== 0) {
    const why = p.signal
      ? `killed by ${p.signal}, most likely over --fcs-max-mb`
      : `exit ${p.status}: ${p.stderr.trim().split("\n")[0]}`;
    throw new Error(`${what} failed (${why})`);
  }
  return parseBatch(p.stdout, boards, passes);
}

/** Upper ends of the `--by-size` groups, in positions our solver stored for a deal. */
const SIZES = [50, 100, 200, 500, 1000, 3000, Infinity];

/**
 * Deals grouped by the positions our solver stored for them, with each solver's warm CPU time
 * on each group (per deal, the median of the warm passes; the groups' sums of those medians):
 * where the time goes, for easy and hard deals apart. Then the won and the lost deals apart: our
 * "unsolvable" is a proof, Freecell Solver's only under a setting that searches every position.
 */
function bySize(ours: readonly Batch[], fcs: readonly Batch[], warmUp: number) {
  const first = ours[0]!.passes[0]!;
  const oursMs = warmDealMs(ours, warmUp);
  const fcsMs = warmDealMs(fcs, warmUp);
  const fcsWork = fcs[0]!.passes[0]!.dealWork;
  const r1 = (x: number): number => Math.round(x * 10) / 10;
  const sum = (keep: (d: number) => boolean) => {
    let deals = 0,
      o = 0,
      f = 0,
      positions = 0,
      iterations = 0;
    for (let d = 0; d < first.dealWork.length; d++) {
      if (!keep(d)) continue;
      deals++;
      positions += first.dealWork[d]!;
      o += oursMs[d]!;
      f += fcsMs[d]!;
      iterations += fcsWork[d]!;
    }
    return {
      deals,
      oursMs: r1(o),
      fcsMs: r1(f),
      ratio: f > 0 ? Math.round((o / f) * 100) / 100 : null,
      ourPositions: positions,
      fcsIterations: iterations,
    };
  };
  const sizes = SIZES.map((top, k) => {
    const low = k === 0 ? 0 : SIZES[k - 1]!;
    return {
      positions: top === Infinity ? `${low}+` : `${low}-${top - 1}`,
      ...sum((d) => first.dealWork[d]! >= low && first.dealWork[d]! < top),
    };
  });
  const verdicts = (["solved", "unsolvable"] as const).map((v) => ({
    verdict: v,
    ...sum((d) => first.verdicts[d] === v),
  }));
  return [...sizes, ...verdicts].filter((b) => b.deals > 0);
}

/** Deals where one solver calls the deal solvable and the other proves it unsolvable. */
function disagreements(
  ours: Batch,
  fcs: Batch,
  fcsExhaustive: boolean,
): { deal: number; ours: string; fcs: string; note?: string }[] {
  const wraps = new Set((ours.extra.get("wrap") ?? []).map(Number));
  const out: { deal: number; ours: string; fcs: string; note?: string }[] = [];
  const theirs = fcs.passes[0]!.verdicts;
  ours.passes[0]!.verdicts.forEach((v, i) => {
    const f = theirs[i]!;
    if (v === "unsolvable" && f === "solved")
      out.push({
        deal: i + 1,
        ours: v,
        fcs: f,
        note: "Freecell Solver's line breaks a rule, or this solver's proof is wrong",
      });
    if (v === "solved" && f === "unsolved-exhaustive") {
      const note = wraps.has(i + 1)
        ? "our line plays the card below the base onto the base card, which kings-only Baker's Game cannot"
        : fcsExhaustive
          ? "Freecell Solver's search is meant to be complete here: a bug on one side"
          : "Freecell Solver's move set for this setting is not complete";
      out.push({ deal: i + 1, ours: v, fcs: f, note });
    }
  });
  return out;
}

/** Every pass of every round must give the first pass's verdicts: the searches are deterministic. */
function checkSteady(who: string, set: string, runs: readonly Batch[]): void {
  const first = runs[0]!.passes[0]!.verdicts.join();
  const odd = runs.flatMap((r) => r.passes).filter((p) => p.verdicts.join() !== first).length;
  if (odd)
    process.stderr.write(
      `WARNING ${set}: ${odd} passes of ${who} gave other verdicts than its first pass\n`,
    );
}

/** The deal whose warm CPU time (median of the warm passes) is the largest. */
function worstDeal(runs: readonly Batch[], warmUp: number) {
  const ms = warmDealMs(runs, warmUp);
  const d = ms.indexOf(Math.max(...ms));
  return {
    deal: d + 1,
    warmMs: Math.round(ms[d]! * 10) / 10,
    work: runs[0]!.passes[0]!.dealWork[d]!,
  };
}

const countOf = (p: Batch["passes"][number], v: string): number =>
  p.verdicts.filter((x) => x === v).length;
const sumOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

await exitOnUsageError("fcs-side-by-side", async () => {
  const args = parseOptions("fcs-side-by-side", OPTIONS, process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${helpText("scripts/fcs-side-by-side", OPTIONS)}\n`);
    return;
  }
  const passes = args.passes;
  const warmUp = args["warm-up"];
  if (passes < warmUp + 2)
    throw new UsageError(
      `--passes (${passes}) must be at least --warm-up (${warmUp}) + 2: a cold pass, the warm-up, then at least one warm pass`,
    );
  if (spawnSync("fc-solve", ["--version"], { encoding: "utf8" }).error)
    throw new UsageError(
      "Freecell Solver is not installed (fc-solve not found); build 6.16.0 as the header of scripts/fcs-side-by-side.ts says, or install freecell-solver-bin and libfreecell-solver-dev",
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
  const dir = mkdtempSync(join(tmpdir(), "fcs-side-by-side-"));
  try {
    for (const name of sets) {
      const set = SETS[name];
      const n = args.deals || set.full;
      const overrides: RuleOverrides = {
        ...set.overrides,
        ...(args.cells >= 0 ? { cells: args.cells } : {}),
      };
      const rules = resolveRules(set.preset, overrides);
      const penguin = name === "penguin";
      const file = join(dir, `${name}.boards`);
      let text = "";
      for (let d = 1; d <= n; d++) {
        const s = dealMs(rules, d);
        text += `#board ${d}\n${penguin ? penguinBoard(s) : formatFcsBoard(s)}`;
      }
      writeFileSync(file, text);
      const settings =
        args.settings === "all"
          ? set.settings
          : args.settings === "default"
            ? set.settings.slice(0, set.chosen)
            : set.settings.filter((x) => named.includes(x.name));
      const spec = JSON.stringify({
        preset: set.preset,
        overrides,
        deals: n,
        passes,
        wrap: penguin,
      });
      const runOurs = (): Batch =>
        runBatch("ours-batch", process.execPath, ["--import", "tsx", OURS, spec], n, passes);
      const runFcs = (setting: Setting): Batch =>
        runBatch(
          `fcs-batch ${setting.name}`,
          args.harness,
          [
            "--max-mb",
            String(args["fcs-max-mb"]),
            "--passes",
            String(passes),
            file,
            ...withCells(setting.args(), args.cells),
          ],
          n,
          passes,
        );
      // Rounds in turns, each a fresh process of each solver; who goes first alternates, so
      // that neither always runs right after the other.
      const ours: Batch[] = [];
      const fcsRuns = settings.map((): Batch[] => []);
      const failed = settings.map((): string | undefined => undefined);
      for (let r = 0; r < args.rounds; r++) {
        if (r % 2 === 0) ours.push(runOurs());
        settings.forEach((setting, i) => {
          if (failed[i] !== undefined) return;
          try {
            fcsRuns[i]!.push(runFcs(setting));
          } catch (e) {
            // One setting running out of memory should not lose the others' figures.
            if (e instanceof UsageError) throw e;
            failed[i] = (e as Error).message;
          }
        });
        if (r % 2 === 1) ours.push(runOurs());
      }
      checkSteady("this solver", name, ours);
      const oursTimes = coldAndWarm(ours, warmUp);
      const first = ours[0]!.passes[0]!;
      for (const [i, setting] of settings.entries()) {
        if (failed[i] !== undefined) {
          process.stdout.write(
            `${JSON.stringify({ set: name, deals: n, fcs: { setting: setting.name, error: failed[i] } })}\n`,
          );
          continue;
        }
        const runs = fcsRuns[i]!;
        checkSteady(`Freecell Solver (${setting.name})`, name, runs);
        const fcsTimes = coldAndWarm(runs, warmUp);
        const theirs = runs[0]!.passes[0]!;
        const dis = disagreements(ours[0]!, runs[0]!, setting.exhaustive);
        for (const x of dis)
          process.stderr.write(
            `DISAGREEMENT ${name} deal ${x.deal}: ours ${x.ours}, Freecell Solver (${setting.name}) ${x.fcs}: ${x.note}\n`,
          );
        const row = {
          set: name,
          deals: n,
          cells: rules.cells,
          rounds: args.rounds,
          passes,
          warmUpPasses: warmUp,
          ours: {
            version: ours[0]!.total.version,
            coldCpuSeconds: spreadOf(oursTimes.cold),
            warmCpuSeconds: spreadOf(oursTimes.warm),
            positions: sumOf(first.dealWork),
            solved: countOf(first, "solved"),
            unsolvable: countOf(first, "unsolvable"),
            unknown: countOf(first, "unknown"),
            worstDeal: worstDeal(ours, warmUp),
            peakRssMb: Math.max(...ours.map((r) => Number(r.total.peak_rss_mb))),
          },
          fcs: {
            version: runs[0]!.total.version,
            setting: setting.name,
            args: setting.shown ?? withCells(setting.args(), args.cells).join(" "),
            exhaustive: setting.exhaustive,
            coldCpuSeconds: spreadOf(fcsTimes.cold),
            warmCpuSeconds: spreadOf(fcsTimes.warm),
            iterations: sumOf(theirs.dealWork),
            solved: countOf(theirs, "solved"),
            "unsolved-exhaustive": countOf(theirs, "unsolved-exhaustive"),
            "intractable-limit": countOf(theirs, "intractable-limit"),
            worstDeal: worstDeal(runs, warmUp),
            peakRssMb: Math.max(...runs.map((r) => Number(r.total.peak_rss_mb))),
          },
          // Ours ÷ theirs, paired round by round: the first pass in a fresh process, and warm.
          ratio: {
            cold: pairedRatio(oursTimes.cold, fcsTimes.cold),
            warm: pairedRatio(oursTimes.warm, fcsTimes.warm),
          },
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
          for (const b of bySize(ours, runs, warmUp))
            process.stdout.write(`${JSON.stringify({ set: name, setting: setting.name, ...b })}\n`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
