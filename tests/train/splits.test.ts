/**
 * The named deal splits hold at every command that trains, labels or validates: a seed below
 * 100,000 (reserved for evaluation) is refused with one line and exit code 2 before any file is
 * written, and every run folder's config.json records the splits.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRules } from "../../src/engine/rules.js";
import { trainEs } from "../../src/train/es/es.js";
import { RunFolder } from "../../src/train/run.js";
import { checkSeeds, SPLITS } from "../../src/train/splits.js";
import { scratchDir } from "./helpers.js";

const root = join(import.meta.dirname, "../..");

function penguin(args: string[]): { code: number; stderr: string } {
  const r = spawnSync("node", ["bin/penguin.js", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  return { code: r.status ?? -1, stderr: r.stderr };
}

function refused(args: string[], out: string, message: RegExp): void {
  const r = penguin(args);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(existsSync(out)).toBe(false);
}

describe("deal splits", () => {
  it("names each split once and checks each use against its own", () => {
    expect(SPLITS.test).toEqual({ from: 10_001, to: 20_000 });
    for (const use of ["training", "validation", "labelling"] as const)
      expect(() => checkSeeds(use, "x", 99_999, 1)).toThrow(/reserved for evaluation/);
    expect(() => checkSeeds("labelling", "x", 100_000, 5)).not.toThrow();
    expect(() => checkSeeds("validation", "x", 999_999, 1)).not.toThrow();
    expect(() => checkSeeds("training", "x", 1_000_000)).not.toThrow();
  });

  it("every training and labelling command refuses reserved seeds", async () => {
    const dir = scratchDir("splits");
    refused(
      ["dataset", "--seed", "99990", "--deals", "5", "--out", join(dir, "d")],
      join(dir, "d"),
      /--seed must be an integer from 100000 to/,
    );
    for (const algo of ["ppo"])
      refused(
        ["train", algo, "--seed", "5000", "--out", join(dir, algo)],
        join(dir, algo),
        /--seed must be an integer from 100000 to/,
      );
    // The safety network trains on labelled deals: labels of validation seeds are not training data.
    const data = join(dir, "val-labels");
    expect(
      penguin([
        "dataset",
        "--seed",
        "100000",
        "--deals",
        "1",
        "--max-states",
        "10",
        "--out",
        data,
        "--quiet",
      ]).code,
    ).toBe(0);
    refused(
      ["train", "safety", "--data", data, "--out", join(dir, "s1")],
      join(dir, "s1"),
      /training seeds 100000–100000 must lie in 1000000 up/,
    );
    const old = join(dir, "old-labels");
    cpSync(data, old, { recursive: true });
    const idx = JSON.parse(readFileSync(join(old, "index.json"), "utf8")) as { dealStart: number };
    writeFileSync(join(old, "index.json"), JSON.stringify({ ...idx, dealStart: 42 }));
    refused(
      ["train", "safety", "--data", old, "--out", join(dir, "s2")],
      join(dir, "s2"),
      /training seeds 42–42 include seeds below 100000/,
    );
    // ES (no seed flags on the command line): its library entry checks the same way.
    for (const [over, msg] of [
      [{ trainStart: 50_000 }, /training seeds 50000–\d+ include seeds below 100000/],
      [{ valStart: 1 }, /validation seeds 1–.* include seeds below 100000/],
    ] as const)
      await expect(trainEs({ out: join(dir, "es"), ...over })).rejects.toThrow(msg);
    expect(existsSync(join(dir, "es"))).toBe(false);
  }, 120_000);

  it("every run's config.json records the splits", () => {
    const run = new RunFolder(scratchDir("splits-config"));
    run.writeConfig("ppo", resolveRules("penguin"), {});
    const config = JSON.parse(readFileSync(join(run.dir, "config.json"), "utf8")) as {
      splits: Record<string, string>;
    };
    expect(config.splits).toMatchObject({
      reserved: "1–99999 (evaluation only)",
      test: "10001–20000 (played once per shipped model)",
      validation: "100000–999999 (validation and model choice)",
      training: "1000000 up (training and its labels)",
    });
  });
});
