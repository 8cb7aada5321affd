import { describe, expect, it } from "vitest";
import { parseShard, shardRange } from "../../experiments/lib/shard.js";
import { parseOptions, COMMON_OPTIONS } from "../../experiments/lib/options.js";
import { UsageError } from "../../src/errors.js";
import { outFile } from "../../experiments/lib/runner.js";

describe("shard ranges", () => {
  it("are disjoint, contiguous and cover every deal, sizes within one", () => {
    for (const total of [1, 2, 7, 10, 100, 999, 1_000_000]) {
      for (const count of [1, 2, 3, 4, 7, 16, 100]) {
        let next = 0;
        const sizes: number[] = [];
        for (let index = 0; index < count; index++) {
          const { start, end } = shardRange(total, { index, count });
          expect(start).toBe(next);
          expect(end).toBeGreaterThanOrEqual(start);
          sizes.push(end - start);
          next = end;
        }
        expect(next).toBe(total);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
  });

  it("splits 10 deals in 3 as 0-2, 3-5, 6-9", () => {
    expect([0, 1, 2].map((index) => shardRange(10, { index, count: 3 }))).toEqual([
      { start: 0, end: 3 },
      { start: 3, end: 6 },
      { start: 6, end: 10 },
    ]);
    expect(shardRange(10)).toEqual({ start: 0, end: 10 });
  });

  it("parses i/n (0-based) and rejects anything else with one line", () => {
    expect(parseShard("0/4")).toEqual({ index: 0, count: 4 });
    expect(parseShard("3/4")).toEqual({ index: 3, count: 4 });
    for (const bad of ["4/4", "1/0", "-1/3", "a/b", "1", "1/2/3", ""]) {
      expect(() => parseShard(bad)).toThrow(UsageError);
      try {
        parseShard(bad);
      } catch (e) {
        expect((e as Error).message).not.toContain("\n");
        expect((e as Error).message).toContain("0 ≤ i < n");
      }
    }
  });
});

describe("experiment options", () => {
  const specs = {
    ...COMMON_OPTIONS,
    empty: {
      type: "list",
      default: ["below-base"],
      choices: ["below-base", "any", "none"],
      help: "rules",
    },
    cells: { type: "int-list", default: [7], min: 0, max: 8, help: "flippers" },
  } as const;

  it("gives typed defaults and parses values", () => {
    const d = parseOptions("t", specs, []);
    expect(d.deals).toBe(200);
    expect(d.shard).toBeUndefined();
    expect(d.empty).toEqual(["below-base"]);
    const o = parseOptions("t", specs, [
      "--deals",
      "5",
      "--cells=0-2,7",
      "--empty",
      "any,none",
      "--shard",
      "1/3",
      "--quiet",
    ]);
    expect(o.deals).toBe(5);
    expect(o.cells).toEqual([0, 1, 2, 7]);
    expect(o.empty).toEqual(["any", "none"]);
    expect(o.shard).toEqual({ index: 1, count: 3 });
    expect(o.quiet).toBe(true);
  });

  it("rejects bad input with one line naming what is allowed", () => {
    const cases: [string[], string][] = [
      [["--deals", "0"], "from 1"],
      [["--deals", "ten"], "integer"],
      [["--empty", "sometimes"], "allowed: below-base, any, none"],
      [["--cells", "9"], "from 0 to 8"],
      [["--flipers", "3"], "--deals"],
      [["stray"], "takes --deals"],
      [["--workers"], "needs a value"],
    ];
    for (const [argv, hint] of cases) {
      let msg = "";
      try {
        parseOptions("t", specs, argv);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        msg = (e as Error).message;
      }
      expect(msg, argv.join(" ")).toContain(hint);
      expect(msg).not.toContain("\n");
    }
  });
});

describe("the CSV a run writes", () => {
  it("without --out: runs/<name>.csv, outside the tracked results/", () => {
    expect(outFile("flippers", "")).toBe("runs/flippers.csv");
    expect(outFile("flippers", "").startsWith("results/")).toBe(false);
  });
  it("--shard i/n with one --out: each shard its own file beside it, named from it", () => {
    const a = outFile("flippers", "big/f.csv", { index: 0, count: 2 });
    const b = outFile("flippers", "big/f.csv", { index: 1, count: 2 });
    expect([a, b]).toEqual(["big/f.shard-0-of-2.csv", "big/f.shard-1-of-2.csv"]);
    expect(outFile("flippers", "", { index: 3, count: 4 })).toBe("runs/flippers.shard-3-of-4.csv");
    // A name that already says its shard (the job-array recipes of docs/experiments.md) is kept.
    expect(outFile("f", "r/f.shard-1-of-2.csv", { index: 1, count: 2 })).toBe(
      "r/f.shard-1-of-2.csv",
    );
    expect(outFile("f", "r/f", { index: 1, count: 2 })).toBe("r/f.shard-1-of-2");
  });
});
