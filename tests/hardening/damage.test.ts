/**
 * Nothing damaged: a dataset killed in its first shard resumes; one writer per file even through
 * a hard link, and per dataset or run folder; train never writes into a folder of other files;
 * eval --html never replaces a page it did not write; temp files of killed runs are cleaned.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { removeStaleTemps } from "../../src/util/output.js";
import { oneLine, penguin, root, sleep, tempDir, waitFor } from "./helpers.js";

const { dir, done } = tempDir("damage");
afterAll(done);

/** The pid of a process that has exited (no live process has it now). */
function deadPid(): number {
  const r = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(r.stdout.trim());
}

const DATASET = [
  "dataset",
  "--deals",
  "2",
  "--shard-deals",
  "1",
  "--max-states",
  "20000",
  "--quiet",
];

describe("datasets", () => {
  it("a dataset killed during its first shard resumes, and its stale shard folders are removed", async () => {
    const out = join(dir, "ds-kill");
    const p = spawn(process.execPath, ["bin/penguin.js", ...DATASET, "--out", out], { cwd: root });
    const closed = new Promise((r) => p.on("close", r));
    expect(await waitFor(() => existsSync(join(out, "index.json")), 30_000)).toBe(true);
    p.kill("SIGKILL");
    await closed;
    expect(JSON.parse(readFileSync(join(out, "index.json"), "utf8")).shards).toEqual([]);
    const stale = join(out, `shard-00001.tmp-${deadPid()}`);
    mkdirSync(stale);
    const again = await penguin([...DATASET, "--out", out], { timeoutMs: 60_000 });
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["index.json", "shard-00000", "shard-00001"]);
  });

  it("a second dataset on the same folder is refused while the first runs; SIGINT exits 130", async () => {
    const out = join(dir, "ds-two");
    const args = [
      "dataset",
      "--deals",
      "400",
      "--shard-deals",
      "2",
      "--max-states",
      "20000",
      "--out",
      out,
    ];
    const p = spawn(process.execPath, ["bin/penguin.js", ...args], { cwd: root });
    let stdout = "";
    p.stdout.on("data", (d) => (stdout += d));
    const closed = new Promise<number | null>((r) => p.on("close", (c) => r(c)));
    expect(await waitFor(() => existsSync(join(out, ".lock")), 30_000)).toBe(true);
    const second = await penguin(args);
    expect(second.code).toBe(2);
    expect(oneLine(second)).toMatch(/is being written by process \d+/);
    p.kill("SIGINT");
    expect(await closed).toBe(130);
    expect(stdout).toMatch(/stopped, run the same command to continue/);
    expect(existsSync(join(out, ".lock"))).toBe(false);
  });
});

describe("one run per training folder", () => {
  it("train --resume on a run another live process holds is refused, the folder untouched", async () => {
    const run = join(dir, "held-run");
    mkdirSync(run);
    writeFileSync(join(run, "config.json"), '{"algo":"ppo"}\n');
    // This test's own process plays the live holder.
    writeFileSync(join(run, ".lock"), `${process.pid} ${hostname()}\n`);
    const r = await penguin(["train", "--resume", run]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(
      /held-run is being written by process \d+ on .*wait for it to finish/,
    );
    expect(readdirSync(run).sort()).toEqual([".lock", "config.json"]);
  });
});

describe("one writer per file, whatever its path", () => {
  it("two evals through hard links of one CSV: the second is refused, the file stays whole", async () => {
    const a = join(dir, "a.csv");
    const b = join(dir, "b.csv");
    const args = ["eval", "--agent", "random", "--deals", "1000000", "--no-timing"];
    expect(
      (await penguin(["eval", "--agent", "random", "--deals", "2", "--no-timing", "--out", a]))
        .code,
    ).toBe(0);
    linkSync(a, b);
    const first = spawn(process.execPath, ["bin/penguin.js", ...args, "--out", a], { cwd: root });
    const closed = new Promise((r) => first.on("close", r));
    expect(await waitFor(() => readFileSync(a, "utf8").split("\n").length > 20, 30_000)).toBe(true);
    const second = await penguin([...args, "--out", b]);
    expect(second.code).toBe(2);
    expect(oneLine(second)).toMatch(/b\.csv is being written by process \d+/);
    first.kill("SIGINT");
    await closed;
    const lines = readFileSync(a, "utf8").trim().split("\n");
    expect(lines.every((l) => l.split(",").length === 7)).toBe(true);
  });
});

describe("train and eval --html never replace a user's files", () => {
  it("train --out into a folder of other files is refused, the files untouched", async () => {
    const u = join(dir, "U");
    mkdirSync(u);
    writeFileSync(join(u, "metrics.csv"), "a,b\n");
    const r = await penguin(["train", "ppo", "--out", u]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/exists and is not a run folder .*metrics\.csv/);
    expect(readFileSync(join(u, "metrics.csv"), "utf8")).toBe("a,b\n");
    expect(readdirSync(u)).toEqual(["metrics.csv"]);
  });

  it("eval --html refuses to replace a 1.html it did not write, and replaces its own", async () => {
    const h = join(dir, "html");
    mkdirSync(h);
    writeFileSync(join(h, "1.html"), "my notes\n");
    const args = ["eval", "--agent", "random", "--deals", "1", "--no-timing", "--html", h];
    const r = await penguin(args);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/1\.html exists and was not written by penguin eval --html/);
    expect(readFileSync(join(h, "1.html"), "utf8")).toBe("my notes\n");
    const fresh = join(dir, "html2");
    const mine = args.slice(0, -1).concat(fresh);
    expect((await penguin(mine)).code).toBe(0);
    expect((await penguin(mine)).code).toBe(0);
    expect(readFileSync(join(fresh, "1.html"), "utf8")).toMatch(/^<!doctype html>/);
  });
});

describe("temp files of killed runs", () => {
  it("merge removes its stale out.PID.N.tmp; live or foreign names are kept", async () => {
    const part = join(dir, "part.csv");
    const e = await penguin([
      "eval",
      "--agent",
      "random",
      "--deals",
      "3",
      "--no-timing",
      "--out",
      part,
    ]);
    expect(e.code).toBe(0);
    const m = join(dir, "m.csv");
    const pid = deadPid();
    writeFileSync(`${m}.${pid}.1.tmp`, "x".repeat(1000));
    writeFileSync(`${m}.${process.pid}.1.tmp`, "live");
    writeFileSync(join(dir, "other.1.2.tmp"), "not ours");
    const r = await penguin(["merge", part, "--out", m]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(`${m}.${pid}.1.tmp`)).toBe(false);
    expect(existsSync(`${m}.${process.pid}.1.tmp`)).toBe(true);
    expect(existsSync(join(dir, "other.1.2.tmp"))).toBe(true);
  });

  it("checkpoint.tmp-PID/ and shard-N.tmp-PID/ of a dead process are removed, a live one's kept", () => {
    const run = join(dir, "run-tmp");
    const pid = deadPid();
    for (const n of [
      `checkpoint.tmp-${pid}`,
      `shard-00003.tmp-${pid}`,
      `checkpoint.tmp-${process.pid}`,
    ])
      mkdirSync(join(run, n), { recursive: true });
    writeFileSync(join(run, `config.json.${pid}.4.tmp`), "{");
    expect(removeStaleTemps(run).sort()).toEqual(
      [`checkpoint.tmp-${pid}`, `config.json.${pid}.4.tmp`, `shard-00003.tmp-${pid}`].sort(),
    );
    expect(readdirSync(run)).toEqual([`checkpoint.tmp-${process.pid}`]);
  });
});

void sleep;
