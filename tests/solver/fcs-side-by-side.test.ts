/**
 * The side-by-side with Freecell Solver (scripts/fcs-side-by-side.ts) must treat both solvers
 * alike: a fresh process of each per round, the first pass reported as cold and the passes after
 * the warm-up as warm, ratios paired round by round. The batch output is read back strictly (a
 * missing board or pass is an error, not a faster run). End to end, a stand-in for fcs-batch
 * with known times checks the whole report without Freecell Solver installed.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  coldAndWarm,
  pairedRatio,
  parseBatch,
  spreadOf,
  warmDealMs,
} from "../../scripts/fcs/batch.js";
import { oneLine, run, script, tempDir } from "../hardening/helpers.js";

type Spread = { median: number; min: number; max: number };

/** A batch run's text: per pass p and board b, CPU ms `ms(p, b)`. */
function batchText(boards: number, passes: number, ms: (p: number, b: number) => number): string {
  const lines: string[] = [];
  for (let p = 1; p <= passes; p++)
    for (let b = 1; b <= boards; b++)
      lines.push(`board\t${p}\t${b}\tsolved\t${10 * b}\t${ms(p, b).toFixed(3)}`);
  lines.push(`total\tboards=${boards}\tpasses=${passes}\tpeak_rss_mb=12\tversion=6.16.0`);
  return `${lines.join("\n")}\n`;
}

describe("batch output read back", () => {
  it("sums each pass and keeps per-deal times, work and verdicts", () => {
    const b = parseBatch(`${batchText(3, 2, (p, d) => (p === 1 ? 4 * d : d))}wrap\t2\n`, 3, 2);
    expect(b.passes.map((p) => p.cpuSeconds)).toEqual([0.024, 0.006]);
    expect(b.passes[1]!.dealMs).toEqual([1, 2, 3]);
    expect(b.passes[0]!.dealWork).toEqual([10, 20, 30]);
    expect(b.total.version).toBe("6.16.0");
    expect(b.extra.get("wrap")).toEqual(["2"]);
  });

  it("refuses a run with a board or a pass missing, or a malformed line", () => {
    const text = batchText(3, 2, () => 1);
    const noBoard = text.replace("board\t2\t3\tsolved\t30\t1.000\n", "");
    expect(() => parseBatch(noBoard, 3, 2)).toThrow("pass 2 reported 2 of 3 boards");
    expect(() => parseBatch(text, 3, 3)).toThrow("pass 3 reported 0 of 3 boards");
    expect(() => parseBatch(text.replace("\ttotal", "").replace(/total.*\n/, ""), 3, 2)).toThrow(
      "no total line",
    );
    expect(() => parseBatch(`board\t1\t9\tsolved\t1\t1\n${text}`, 3, 2)).toThrow("malformed line");
  });

  it("cold is each round's first pass, warm the median of the passes after the warm-up", () => {
    // Pass 1 costs 5 ms a board, the unmeasured warm-up pass 3, then 1, 2 and 1.5 ms.
    const perPass = [5, 3, 1, 2, 1.5];
    const rounds = [0, 1].map(() =>
      parseBatch(
        batchText(2, 5, (p) => perPass[p - 1]!),
        2,
        5,
      ),
    );
    const t = coldAndWarm(rounds, 1);
    expect(t.cold).toEqual([0.01, 0.01]);
    expect(t.warm).toEqual([0.003, 0.003]);
    expect(warmDealMs(rounds, 1)).toEqual([1.5, 1.5]);
    expect(() => coldAndWarm(rounds, 4)).toThrow("no warm pass");
    expect(spreadOf([0.3, 0.1, 0.2])).toEqual({ median: 0.2, min: 0.1, max: 0.3 });
  });

  it("pairs the ratios round by round, with an interval from 6 rounds on", () => {
    expect(pairedRatio([2, 3, 4], [1, 3, 2])).toEqual({ median: 2, interval95: null });
    const ours = [1.1, 1.0, 1.2, 0.9, 1.05, 1.1, 1.0, 1.15, 1.0];
    const theirs = ours.map(() => 1);
    // Sorted: 0.9 1.0 1.0 1.0 1.05 1.1 1.1 1.15 1.2. The sign test allows j = 2 of 9 (2 × P(X ≤ 1)
    // = 0.039 ≤ 0.05; j = 3 would need 2 × P(X ≤ 2) = 0.18): from the 2nd smallest to the 2nd largest.
    expect(pairedRatio(ours, theirs)).toEqual({ median: 1.05, interval95: [1, 1.15] });
    expect(() => pairedRatio([1], [1, 2])).toThrow("1 rounds of ours against 2");
  });
});

