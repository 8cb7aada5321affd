/**
 * Scale and reliability of the experiment runner, on a fake task module (real deals, fake
 * outcomes) so the tests check the plumbing in seconds: shards merge into the unsharded file byte
 * for byte, worker count does not change the file, a killed run resumes with nothing lost or
 * duplicated, and a file written with other settings is refused untouched.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { mergeFiles, mergeShardTexts } from "../../src/cli/merge.js";
import { parseCsvText as parseCsv } from "../../src/util/csv.js";
import { UsageError } from "../../src/errors.js";
import { runExperiment } from "../../experiments/lib/runner.js";
import { fakeExperiment } from "./fixtures/fake-experiment.js";

const root = join(import.meta.dirname, "../..");
const script = join(root, "tests/experiments/fixtures/fake-experiment.ts");
const tsx = join(root, "node_modules/.bin/tsx");
const dir = mkdtempSync(join(tmpdir(), "penguin-exp-"));

/** In-process run (workers 1): the same code path as the script, without a process start. */
const runHere = (args: string[]) => runExperiment(fakeExperiment, ["--quiet", ...args]);

function run(
  args: string[],
  env: Record<string, string> = {},
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(tsx, [script, "--quiet", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("sharded runs and penguin merge", () => {
  it("merging shards (in any order) gives the unsharded file byte for byte; workers do not change it", async () => {
    const whole = join(dir, "whole.csv");
    await runHere(["--deals", "23", "--seed", "100", "--out", whole]);
    // One --out for every shard: each writes s.shard-i-of-3.csv beside it.
    for (const i of [2, 0, 1])
      await runHere([
        "--deals",
        "23",
        "--seed",
        "100",
        "--shard",
        `${i}/3`,
        "--out",
        join(dir, "s.csv"),
      ]);
    const shards = [2, 0, 1].map((i) => join(dir, `s.shard-${i}-of-3.csv`));
    const merged = join(dir, "merged.csv");
    expect(mergeFiles(shards, merged).rows).toBe(23 * 3);
    expect(readFileSync(merged, "utf8")).toBe(readFileSync(whole, "utf8"));
    // The CLI command does the same.
    const cli = spawnSync(
      tsx,
      ["src/cli/main.ts", "merge", ...shards, "--out", join(dir, "cli.csv")],
      { cwd: root, encoding: "utf8" },
    );
    expect(cli.status).toBe(0);
    expect(readFileSync(join(dir, "cli.csv"), "utf8")).toBe(readFileSync(whole, "utf8"));
    const two = join(dir, "two-workers.csv");
    expect(run(["--deals", "23", "--seed", "100", "--workers", "2", "--out", two]).code).toBe(0);
    expect(readFileSync(two, "utf8")).toBe(readFileSync(whole, "utf8"));
  });

  it("refuses a missing shard, an overlap, a partial row and a short deal, each with one line", () => {
    const h = "deal,deck,rules,outcome\n";
    const a = {
      name: "a.csv",
      text: `${h}1,seed,x,won\n1,seed,y,lost\n2,seed,x,won\n2,seed,y,won\n`,
    };
    const c = { name: "c.csv", text: `${h}4,seed,x,won\n4,seed,y,won\n` };
    const expectUsage = (f: () => unknown, hint: string): void => {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        expect((e as Error).message).toContain(hint);
        expect((e as Error).message).not.toContain("\n");
      }
    };
    expectUsage(() => mergeShardTexts([a, c]), "deals 3…3 are missing");
    expectUsage(() => mergeShardTexts([a, a]), "overlaps");
    expectUsage(
      () => mergeShardTexts([a, { name: "b.csv", text: `${h}3,seed,x,won\n3,se` }]),
      "partial row",
    );
    expectUsage(
      () => mergeShardTexts([a, { name: "b.csv", text: `${h}3,seed,x,won\n` }]),
      "deal 3 has 1 rows",
    );
    expectUsage(
      () => mergeShardTexts([a, { name: "b.csv", text: "deal,deck\n3,seed\n" }]),
      "another header",
    );
    expect(
      mergeShardTexts([c, { name: "b.csv", text: `${h}3,seed,x,won\n3,seed,y,lost\n` }, a]),
    ).toBe(
      h +
        "1,seed,x,won\n1,seed,y,lost\n2,seed,x,won\n2,seed,y,won\n3,seed,x,won\n3,seed,y,lost\n4,seed,x,won\n4,seed,y,won\n",
    );
  });

  it("resumes a run killed part way: nothing lost, nothing duplicated", async () => {
    const ref = join(dir, "ref.csv");
    await runHere(["--deals", "40", "--out", ref]);
    const out = join(dir, "killed.csv");
    const child = spawn(tsx, [script, "--quiet", "--deals", "40", "--out", out], {
      cwd: root,
      env: { ...process.env, FAKE_PLAY_DELAY_MS: "15" },
      detached: true,
    });
    // Wait for some rows to land, then kill the whole process group without warning.
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (existsSync(out) && parseCsv(readFileSync(out, "utf8")).records.length > 5) break;
    }
    process.kill(-child.pid!, "SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const partialRows = parseCsv(readFileSync(out, "utf8")).records.length - 1;
    expect(partialRows).toBeGreaterThan(0);
    expect(partialRows).toBeLessThan(120);
    // As if the kill had cut the last line short.
    appendFileSync(out, "37,seed,3,penguin[cel");
    const resumed = await runHere(["--deals", "40", "--out", out]);
    expect(resumed!.played).toBe(120 - partialRows);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(ref, "utf8"));
  });

  it("stops politely on SIGTERM (preemption): rows so far kept whole, exit 143, then resumes", async () => {
    const ref = join(dir, "ref-term.csv");
    await runHere(["--deals", "30", "--out", ref]);
    const out = join(dir, "term.csv");
    const child = spawn(tsx, [script, "--quiet", "--deals", "30", "--out", out], {
      cwd: root,
      env: { ...process.env, FAKE_PLAY_DELAY_MS: "15" },
    });
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (existsSync(out) && parseCsv(readFileSync(out, "utf8")).records.length > 3) break;
    }
    // tsx forwards the signal to the node process it runs.
    child.kill("SIGTERM");
    const code = await new Promise((r) => child.once("exit", (c) => r(c)));
    expect(code).toBe(143);
    const text = readFileSync(out, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(readFileSync(ref, "utf8").startsWith(text)).toBe(true);
    const resumed = await runHere(["--deals", "30", "--out", out]);
    expect(resumed!.played).toBe(90 - (parseCsv(text).records.length - 1));
    expect(readFileSync(out, "utf8")).toBe(readFileSync(ref, "utf8"));
  });

  it("refuses to extend a file written with other settings, leaving it untouched", async () => {
    const out = join(dir, "settings.csv");
    await runHere(["--deals", "5", "--out", out]);
    const before = readFileSync(out, "utf8");
    const r = run(["--deals", "5", "--seed", "9", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("other settings");
    expect(readFileSync(out, "utf8")).toBe(before);
    // More deals with the same settings extend the study.
    await expect(runHere(["--deals", "5", "--seed", "2", "--out", out])).rejects.toThrow(
      UsageError,
    );
    await expect(runHere(["--deals", "4", "--out", out])).rejects.toThrow(/more than this run/);
    expect(readFileSync(out, "utf8")).toBe(before);
    const more = await runHere(["--deals", "8", "--out", out]);
    expect(more!.played).toBe(3 * 3);
    expect(parseCsv(readFileSync(out, "utf8")).records.length).toBe(1 + 8 * 3);
  });
});
