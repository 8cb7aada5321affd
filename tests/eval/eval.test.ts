import { afterAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { resolveRules } from "../../src/engine/rules.js";
import { UsageError } from "../../src/errors.js";
import { evaluate, type EvalRow } from "../../src/eval/evaluate.js";
import { runEval, EVAL_COLUMNS } from "../../src/eval/run.js";
import { csvLine, ResumableCsv } from "../../src/eval/csv.js";
import { parseCsvLine } from "../../src/util/csv.js";
import { msRange, seedRange, dealLabel, parseDealLabel } from "../../src/eval/deals.js";
import { summarize, wilson } from "../../src/eval/stats.js";

const root = join(import.meta.dirname, "../..");
const dir = join(root, ".tmp", `eval-test-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("node", ["bin/penguin.js", "eval", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
/** The same, without blocking: independent bad-input runs go side by side. */
function cliAsync(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn("node", ["bin/penguin.js", "eval", ...args], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0" },
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
const read = (f: string): string => readFileSync(f, "utf8");
const penguin = resolveRules("penguin");

describe("statistics", () => {
  it("Wilson interval matches the textbook value", () => {
    const w = wilson(5, 10);
    expect(w.low).toBeCloseTo(0.2366, 4);
    expect(w.high).toBeCloseTo(0.7634, 4);
    expect(wilson(0, 20).low).toBe(0);
    const s = summarize([
      { won: true, cardsHome: 52, moves: 100 },
      { won: false, cardsHome: 10, moves: 50 },
    ]);
    expect([s.games, s.wins, s.winRate, s.meanCardsHome]).toEqual([2, 1, 0.5, 31]);
  });
});

describe("deals and CSV lines", () => {
  it("labels deals and round-trips quoted fields", () => {
    expect([...seedRange(5, 3)].map(dealLabel)).toEqual(["5", "6", "7"]);
    expect([...msRange(9, 10)].map(dealLabel)).toEqual(["ms:9", "ms:10"]);
    expect(parseDealLabel("ms:12")).toEqual({ kind: "ms", n: 12 });
    expect(() => seedRange(1, 0)).toThrow(UsageError);
    const values = ["1", "penguin[cells=3,emptyColumn=any]", 'greedy("x")', true, 52, 0];
    const line = csvLine(values);
    expect(line).toBe('1,"penguin[cells=3,emptyColumn=any]","greedy(""x"")",true,52,0\n');
    expect(parseCsvLine(line.trimEnd())).toEqual(values.map(String));
  });
});

describe("evaluate (library)", () => {
  it("streams rows in deal order with the rules and agent labels", async () => {
    const rows: EvalRow[] = [];
    for await (const r of evaluate({
      agent: "greedy",
      rules: resolveRules("penguin", { cells: 3 }),
      deals: seedRange(3, 6),
      timing: false,
    }))
      rows.push(r);
    expect(rows.map((r) => r.deal)).toEqual(["3", "4", "5", "6", "7", "8"]);
    expect(
      rows.every(
        (r) => r.rules === "penguin[cells=3]" && r.agent === "greedy(tuned)" && r.ms === 0,
      ),
    ).toBe(true);
    expect(rows.every((r) => r.won === (r.cardsHome === 52))).toBe(true);
  });

  it("plays Microsoft deal ranges, the same rows with 2 workers as with 1", async () => {
    const spec = {
      agent: "random",
      rules: resolveRules("freecell"),
      deals: msRange(1, 6),
      timing: false,
    };
    const one: EvalRow[] = [];
    const two: EvalRow[] = [];
    for await (const r of evaluate(spec)) one.push(r);
    for await (const r of evaluate({ ...spec, workers: 2 })) two.push(r);
    expect(one.map((r) => r.deal)).toEqual(["ms:1", "ms:2", "ms:3", "ms:4", "ms:5", "ms:6"]);
    expect(two).toEqual(one);
  });

  it("runEval resumes a file and refuses other settings without touching it", async () => {
    const out = join(dir, "lib.csv");
    rmSync(out, { force: true });
    const spec = { agent: "random", rules: penguin, timing: false, out };
    const a = await runEval({ ...spec, deals: seedRange(1, 10) });
    expect(a.summary.games).toBe(10);
    const b = await runEval({ ...spec, deals: seedRange(1, 15) });
    expect([b.skipped, b.summary.played, b.summary.games]).toEqual([10, 5, 15]);
    const before = read(out);
    expect(before.split("\n").length).toBe(17); // header + 15 rows + final newline
    await expect(runEval({ ...spec, agent: "greedy", deals: seedRange(1, 15) })).rejects.toThrow(
      /other settings/,
    );
    await expect(runEval({ ...spec, deals: seedRange(0, 3) })).rejects.toThrow(/deal order/);
    expect(read(out)).toBe(before);
  });

  it("ResumableCsv refuses another header", () => {
    const f = join(dir, "other.csv");
    writeFileSync(f, "a,b\n1,2\n");
    expect(() => ResumableCsv.open({ path: f, columns: EVAL_COLUMNS })).toThrow(/other columns/);
    expect(read(f)).toBe("a,b\n1,2\n");
  });
});

describe("penguin eval (CLI)", () => {
  const base = ["--agent", "greedy", "--heuristic", "tuned", "--deals", "16", "--seed", "11"];

  it("writes the same CSV byte for byte with 1 and 2 workers (--no-timing)", () => {
    const f1 = join(dir, "w1.csv");
    const f2 = join(dir, "w2.csv");
    rmSync(f1, { force: true });
    rmSync(f2, { force: true });
    const r1 = cli([...base, "--workers", "1", "--no-timing", "--out", f1]);
    const r2 = cli([...base, "--workers", "2", "--no-timing", "--out", f2]);
    expect(r1.code, r1.stderr).toBe(0);
    expect(r2.code, r2.stderr).toBe(0);
    expect(read(f1).split("\n")[0]).toBe("deal,rules,agent,won,cards_home,moves,ms");
    expect(read(f1).split("\n").length).toBe(18);
    expect(read(f2)).toBe(read(f1));
    expect(r1.stdout).toMatch(
      /games 16, wins \d+, win rate [\d.]+% \(95% Wilson [\d.]+%–[\d.]+%\)/,
    );
    expect(r1.stderr).toBe(""); // no progress bar off a terminal
  });

  it("with timing, every column but ms is the same for 1 and 2 workers", () => {
    const f1 = join(dir, "t1.csv");
    const f2 = join(dir, "t2.csv");
    rmSync(f1, { force: true });
    rmSync(f2, { force: true });
    expect(cli([...base, "--workers", "1", "--out", f1]).code).toBe(0);
    expect(cli([...base, "--workers", "2", "--out", f2]).code).toBe(0);
    const strip = (t: string) =>
      t
        .trim()
        .split("\n")
        .map((l) => parseCsvLine(l).slice(0, 6).join("|"));
    expect(strip(read(f2))).toEqual(strip(read(f1)));
    expect(
      read(f1)
        .trim()
        .split("\n")
        .slice(1)
        .some((l) => Number(parseCsvLine(l)[6]) > 0),
    ).toBe(true);
  });

  it("resumes after a kill mid-row: the result is exactly the full file", () => {
    const full = join(dir, "full.csv");
    const cut = join(dir, "cut.csv");
    rmSync(full, { force: true });
    expect(cli(["--agent", "random", "--deals", "40", "--no-timing", "--out", full]).code).toBe(0);
    const text = read(full);
    copyFileSync(full, cut);
    // Cut in the middle of row 20: as if the process died while writing it.
    const at = text.split("\n").slice(0, 21).join("\n").length - 5;
    truncateSync(cut, at);
    expect(read(cut).endsWith("\n")).toBe(false);
    const r = cli([
      "--agent",
      "random",
      "--deals",
      "40",
      "--no-timing",
      "--out",
      cut,
      "--workers",
      "2",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/19 deals read back/);
    expect(read(cut)).toBe(text);
    // Rerunning a complete file plays nothing and changes nothing.
    expect(cli(["--agent", "random", "--deals", "40", "--no-timing", "--out", cut]).stdout).toMatch(
      /0 deals played/,
    );
    expect(read(cut)).toBe(text);
  });

  it("bad input: one line, exit 2, existing CSV untouched", async () => {
    const f = join(dir, "keep.csv");
    rmSync(f, { force: true });
    expect(cli(["--agent", "random", "--deals", "5", "--no-timing", "--out", f]).code).toBe(0);
    const before = read(f);
    const cases: [string[], RegExp][] = [
      [
        ["--agent", "nope", "--deals", "5", "--out", f],
        /unknown agent "nope"; known: random, greedy/,
      ],
      [["--agent", "random", "--rules", "pengiun", "--deals", "5", "--out", f], /unknown rules/],
      [
        ["--agent", "random", "--deals", "0", "--out", f],
        /--deals must be an integer from 1 to 100000000/,
      ],
      [
        ["--agent", "random", "--deals", "-3", "--out", f],
        /--deals must be an integer from 1 to 100000000/,
      ],
      [["--agent", "greedy", "--deals", "5", "--no-timing", "--out", f], /other settings/],
      [
        ["--agent", "random", "--cells", "3", "--deals", "5", "--no-timing", "--out", f],
        /other settings/,
      ],
      [
        ["--agent", "random", "--deals", "5", "--out", join(dir, "no-such-dir", "x.csv")],
        /cannot write/,
      ],
      [["--agent", "greedy", "--without", "nope", "--deals", "5", "--out", f], /unknown feature/],
    ];
    // The cases run side by side, each on its own copy of the file: two runs on one file would
    // meet the output lock (tested elsewhere) instead of the error each case is about.
    const copies = cases.map((_, i) => {
      const c = join(dir, `keep-${i}.csv`);
      writeFileSync(c, before);
      return c;
    });
    const results = await Promise.all(
      cases.map(([args], i) => cliAsync(args.map((x) => (x === f ? copies[i]! : x)))),
    );
    for (const [i, [args, msg]] of cases.entries()) {
      const r = results[i]!;
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(read(copies[i]!)).toBe(before);
    }
    expect(read(f)).toBe(before);
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
  });
});