describe("the side-by-side end to end, against a stand-in for Freecell Solver", () => {
  const { dir, done } = tempDir("fcs-side");
  afterAll(done);
  // fc-solve only has to exist; the stand-in harness reads the boards file and reports each
  // board solved, 40 ms a board in its first pass and 10 ms after, as fcs-batch's format has it.
  writeFileSync(join(dir, "fc-solve"), "#!/bin/sh\necho 'fc-solve 0'\n");
  const harness = join(dir, "fcs-batch");
  writeFileSync(
    harness,
    `#!/bin/sh
passes=1
while [ "$1" = --max-mb ] || [ "$1" = --passes ]; do
  [ "$1" = --passes ] && passes=$2
  shift 2
done
n=$(grep -c '^#board ' "$1")
p=1
while [ $p -le $passes ]; do
  b=1
  while [ $b -le $n ]; do
    if [ $p = 1 ]; then ms=40.000; else ms=10.000; fi
    printf 'board\\t%s\\t%s\\tsolved\\t7\\t%s\\n' $p $b $ms
    b=$((b + 1))
  done
  p=$((p + 1))
done
printf 'total\\tboards=%s\\tpasses=%s\\tpeak_rss_mb=3\\tversion=stand-in\\n' $n $passes
`,
  );
  for (const f of ["fc-solve", "fcs-batch"]) chmodSync(join(dir, f), 0o755);
  const env = { PATH: `${dir}:${process.env.PATH}` };

  it("reports cold and warm passes of both solvers, fresh processes each round", async () => {
    const r = await script(
      "scripts/fcs-side-by-side.ts",
      [
        "--sets",
        "eight-off",
        "--settings",
        "eo",
        "--deals",
        "4",
        "--rounds",
        "2",
        "--passes",
        "3",
        "--warm-up",
        "1",
        "--harness",
        harness,
      ],
      { env, timeoutMs: 120_000 },
    );
    expect(r.stderr).not.toMatch(/DISAGREEMENT|WARNING|\n\s+at /);
    expect(r.code).toBe(0);
    const row = JSON.parse(r.stdout.trim()) as {
      ours: { positions: number; coldCpuSeconds: Spread; warmCpuSeconds: Spread };
      fcs: { coldCpuSeconds: Spread; warmCpuSeconds: Spread };
      ratio: Record<"cold" | "warm", { median: number; interval95: [number, number] | null }>;
    };
    expect(row).toMatchObject({
      set: "eight-off",
      deals: 4,
      rounds: 2,
      passes: 3,
      warmUpPasses: 1,
    });
    expect(row.fcs.coldCpuSeconds).toEqual({ median: 0.16, min: 0.16, max: 0.16 });
    expect(row.fcs.warmCpuSeconds).toEqual({ median: 0.04, min: 0.04, max: 0.04 });
    expect(row.fcs).toMatchObject({
      version: "stand-in",
      setting: "eo",
      solved: 4,
      iterations: 28,
    });
    // Eight Off MS 1-4 are all won; our figures are measured, so only their shape is known.
    expect(row.ours).toMatchObject({ solved: 4, unsolvable: 0, unknown: 0 });
    expect(row.ours.positions).toBeGreaterThan(0);
    expect(row.ours.coldCpuSeconds.median).toBeGreaterThan(0);
    // With two rounds the median of the paired ratios is the lower one, here the lower of ours
    // (theirs is the same every round); ours is printed to the millisecond, hence the tolerance.
    const near = (got: number, oursS: number, theirsS: number): void =>
      expect(Math.abs(got - oursS / theirsS)).toBeLessThanOrEqual(0.0005 / theirsS + 0.005);
    expect(row.ratio.cold.interval95).toBeNull();
    near(row.ratio.cold.median, row.ours.coldCpuSeconds.min, 0.16);
    near(row.ratio.warm.median, row.ours.warmCpuSeconds.min, 0.04);
  }, 180_000);

  it("refuses a pass count that leaves no warm pass, in one line", async () => {
    const r = await script("scripts/fcs-side-by-side.ts", ["--passes", "3", "--warm-up", "2"], {
      env,
    });
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe(
      "fcs-side-by-side: --passes (3) must be at least --warm-up (2) + 2: a cold pass, the warm-up, then at least one warm pass",
    );
  });

  it("ours-batch prints the same format and refuses bad input", async () => {
    const ok = await run(process.execPath, [
      "--import",
      "tsx",
      "scripts/fcs/ours-batch.ts",
      '{"preset":"eight-off","deals":2,"passes":2}',
    ]);
    expect(ok.code).toBe(0);
    const b = parseBatch(ok.stdout, 2, 2);
    expect(b.passes.map((p) => p.verdicts)).toEqual([
      ["solved", "solved"],
      ["solved", "solved"],
    ]);
    // The same search in every pass: the positions stored are the same, deal by deal.
    expect(b.passes[1]!.dealWork).toEqual(b.passes[0]!.dealWork);
    const bad = await run(process.execPath, [
      "--import",
      "tsx",
      "scripts/fcs/ours-batch.ts",
      '{"preset":"klondike","deals":2,"passes":2}',
    ]);
    expect(bad.code).toBe(2);
    expect(oneLine(bad)).toMatch(/^ours-batch: unknown rules "klondike"; known: penguin/);
  });
});
