/**
 * The output both batch solvers print (scripts/fcs/fcs-batch.c for Freecell Solver,
 * scripts/fcs/ours-batch.ts for this package's solver), read back, and the cold and warm passes
 * told apart. Both programs solve the same boards P times in one fresh process:
 *
 *   board  PASS  LABEL  VERDICT  WORK  CPU_MS     one line per board and pass (PASS from 1)
 *   total  key=value ...                          peak_rss_mb, version, ...
 *   TAG    ...                                    other lines (ours: `wrap DEAL`), kept by tag
 *
 * WORK is Freecell Solver's iterations or this solver's stored positions. Pass 1 is the cold
 * pass: the first in a fresh process (V8 compiling our code; page faults, the allocator's first
 * growth and cold caches for Freecell Solver). Then `warmUp` passes go unmeasured, and the passes
 * after them are the warm ones: a round's warm figure is the median of its warm passes.
 */
import { median, medianInterval } from "../../experiments/lib/median.js";

export interface Pass {
  /** CPU seconds of the pass's solves (the sum of its boards' CPU milliseconds). */
  cpuSeconds: number;
  /** Per board, in label order (MS deal d at index d − 1). */
  verdicts: string[];
  dealMs: number[];
  dealWork: number[];
}

export interface Batch {
  passes: Pass[];
  total: Record<string, string>;
  /** Other lines by their first field, each line's remaining fields joined by tabs. */
  extra: Map<string, string[]>;
}

/**
 * Reads one run of either batch program over boards labelled 1…`boards`, solved `passes` times.
 * Throws when a board or a pass is missing or a line is malformed: a partial run must not pass for
 * a fast one.
 */
export function parseBatch(text: string, boards: number, passes: number): Batch {
  const runs: Pass[] = Array.from({ length: passes }, () => ({
    cpuSeconds: 0,
    verdicts: [],
    dealMs: [],
    dealWork: [],
  }));
  const seen = Array.from({ length: passes }, () => 0);
  let total: Record<string, string> | undefined;
  const extra = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const f = line.split("\t");
    if (f[0] === "board") {
      const [pass, label, verdict, work, ms] = [
        Number(f[1]),
        Number(f[2]),
        f[3],
        Number(f[4]),
        Number(f[5]),
      ];
      if (
        f.length !== 6 ||
        !Number.isInteger(pass) ||
        pass < 1 ||
        pass > passes ||
        !Number.isInteger(label) ||
        label < 1 ||
        label > boards ||
        !verdict ||
        !Number.isFinite(work) ||
        !Number.isFinite(ms)
      )
        throw new Error(`batch output: malformed line ${JSON.stringify(line.slice(0, 120))}`);
      const p = runs[pass - 1]!;
      if (p.verdicts[label - 1] === undefined) seen[pass - 1]!++;
      p.verdicts[label - 1] = verdict;
      p.dealWork[label - 1] = work;
      p.dealMs[label - 1] = ms;
    } else if (f[0] === "total") {
      total = Object.fromEntries(
        f.slice(1).map((kv) => {
          const at = kv.indexOf("=");
          return [kv.slice(0, at), kv.slice(at + 1)];
        }),
      );
    } else extra.set(f[0]!, [...(extra.get(f[0]!) ?? []), f.slice(1).join("\t")]);
  }
  const short = seen.findIndex((n) => n !== boards);
  if (short >= 0)
    throw new Error(`batch output: pass ${short + 1} reported ${seen[short]} of ${boards} boards`);
  if (!total) throw new Error("batch output: no total line");
  for (const p of runs) p.cpuSeconds = p.dealMs.reduce((a, b) => a + b, 0) / 1000;
  return { passes: runs, total, extra };
}

/** Each round's cold figure (its first pass) and warm figure (the median of the passes after the warm-up), in CPU seconds. */
export function coldAndWarm(
  rounds: readonly Batch[],
  warmUp: number,
): { cold: number[]; warm: number[] } {
  return {
    cold: rounds.map((r) => r.passes[0]!.cpuSeconds),
    warm: rounds.map((r) => {
      const measured = r.passes.slice(1 + warmUp);
      if (measured.length === 0)
        throw new Error(`no warm pass: ${r.passes.length} passes with ${warmUp} of warm-up`);
      return median(measured.map((p) => p.cpuSeconds));
    }),
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Median and range of a list of CPU seconds. */
export function spreadOf(xs: readonly number[]): { median: number; min: number; max: number } {
  return {
    median: round3(median(xs)),
    min: round3(Math.min(...xs)),
    max: round3(Math.max(...xs)),
  };
}

/**
 * Ours ÷ theirs round by round (the rounds interleave the two solvers, so a slow spell of the
 * machine falls on both), the median of those ratios and its 95 % interval (null under 6 rounds).
 */
export function pairedRatio(
  ours: readonly number[],
  theirs: readonly number[],
): { median: number; interval95: [number, number] | null } {
  if (ours.length !== theirs.length || ours.length === 0)
    throw new Error(`paired ratio: ${ours.length} rounds of ours against ${theirs.length}`);
  const ratios = ours.map((x, i) => x / theirs[i]!);
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  const iv = medianInterval(ratios);
  return { median: r2(median(ratios)), interval95: iv ? [r2(iv[0]), r2(iv[1])] : null };
}

/** Per deal, the median CPU milliseconds over every warm pass of every round. */
export function warmDealMs(rounds: readonly Batch[], warmUp: number): number[] {
  const warm = rounds.flatMap((r) => r.passes.slice(1 + warmUp));
  const n = warm[0]?.dealMs.length ?? 0;
  return Array.from({ length: n }, (_, d) => median(warm.map((p) => p.dealMs[d]!)));
}
