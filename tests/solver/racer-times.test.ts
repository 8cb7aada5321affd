/**
 * scripts/racer-times.ts splits a plan's CPU time between its entries. Its split must account for
 * what solve() does: every position stored and every verdict, entry by entry.
 */
import { describe, expect, it } from "vitest";
import { dealMs } from "../../src/engine/deal.js";
import { resolveRules } from "../../src/engine/rules.js";
import { solve } from "../../src/solver/search.js";
import { script } from "../hardening/helpers.js";

interface Row {
  entry: string;
  positionsPerPass?: number;
  wonPerPass?: number;
  provedLostPerPass?: number;
  percent: number;
}

describe("plan entries timed (scripts/racer-times.ts)", () => {
  it("accounts for every position and verdict of Penguin MS 610-619 (#616 lost) by entry", async () => {
    const r = await script(
      "scripts/racer-times.ts",
      ["--sets", "penguin", "--from", "610", "--deals", "10", "--warm-up", "0", "--rounds", "1"],
      { timeoutMs: 120_000 },
    );
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Row);
    expect(rows.map((x) => x.entry)).toEqual([
      "purpose",
      "dfs-complete-plain",
      "(outside the searches)",
    ]);
    const rules = resolveRules("penguin", {});
    const results = Array.from({ length: 10 }, (_, i) => solve(dealMs(rules, 610 + i)));
    expect(rows[0]!.positionsPerPass! + rows[1]!.positionsPerPass!).toBe(
      results.reduce((s, x) => s + x.states, 0),
    );
    expect(results.filter((x) => x.result === "unsolvable").length).toBe(1);
    expect(rows[1]!.provedLostPerPass).toBe(1);
    expect(rows[0]!.wonPerPass! + rows[1]!.wonPerPass!).toBe(9);
    expect(rows.reduce((s, x) => s + x.percent, 0)).toBeCloseTo(100, 0);
  });
});
