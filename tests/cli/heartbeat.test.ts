/**
 * Commands that can run past a few seconds report at least every 10 s. The heartbeat writes from
 * its own thread, so it keeps time while the main thread runs a loop that never yields (as a PPO
 * rollout, a solver search or a benchmark section does). PENGUIN_PROGRESS_SECONDS shortens the
 * interval here so that each test takes a second or two.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const progress = JSON.stringify(join(root, "dist/src/cli/progress.js"));

function node(code: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, ...env },
  });
}

/**
 * `penguin …` with stderr a pipe (not a terminal), lines every 0.05 s (the shortest allowed), so
 * that a second-long command leaves several lines even when the reporting thread starts late on
 * a loaded machine.
 */
function penguin(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [join(root, "bin/penguin.js"), ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, PENGUIN_PROGRESS_SECONDS: "0.05", ...env },
  });
}

describe("heartbeat", () => {
  it("writes on time during a synchronous loop, with the CSV's row count, and stops when told", () => {
    const dir = mkdtempSync(join(tmpdir(), "penguin-heartbeat-"));
    try {
      const csv = join(dir, "metrics.csv");
      writeFileSync(csv, "update,loss\n1,0.5\n2,0.4\n");
      const r = node(`
        const { heartbeat } = await import(${progress});
        const stop = heartbeat("test", { rowsOf: ${JSON.stringify(csv)}, everySeconds: 0.25 });
        const t = Date.now();
        while (Date.now() - t < 1600) {} // never yields
        stop();
        const u = Date.now();
        while (Date.now() - u < 600) {}
      `);
      expect(r.status).toBe(0);
      const lines = r.stderr.trim().split("\n");
      // 1.6 s at one line per 0.25 s, less the thread's start-up: at least 3 lines, all of them
      // before stop() (none in the 0.6 s after it).
      expect(lines.length).toBeGreaterThanOrEqual(3);
      expect(lines.length).toBeLessThanOrEqual(7);
      for (const l of lines)
        expect(l).toMatch(/^test: still running after \d+\.\d s: 2 rows in .*metrics\.csv$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives the counts last set, with the rate and the time left from the first count on", () => {
    const r = node(`
      const { heartbeat } = await import(${progress});
      const beat = heartbeat("test", { unit: "deals", everySeconds: 0.2 });
      beat.count(40, 100, 3); // read back from an earlier run: not in the rate
      const t = Date.now();
      while (Date.now() - t < 1000) {}
      beat.count(50, 100, 7);
      const u = Date.now();
      while (Date.now() - u < 700) {}
      beat();
    `);
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split("\n");
    const early = lines.filter((l) => l.includes(" 40/100 "));
    const late = lines.filter((l) => l.includes(" 50/100 "));
    expect(early.length).toBeGreaterThanOrEqual(2);
    expect(late.length).toBeGreaterThanOrEqual(1);
    // No progress yet: no rate. Then 10 deals in about 1 s (1.x s on a loaded machine).
    for (const l of early)
      expect(l).toMatch(
        /^test: still running after \d+\.\d s: 40\/100 deals \(40\.0%\), 3 wins in this run$/,
      );
    for (const l of late) {
      const m =
        /^test: still running after \d+\.\d s: 50\/100 deals \(50\.0%\), 7 wins in this run, ([\d.]+) deals\/s, about (\d+) s left$/.exec(
          l,
        );
      expect(m, l).not.toBeNull();
      const rate = Number(m![1]);
      expect(rate).toBeGreaterThan(3);
      expect(rate).toBeLessThanOrEqual(10.5);
      expect(Number(m![2])).toBeCloseTo(50 / rate, -1);
    }
  });

  it("refuses a bad PENGUIN_PROGRESS_SECONDS with one line and exit code 2", () => {
    const r = penguin(["solve", "--seed", "1"], { PENGUIN_PROGRESS_SECONDS: "0" });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'penguin: PENGUIN_PROGRESS_SECONDS must be a number of seconds from 0.05 to 3600, got "0"',
    );
    expect(r.stdout).toBe("");
  });
});

describe("commands off a terminal report at least every interval", () => {
  it("penguin eval: lines while a slow deal is played, none after the result", () => {
    // Free-cell-starved FreeCell deals make the solver agent search hard: about 0.8 CPU-s for
    // six, long enough for several lines at 0.05 s even when the thread starts late under load.
    const r = penguin(
      [
        "eval",
        "--rules",
        "freecell",
        "--cells",
        "1",
        "--agent",
        "solver",
        "--max-states",
        "400000",
        "--deals",
        "6",
        "--no-timing",
      ],
      { PENGUIN_PROGRESS_SECONDS: "0.05" },
    );
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines)
      expect(l).toMatch(/^penguin eval: still running after \d+\.\d s(: [0-6]\/6 deals \(.*)?$/);
    expect(r.stdout).toMatch(/^solver\(max-states=400000\) on freecell\[cells=1\]\ngames 6, /);
  });

  it("penguin dataset: lines within a shard, with the shards done", () => {
    const dir = mkdtempSync(join(tmpdir(), "penguin-dataset-progress-"));
    try {
      const r = penguin([
        "dataset",
        "--deals",
        "8",
        "--shard-deals",
        "4",
        "--max-states",
        "20000",
        "--out",
        join(dir, "labels"),
        "--quiet",
      ]);
      expect(r.status).toBe(0);
      const lines = r.stderr.trim().split("\n");
      expect(lines.length).toBeGreaterThanOrEqual(3);
      for (const l of lines)
        expect(l).toMatch(/^penguin dataset: still running after \d+\.\d s: [012]\/2 shards \(/);
      expect(lines.some((l) => l.includes(": 0/2 shards"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("more commands off a terminal", () => {
  it("penguin replay: lines while the marker's searches run", () => {
    const dir = mkdtempSync(join(tmpdir(), "penguin-replay-progress-"));
    try {
      const r = penguin([
        "replay",
        // About 0.6 s of the marker's searches on an idle core.
        ...["--rules", "freecell", "--cells", "2", "--ms", "1", "--max-states", "1000000"],
        ...["--out", join(dir, "game.html")],
      ]);
      expect(r.status).toBe(0);
      const lines = r.stderr.trim().split("\n");
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const l of lines) expect(l).toMatch(/^penguin replay: still running after \d+\.\d s$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("penguin compare: lines with the rows read, on files of 150,000 deals", () => {
    const dir = mkdtempSync(join(tmpdir(), "penguin-compare-progress-"));
    try {
      const head = "deal,rules,agent,won,cards_home,moves,ms";
      const file = (agent: string, every: number): string => {
        const rows = [head];
        for (let i = 1; i <= 150_000; i++)
          rows.push(`${i},penguin,${agent},${i % every === 0},52,80,0`);
        const f = join(dir, `${agent}.csv`);
        writeFileSync(f, `${rows.join("\n")}\n`);
        return f;
      };
      const r = penguin(["compare", file("greedy", 3), file("random", 5)]);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^greedy: 50000\/150000 = 33\.3%/);
      const lines = r.stderr.trim().split("\n");
      expect(lines.length).toBeGreaterThanOrEqual(1);
      for (const l of lines)
        expect(l).toMatch(
          /^penguin compare: still running after \d+\.\d s(: \d+ rows(, [\d.]+ rows\/s)?)?$/,
        );
      expect(lines.some((l) => / \d+ rows/.test(l))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A terminal, through util-linux's `script` (a pseudo-terminal); skipped where it is missing.
describe.skipIf(!existsSync("/usr/bin/script"))("on a terminal", () => {
  it("the bar is redrawn every second while one item runs, and ends with a newline", () => {
    const code = `
      const { progressReporter } = await import(${progress});
      const p = progressReporter({ label: "t" });
      const spin = (ms) => { const t = Date.now(); while (Date.now() - t < ms) {} };
      p(true, 1, 3); spin(2600); p(false, 2, 3); spin(300); p(true, 3, 3); spin(1500); p.stop();
      process.stdout.write("done");`;
    const file = join(mkdtempSync(join(tmpdir(), "penguin-tty-")), "bar.mjs");
    writeFileSync(file, code);
    try {
      const r = spawnSync(
        "/usr/bin/script",
        ["-q", "-c", `${process.execPath} ${file}`, "/dev/null"],
        {
          encoding: "utf8",
          timeout: 30_000,
        },
      );
      expect(r.status).toBe(0);
      const draws = r.stdout.split("\r").filter((d) => d.startsWith("["));
      const at1 = draws.filter((d) =>
        /^\[#{10} {20}\] 1\/3 deals, 1 wins in this run, \d s$/.test(d),
      );
      // Drawn for the first item, then again by the thread during the 2.6 s it waits.
      expect(at1.length).toBeGreaterThanOrEqual(2);
      expect(new Set(at1.map((d) => d.slice(-3))).size).toBeGreaterThanOrEqual(2);
      // The full bar last, its line ended (a terminal shows "\n" as "\r\n"), then the program's
      // own output: nothing from the thread after the end.
      expect(draws.at(-1)).toMatch(/^\[#{30}\] 3\/3 deals, 2 wins in this run, \d s$/);
      expect(r.stdout).toMatch(/3\/3 deals, 2 wins in this run, \d s\r\ndone$/);
      expect(r.stdout.trimEnd().endsWith("done")).toBe(true);
    } finally {
      rmSync(dirname(file), { recursive: true, force: true });
    }
  });
});
