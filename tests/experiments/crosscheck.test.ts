/** experiments/crosscheck.ts flags an agent win on a deal the solver proved lost, and clashes. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const H = "deal,deck,flippers,rules,player,base,outcome,cards_home,moves,states\n";

function check(files: Record<string, string>): { code: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), "penguin-cross-"));
  for (const [n, t] of Object.entries(files)) writeFileSync(join(dir, n), t);
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
