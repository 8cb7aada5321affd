/**
 * The real experiment scripts on real agents and the real solver, with tiny budgets: the quick
 * experiment (npm start) writes its CSV, summary and plot; every script rejects bad options with
 * one line naming what is allowed, and the process exits 2.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { parseCsvText as parseCsv } from "../../src/util/csv.js";
import { runExperiment } from "../../experiments/lib/runner.js";
import { quick } from "../../experiments/quick.js";
import { flippers } from "../../experiments/flippers.js";
import { groupMove } from "../../experiments/group-move.js";
import { baseRank } from "../../experiments/base-rank.js";
import { family } from "../../experiments/family.js";
import { heuristics } from "../../experiments/heuristics.js";

const root = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "penguin-scripts-"));

describe("experiment scripts", () => {
  it("quick experiment runs with a tiny budget: table, CSV with config and seeds, SVG", async () => {
    const out = join(dir, "quick.csv");
    const r = await runExperiment(quick, [
      "--quiet",
      "--deals",
      "3",
      "--seed",
      "5",
      "--max-states",
      "20000",
      "--out",
      out,
    ]);
    expect(r!.complete).toBe(true);
    const { records } = parseCsv(readFileSync(out, "utf8"));
    expect(records[0]!.fields).toEqual([
      "deal",
      "deck",
      "variant",
      "rules",
      "player",
      "base",
      "outcome",
      "cards_home",
      "moves",
      "states",
    ]);
    // 3 deals × 5 variants × 3 players, deal-major, seeds 5, 6, 7.
    expect(records).toHaveLength(1 + 3 * 15);
    expect(records.slice(1).map((x) => x.fields[0])).toEqual([
      ...Array(15).fill("5"),
      ...Array(15).fill("6"),
      ...Array(15).fill("7"),
    ]);
    const first = records.slice(1, 16).map((x) => `${x.fields[2]}|${x.fields[3]}|${x.fields[4]}`);
    expect(first).toContain("3-flippers|penguin[cells=3]|solver(maxStates=20000)");
    expect(first).toContain("relaxed|penguin-relaxed|random");
    for (const x of records.slice(1)) {
      expect(["won", "lost", "unknown"]).toContain(x.fields[6]);
      if (x.fields[4]!.startsWith("solver") && x.fields[6] === "won")
        expect(x.fields[7]).toBe("52");
    }
    // Penguin with no flippers: the solver proves every one of these deals lost.
    expect(
      records
        .slice(1)
        .filter((x) => x.fields[2] === "0-flippers" && x.fields[4]!.startsWith("solver"))
        .map((x) => x.fields[6]),
    ).toEqual(["lost", "lost", "lost"]);
    expect(readFileSync(join(dir, "quick.svg"), "utf8")).toMatch(
      /^<svg[\s\S]*win rate[\s\S]*<\/svg>$/,
    );
    expect(readFileSync(join(dir, "quick.summary.csv"), "utf8").split("\n")[0]).toBe(
      "variant,player,n,won,unknown,win_rate,ci95_lo,ci95_hi,upper_if_unknown_won,mean_cards_home",
    );
  });

  it("every script refuses bad options with a one-line UsageError naming what is allowed", async () => {
    const cases = [
      [flippers, ["--empty", "sometimes"], "allowed: below-base, any, none"],
      [groupMove, ["--group-move", "huge"], "allowed: unlimited, supermove, free-cells, single"],
      [baseRank, ["--rules", "freecell"], "allowed: penguin"],
      [family, ["--rules", "klondike"], "allowed: penguin, penguin-relaxed"],
      [heuristics, ["--heuristic", "clever"], "allowed: parlett"],
      [quick, ["--agent", "oracle"], "allowed: random, greedy, lookahead, solver"],
      [quick, ["--deals", "-3"], "--deals must be an integer from 1"],
      [quick, ["--shard", "2/2"], "0 ≤ i < n"],
    ] as const;
    for (const [def, argv, hint] of cases) {
      const p = runExperiment(def as typeof quick, [...argv, "--out", join(dir, "never.csv")]);
      await expect(p, `${def.name} ${argv.join(" ")}`).rejects.toThrow(UsageError);
      await p.catch((e: Error) => {
        expect(e.message).toContain(hint);
        expect(e.message).not.toContain("\n");
      });
    }
  });

  it("a script run with a bad option prints one line and exits 2", () => {
    const r = spawnSync(
      join(root, "node_modules/.bin/tsx"),
      ["experiments/flippers.ts", "--cells", "9"],
      { cwd: root, encoding: "utf8" },
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([
      'flippers: --cells must be an integer from 0 to 8, got "9"',
    ]);
    expect(r.stdout).toBe("");
  });
});
