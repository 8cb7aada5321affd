/**
 * Bounded memory on any input: deal ranges are lazy (10^7 deals run under a 256 MB heap),
 * counts above the maximum are refused up front, and oversized or endless inputs (boards,
 * CSVs, devices, FIFOs) are refused with a clear error before they are read.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { closeSync, openSync, ftruncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mkfifo, oneLine, penguin, root, rssMiB, run, sleep, tempDir } from "./helpers.js";

const { dir, done } = tempDir("memory");
afterAll(done);

/** Starts `penguin eval` under a 256 MB heap, lets it run `ms`, samples its memory, stops it. */
async function runCapped(
  args: readonly string[],
  ms: number,
): Promise<{ code: number | null; rss: number; stderr: string; aliveAfter: boolean }> {
  const p = spawn(
    process.execPath,
    ["--max-old-space-size=256", "bin/penguin.js", "eval", ...args],
    { cwd: root },
  );
  let stderr = "";
  p.stderr.on("data", (d) => (stderr += d));
  let exited = false;
  const closed = new Promise<number | null>((r) => p.on("close", (c) => ((exited = true), r(c))));
  let rss = 0;
  for (let t = 0; t < ms && !exited; t += 250) {
    await sleep(250);
    if (!exited) rss = Math.max(rss, rssMiB(p.pid!));
  }
  const aliveAfter = !exited;
  p.kill("SIGTERM");
  return { code: await closed, rss, stderr, aliveAfter };
}

describe("lazy deals", () => {
  it("10^7 seeded deals and 10^8 Microsoft deals run in bounded memory under --max-old-space-size=256", async () => {
    const [seeds, ms] = await Promise.all([
      runCapped(["--agent", "random", "--deals", "10000000"], 4000),
      runCapped(
        ["--agent", "random", "--rules", "freecell", "--ms-from", "1", "--ms-to", "100000000"],
        4000,
      ),
    ]);
    for (const r of [seeds, ms]) {
      // Still playing after seconds (an eager list dies of out-of-memory, exit 134), then stopped by the signal.
      expect(r.aliveAfter, r.stderr).toBe(true);
      expect(r.code).toBe(143);
      expect(r.rss).toBeLessThan(350);
      expect(r.stderr).toMatch(/stopped by SIGTERM: no --out file, nothing kept/);
    }
  });

  it("counts above the maximum are refused up front", async () => {
    const runs = await Promise.all([
      penguin(["eval", "--deals", "1e15"]),
      penguin(["eval", "--deals", "100000001"]),
      penguin(["eval", "--rules", "freecell", "--ms-from", "1", "--ms-to", "200000000"]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2]);
    expect(oneLine(runs[0]!)).toBe(
      "penguin: --deals must be an integer from 1 to 100000000, got 1000000000000000",
    );
    expect(oneLine(runs[1]!)).toMatch(/--deals must be an integer from 1 to 100000000/);
    expect(oneLine(runs[2]!)).toMatch(/at most 100000000 deals per run, got 200000000/);
  });
});

describe("input size caps", () => {
  it("a 200 MB board, /dev/zero and a FIFO as --board are refused without reading them", async () => {
    const big = join(dir, "huge.board");
    const fd = openSync(big, "w");
    ftruncateSync(fd, 200 * 1024 * 1024); // sparse: instant, no disk used
    closeSync(fd);
    const fifo = join(dir, "board-pipe");
    mkfifo(fifo);
    const capped = (board: string) => spawnPenguinCapped(["solve", "--board", board]);
    const runs = await Promise.all([capped(big), capped("/dev/zero"), capped(fifo), capped(dir)]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(oneLine(runs[0]!)).toMatch(
      /board file .*huge\.board is larger than 64\.0 KiB \(200\.0 MiB\)/,
    );
    expect(oneLine(runs[1]!)).toMatch(
      /board file \/dev\/zero is a character device: name a regular file/,
    );
    expect(oneLine(runs[2]!)).toMatch(/is a FIFO \(named pipe\): name a regular file/);
    expect(oneLine(runs[3]!)).toMatch(/is a directory/);
  });

  it("a CSV line longer than 1 MiB (no line breaks: not a CSV) is refused by compare and merge", async () => {
    const junk = join(dir, "junk.shard-0-of-1.csv");
    writeFileSync(junk, `deal,won,${"x".repeat(3 * 1024 * 1024)}`);
    const ok = join(dir, "ok.csv");
    writeFileSync(ok, "deal,rules,agent,won\n1,penguin,random,true\n");
    const runs = await Promise.all([
      penguin(["compare", ok, junk]),
      penguin(["merge", junk, "--out", join(dir, "m.csv")]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2]);
    for (const r of runs)
      expect(oneLine(r)).toMatch(/line 1 is longer than 1048576 bytes: not a CSV of this tool/);
  });
});

/** penguin under a 64 MB heap: reading any of these inputs whole would crash it, not exit 2. */
const spawnPenguinCapped = (args: readonly string[]) =>
  run(process.execPath, ["--max-old-space-size=64", "bin/penguin.js", ...args], {
    timeoutMs: 30_000,
  });
