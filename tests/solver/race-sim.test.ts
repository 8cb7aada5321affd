/**
 * scripts/race-sim.ts replays a plan's race from each racer's counts alone. The replay must store
 * exactly what solve() stores, deal by deal: that is what makes the plan's tuning on paper sound.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { oneLine, script, tempDir } from "../hardening/helpers.js";

const { dir, done } = tempDir("race-sim");

/** The two JSON lines of `--data FILE --check`: the replay, then solve()'s figures. */
interface Replayed {
  positions: number;
  lost: number;
  open: number;
}
interface Checked {
  positions: number;
  dealsExact: number;
  unexplained: number[];
}
const lines = (stdout: string): [Replayed, Checked] => {
  const [a, b] = stdout.trim().split("\n");
  return [JSON.parse(a!) as Replayed, JSON.parse(b!) as Checked];
};
afterAll(done);

describe("races replayed on paper (scripts/race-sim.ts)", () => {
  it("store what solve() stores, deal by deal, on Penguin and FreeCell deals; bad input is refused in one line", async () => {
    const pg = join(dir, "pg.json");
    const fc = join(dir, "fc.json");
    // Penguin MS 600-639 holds #616, lost: the complete search must run dry in the replay too.
    const [a, b] = await Promise.all([
      script(
        "scripts/race-sim.ts",
        [
          "--collect",
          pg,
          "--preset",
          "penguin",
          "--from",
          "600",
          "--deals",
          "40",
          "--complete-cap",
          "50000",
        ],
        { timeoutMs: 120_000 },
      ),
      script("scripts/race-sim.ts", ["--collect", fc, "--from", "8150", "--deals", "30"], {
        timeoutMs: 120_000,
      }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const data = JSON.parse(readFileSync(pg, "utf8")) as {
      racers: Record<string, { counts: number[] }>;
    };
    expect(Object.keys(data.racers)).toEqual(["purpose", "dfs-complete-plain"]);
    // #616: the purpose order runs dry, and so does the complete search (which proves it lost).
    expect(data.racers.purpose!.counts[16]).toBeLessThan(0);
    expect(data.racers["dfs-complete-plain"]!.counts[16]).toBeLessThan(0);
    const [p, f] = await Promise.all([
      script("scripts/race-sim.ts", ["--data", pg, "--check"], { timeoutMs: 120_000 }),
      script("scripts/race-sim.ts", ["--data", fc, "--check"], { timeoutMs: 120_000 }),
    ]);
    expect([p.code, f.code]).toEqual([0, 0]);
    const [pSim, pCheck] = lines(p.stdout);
    expect(pSim.lost).toBe(1);
    expect(pSim.open).toBe(0);
    expect(pCheck.dealsExact).toBe(40);
    expect(pCheck.positions).toBe(pSim.positions);
    expect(pCheck.unexplained).toEqual([]);
    // FreeCell MS 8150-8179 holds #8166, which only dfs-static wins soon (plan.ts), after the
    // patient best-first racer's first turn: that deal may come out a few positions off.
    const [fSim, fCheck] = lines(f.stdout);
    expect(fSim.open).toBe(0);
    expect(fCheck.dealsExact).toBeGreaterThanOrEqual(29);
    expect(fCheck.unexplained).toEqual([]);
    expect(Math.abs(fCheck.positions - fSim.positions)).toBeLessThan(100);

    const notJson = join(dir, "not.json");
    writeFileSync(notJson, "deal,rules\n");
    const bad = await Promise.all([
      script("scripts/race-sim.ts", []),
      script("scripts/race-sim.ts", ["--data", notJson]),
      script("scripts/race-sim.ts", ["--data", pg, "--plan", pg]),
      script("scripts/race-sim.ts", ["--collect", join(dir, "x.json"), "--deals", "1"]),
    ]);
    expect(bad.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(oneLine(bad[0]!)).toBe(
      "race-sim: give one of --collect FILE (run the racers) and --data FILE (replay races)",
    );
    expect(oneLine(bad[1]!)).toMatch(/^race-sim: --data: .*not\.json is not JSON/);
    expect(oneLine(bad[2]!)).toBe("race-sim: --plan: give a JSON list of plan entries");
    expect(oneLine(bad[3]!)).toMatch(/--deals must be an integer from 2 to 100000, got "1"/);
  });
});
