/**
 * Resuming and sharing outputs: one writer per file (a lock beside it, stale locks taken over),
 * every resumed row checked for content, one deal kind and one timing mode per file, and a
 * merge that refuses a set of shards missing its first or last shard.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { resolveRules } from "../../src/engine/rules.js";
import { UsageError } from "../../src/errors.js";
import { runEval } from "../../src/eval/run.js";
import { msRange, seedRange } from "../../src/eval/deals.js";
import { openStore } from "../../experiments/lib/store.js";
import { oneLine, penguin, root, tempDir, waitFor } from "./helpers.js";

const { dir, done } = tempDir("resume");
afterAll(done);
const rules = resolveRules("penguin");
const spec = { agent: "random", rules, timing: false } as const;

describe("one writer per output file", () => {
  it("a second eval on the same --out exits 2 with one line while the first runs; SIGINT then stops the first with a resume hint", async () => {
    const out = join(dir, "shared.csv");
    const first = spawn(
      process.execPath,
      [
        "bin/penguin.js",
        "eval",
        "--agent",
        "random",
        "--deals",
        "1000000",
        "--no-timing",
        "--out",
        out,
      ],
      { cwd: root },
    );
    let firstErr = "";
    first.stderr.on("data", (d) => (firstErr += d));
    const firstDone = new Promise<number | null>((r) => first.on("close", (c) => r(c)));
    // The lock is created (O_EXCL) and then filled in: wait for its content.
    expect(
      await waitFor(
        () => existsSync(`${out}.lock`) && readFileSync(`${out}.lock`, "utf8").endsWith("\n"),
        30_000,
      ),
    ).toBe(true);
    expect(readFileSync(`${out}.lock`, "utf8")).toBe(`${first.pid} ${hostname()}\n`);
    const second = await penguin([
      "eval",
      "--agent",
      "random",
      "--deals",
      "1000000",
      "--no-timing",
      "--out",
      out,
    ]);
    expect(second.code).toBe(2);
    expect(oneLine(second)).toMatch(
      new RegExp(`shared\\.csv is being written by process ${first.pid} on ${hostname()}`),
    );
    first.kill("SIGINT");
    expect(await firstDone).toBe(130);
    const deals = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",")[0]);
    expect(deals.length).toBeGreaterThan(0);
    // One writer: deals 1..n once each, in order.
    expect(deals).toEqual(Array.from({ length: deals.length }, (_, i) => String(i + 1)));
    expect(firstErr.trim()).toBe(
      `penguin eval: stopped by SIGINT: ${out} holds ${deals.length} deals (${deals.length} of the 1000000 asked for); rerun the same command to resume`,
    );
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("a stale lock (its process is gone) is taken over", async () => {
    const out = join(dir, "stale.csv");
    const gone = spawn(process.execPath, ["-e", "0"]);
    await new Promise((r) => gone.on("close", r));
    writeFileSync(`${out}.lock`, `${gone.pid} ${hostname()}\n`);
    await runEval({ ...spec, deals: seedRange(1, 3), out });
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(4);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("an experiment store checks each row's outcome columns", () => {
    const header = [
      "deal",
      "deck",
      "rules",
      "player",
      "base",
      "outcome",
      "cards_home",
      "moves",
      "states",
    ];
    const key = (i: number): string[] => [String(i + 1), "seed", "penguin", "random"];
    const cases: [string, RegExp][] = [
      ["1,seed,penguin,random,7,maybe,3,10,0", /outcome is "maybe", expected won, lost or unknown/],
      ["1,seed,penguin,random,7,lost,999,10,0", /cards_home is "999"/],
      ["1,seed,penguin,random,7,won,4,10,0", /outcome is won with 4 cards home/],
      ["1,seed,penguin,random,Z,lost,3,10,0", /base is "Z"/],
    ];
    for (const [i, [row, msg]] of cases.entries()) {
      const f = join(dir, `store-bad-${i}.csv`);
      const text = `${header.join(",")}\n${row}\n`;
      writeFileSync(f, text);
      expect(() => openStore(f, header, 4, 10, key, () => {})).toThrow(msg);
      expect(readFileSync(f, "utf8")).toBe(text);
      expect(existsSync(`${f}.lock`)).toBe(false);
    }
  });

  it("an experiment store is locked too", () => {
    const out = join(dir, "store.csv");
    const header = [
      "deal",
      "deck",
      "rules",
      "player",
      "base",
      "outcome",
      "cards_home",
      "moves",
      "states",
    ];
    const key = (i: number): string[] => [String(i + 1), "seed", "penguin", "random"];
    const a = openStore(out, header, 4, 10, key, () => {});
    expect(() => openStore(out, header, 4, 10, key, () => {})).toThrow(
      /is being written by process/,
    );
    a.close();
    openStore(out, header, 4, 10, key, () => {}).close();
  });
});

describe("resume checks every row", () => {
  const base = join(dir, "base.csv");
  const header = "deal,rules,agent,won,cards_home,moves,ms\n";
  const row = (deal: number, won: string, home: string, ms = "0"): string =>
    `${deal},penguin,random,${won},${home},40,${ms}\n`;

  it("refuses won=maybe, cards_home=999, and won=true with 4 cards home; the file is untouched", async () => {
    const cases: [string, RegExp][] = [
      [
        row(1, "false", "3") + row(2, "maybe", "3"),
        /line 3: won is "maybe", expected true or false/,
      ],
      [row(1, "false", "999"), /line 2: cards_home is "999", expected an integer from 0 to 52/],
      [row(1, "true", "4"), /line 2: won is true with 4 cards home/],
      [row(1, "false", "52"), /line 2: won is false with 52 cards home/],
      [row(2, "false", "3") + row(1, "false", "3"), /line 3: deal 1 comes after deal 2/],
    ];
    for (const [i, [body, msg]] of cases.entries()) {
      const f = join(dir, `bad-${i}.csv`);
      writeFileSync(f, header + body);
      await expect(runEval({ ...spec, deals: seedRange(1, 5), out: f })).rejects.toThrow(msg);
      expect(readFileSync(f, "utf8")).toBe(header + body);
    }
  });

  it("the CLI says it in one line with exit 2 (and never reports mean cards home 961)", async () => {
    const f = join(dir, "bad-cli.csv");
    writeFileSync(f, header + row(1, "false", "999"));
    const r = await penguin([
      "eval",
      "--agent",
      "random",
      "--deals",
      "2",
      "--no-timing",
      "--out",
      f,
    ]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/cards_home is "999"/);
    expect(r.stdout).toBe("");
  });

  it("refuses to mix deal kinds or timed and untimed rows in one file", async () => {
    await runEval({ ...spec, deals: seedRange(1, 3), out: base });
    const before = readFileSync(base, "utf8");
    await expect(runEval({ ...spec, deals: msRange(1, 3), out: base })).rejects.toThrow(
      /deal 1 is a seeded deal and this run plays Microsoft deals/,
    );
    await expect(
      runEval({ ...spec, timing: true, deals: seedRange(1, 5), out: base }),
    ).rejects.toThrow(/written with --no-timing/);
    const timed = join(dir, "timed.csv");
    await runEval({ ...spec, timing: true, deals: seedRange(1, 2), out: timed });
    expect(readFileSync(timed, "utf8").trim().split("\n")[1]).toMatch(/,\d+\.\d$/);
    await expect(
      runEval({ ...spec, timing: false, deals: seedRange(1, 3), out: timed }),
    ).rejects.toThrow(/holds timed rows, this run has --no-timing/);
    expect(readFileSync(base, "utf8")).toBe(before);
    // The same settings resume as before.
    const more = await runEval({ ...spec, deals: seedRange(1, 5), out: base });
    expect([more.skipped, more.summary.played, more.summary.games]).toEqual([3, 2, 5]);
  });
});

describe("penguin merge refuses an incomplete set of shards", () => {
  const shard = (name: string, rows: string): string => {
    const p = join(dir, name);
    writeFileSync(p, `deal,player\n${rows}`);
    return p;
  };
  const s0 = shard("run.shard-0-of-3.csv", "1,x\n2,x\n");
  const s1 = shard("run.shard-1-of-3.csv", "3,x\n4,x\n");
  const s2 = shard("run.shard-2-of-3.csv", "5,x\n6,x\n");

  it("missing the first shard, the last shard, or mixing runs: exit 2, one line, no output", async () => {
    const out = join(dir, "merged.csv");
    const runs = await Promise.all([
      penguin(["merge", s1, s2, "--out", out]),
      penguin(["merge", s0, s1, "--out", out]),
      penguin(["merge", s0, s1, s2, shard("other.shard-0-of-2.csv", "7,x\n"), "--out", out]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2]);
    expect(oneLine(runs[0]!)).toMatch(
      /shard 0 of 3 is missing: merge needs every shard of the run \(0 to 2\)/,
    );
    expect(oneLine(runs[1]!)).toMatch(/shard 2 of 3 is missing/);
    expect(oneLine(runs[2]!)).toMatch(/split 3 and 2 ways/);
    expect(existsSync(out)).toBe(false);
    const ok = await penguin(["merge", s2, s0, s1, "--out", out]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe("deal,player\n1,x\n2,x\n3,x\n4,x\n5,x\n6,x\n");
  });
});

it("UsageError is the class thrown for a refused row", async () => {
  const f = join(dir, "class.csv");
  writeFileSync(f, "deal,rules,agent,won,cards_home,moves,ms\n1,penguin,random,maybe,3,40,0\n");
  await expect(runEval({ ...spec, deals: seedRange(1, 2), out: f })).rejects.toBeInstanceOf(
    UsageError,
  );
});
