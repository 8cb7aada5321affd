/** experiments/crosscheck.ts flags an agent win on a deal the solver proved lost, clashes, and verdicts the atlas contradicts. */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const H = "deal,deck,flippers,rules,player,base,outcome,cards_home,moves,states\n";

function check(files: Record<string, string>, dir = mkdtempSync(join(tmpdir(), "penguin-cross-"))) {
  for (const [n, t] of Object.entries(files)) {
    mkdirSync(join(dir, n, ".."), { recursive: true });
    writeFileSync(join(dir, n), t);
  }
  const r = spawnSync(
    join(root, "node_modules/.bin/tsx"),
    ["experiments/crosscheck.ts", "--dir", dir],
    { cwd: root, encoding: "utf8" },
  );
  return { code: r.status, out: r.stdout };
}

it("passes consistent files and fails a win the solver proved impossible, or two outcomes for one game", () => {
  const ok = check({
    "a.csv":
      H +
      "1,seed,7,penguin,greedy(tuned),Q,won,52,90,0\n1,seed,7,penguin,solver(maxStates=1000),Q,won,52,80,40\n",
    "b.csv":
      H +
      "1,seed,7,penguin,greedy(tuned),Q,won,52,90,0\n2,seed,7,penguin,solver(maxStates=1000),4,lost,3,0,99\n",
  });
  expect(ok.code).toBe(0);
  expect(ok.out).toContain("proved lost: 0");
  const bad = check({
    "a.csv":
      H +
      "2,seed,7,penguin,greedy(tuned),4,won,52,90,0\n2,seed,7,penguin,solver(maxStates=1000),4,lost,3,0,99\n",
    "b.csv": `${H}2,seed,7,penguin,greedy(tuned),4,lost,9,1000,0\n`,
  });
  expect(bad.code).toBe(1);
  expect(bad.out).toContain("won but proved lost: 2|penguin");
  expect(bad.out).toContain("different outcomes across files: 1");
});

it("checks the studies' verdicts and wins against the atlas's lists where the atlas covers the deal", () => {
  const atlas = {
    "atlas/summary.csv": "row,rules,deck,first_deal,last_deal\npenguin-7,penguin,seed,1,100\n",
    "atlas/deals/penguin-7.txt": "# penguin-7\nlost 71\nunknown 90-91\n",
  };
  const ok = check({
    ...atlas,
    // Deal 71 lost in both; 5 won in both; 90 unknown in the atlas (not compared); 200 and
    // relaxed Penguin are outside the atlas.
    "a.csv":
      H +
      "71,seed,7,penguin,solver(maxStates=1000),Q,lost,3,0,9\n5,seed,7,penguin,solver(maxStates=1000),Q,won,52,80,9\n" +
      "90,seed,7,penguin,solver(maxStates=1000),Q,lost,3,0,9\n200,seed,7,penguin,greedy(tuned),Q,won,52,90,0\n" +
      "71,seed,7,penguin-relaxed,greedy(tuned),Q,won,52,90,0\n",
  });
  expect(ok.out).toContain(
    "against the atlas (1 rows): 2 solver verdicts and 0 agent wins on its deals; disagreements: 0",
  );
  expect(ok.code).toBe(0);
  const bad = check({
    ...atlas,
    "a.csv":
      H +
      "71,seed,7,penguin,greedy(tuned),Q,won,52,90,0\n5,seed,7,penguin,solver(maxStates=1000),Q,lost,3,0,9\n",
  });
  expect(bad.code).toBe(1);
  expect(bad.out).toContain(
    "penguin deal 71: won by greedy(tuned) in a.csv, lost in the atlas (penguin-7)",
  );
  expect(bad.out).toContain("penguin deal 5: lost in a.csv, won in the atlas (penguin-7)");
});

it("the shipped results/ agree with themselves and with the atlas", () => {
  const r = spawnSync(join(root, "node_modules/.bin/tsx"), ["experiments/crosscheck.ts"], {
    cwd: root,
    encoding: "utf8",
  });
  expect(r.stdout).toMatch(
    /against the atlas \(24 rows\): [1-9]\d{3,} solver verdicts .* disagreements: 0/,
  );
  expect(r.status).toBe(0);
});
