import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcnemarExact } from "../../src/eval/stats.js";
import { compareFiles } from "../../src/cli/compare.js";
import { UsageError } from "../../src/errors.js";
import { scratchDir } from "../train/helpers.js";

const HEADER = "deal,rules,agent,won,cards_home,moves,ms";
const csv = (dir: string, name: string, agent: string, won: boolean[]): string => {
  const path = join(dir, name);
  writeFileSync(
    path,
    `${[HEADER, ...won.map((w, i) => `${i + 1},penguin,${agent},${w},${w ? 52 : 10},100,0`)].join(
      "\n",
    )}\n`,
  );
  return path;
};

describe("paired comparison of two players", () => {
  it("exact McNemar p-values match the binomial sums", () => {
    // 2·(C(10,0)+C(10,1))/2^10 = 22/1024
    expect(mcnemarExact(9, 1)).toBeCloseTo(22 / 1024, 12);
    expect(mcnemarExact(1, 9)).toBeCloseTo(22 / 1024, 12);
    // 2·P(Binomial(100, 1/2) ≤ 40), computed exactly with big integers in Python: 0.0568879336…
    expect(mcnemarExact(60, 40)).toBeCloseTo(0.05688793364098079, 10);
    expect(mcnemarExact(5, 5)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
  });

  it("counts the deals only one player won, and refuses files that do not pair up", () => {
    const dir = scratchDir("compare");
    const a = csv(dir, "a.csv", "greedy(tuned)", [true, true, false, true, false, true]);
    const b = csv(dir, "b.csv", "random", [true, false, false, false, true, false]);
    const c = compareFiles(a, b);
    expect(c).toMatchObject({
      deals: 6,
      aOnly: 3,
      bOnly: 1,
      a: { agent: "greedy(tuned)", wins: 4 },
      b: { agent: "random", wins: 2 },
    });
    expect(c.mcnemarP).toBeCloseTo((2 * (1 + 4)) / 16, 12);
    const short = csv(dir, "short.csv", "random", [true, false]);
    expect(() => compareFiles(a, short)).toThrow(/same deals: 4 deal\(s\) appear in only one/);
    writeFileSync(join(dir, "bad.csv"), "x,y\n1,2\n");
    expect(() => compareFiles(a, join(dir, "bad.csv"))).toThrow(UsageError);
    expect(() => compareFiles(a, join(dir, "none.csv"))).toThrow(/does not exist/);
  });
});
