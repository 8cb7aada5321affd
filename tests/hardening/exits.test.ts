/**
 * Wrong errors and exit codes: a full disk names the file, releases the lock and keeps the
 * output resumable; a read-only folder or an --out that is not a folder is one line, exit 2; a
 * closed pipe ends quietly; conflicting or impossible options are refused; signals exit 130.
 * The full disk and the read-only folder are tmpfs mounts: skipped, saying why, where the
 * machine does not allow mounting.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { mkfifo, oneLine, penguin, root, script, tempDir } from "./helpers.js";

const { dir, done } = tempDir("exits");

/** A tmpfs at `path` with `options`, or the reason it could not be mounted. */
function mountTmpfs(path: string, options: string): string | undefined {
  mkdirSync(path, { recursive: true });
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", path], { encoding: "utf8" });
  return r.status === 0
    ? undefined
    : `mount -t tmpfs failed: ${(r.stderr || r.error?.message || "").trim()}`;
}
const full = join(dir, "full");
const ro = join(dir, "ro");
const fullWhy = mountTmpfs(full, "size=48k");
const roWhy = mountTmpfs(ro, "ro,size=16k");
afterAll(() => {
  for (const [p, why] of [
    [full, fullWhy],
    [ro, roWhy],
  ] as const)
    if (!why) spawnSync("umount", [p]);
  done();
});
if (fullWhy) console.log(`skipping the full-disk tests: ${fullWhy}`);
if (roWhy) console.log(`skipping the read-only folder tests: ${roWhy}`);

describe.skipIf(fullWhy !== undefined)("a full disk", () => {
  it("eval: exit 1, one line naming the file; the lock is gone, the rows kept whole, a rerun resumes", async () => {
    const out = join(full, "x.csv");
    const args = ["eval", "--agent", "random", "--deals", "5000", "--no-timing", "--out", out];
    const r = await penguin(args);
    expect(r.code).toBe(1);
    expect(oneLine(r)).toMatch(
      /cannot write .*x\.csv: ENOSPC \(no space left on device\); the complete rows written before are kept/,
    );
    expect(existsSync(`${out}.lock`)).toBe(false);
    const text = readFileSync(out, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const rows = text.trim().split("\n");
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.every((l) => l.split(",").length === 7)).toBe(true);
    // At once, not "being written by another process"; the rows so far are taken as done.
    const again = await penguin(args);
    expect(again.code).toBe(1);
    expect(oneLine(again)).toMatch(/ENOSPC/);
  });

  it("merge: exit 1 naming the output; no temp file and no lock left", async () => {
    const part = join(dir, "part.csv");
    expect(
      (
        await penguin([
          "eval",
          "--agent",
          "random",
          "--deals",
          "3000",
          "--no-timing",
          "--out",
          part,
        ])
      ).code,
    ).toBe(0);
    const m = join(full, "m.csv");
    const r = await penguin(["merge", part, "--out", m]);
    expect(r.code).toBe(1);
    expect(oneLine(r)).toMatch(/cannot write .*m\.csv: ENOSPC.*nothing was replaced/);
    expect(readdirSync(full).filter((n) => n.startsWith("m.csv"))).toEqual([]);
  });
});

describe.skipIf(roWhy !== undefined)("a read-only folder", () => {
  it("dataset --out, train --out and eval --html: one line, exit 2", async () => {
    const runs = await Promise.all([
      penguin(["dataset", "--deals", "2", "--out", join(ro, "ds")]),
      penguin(["train", "ppo", "--out", join(ro, "tr")]),
      penguin(["eval", "--agent", "random", "--deals", "1", "--html", join(ro, "h")]),
    ]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(2);
      expect(oneLine(r)).toMatch(/cannot create --(out|html) .*: EROFS \(read-only file system\)/);
    }
  });
});

describe("outputs that are not folders, closed pipes, conflicting options", () => {
  it("train --out naming a file, a FIFO or /dev/zero: one line, exit 2", async () => {
    const file = join(dir, "afile");
    writeFileSync(file, "x");
    const fifo = join(dir, "afifo");
    mkfifo(fifo);
    const runs = await Promise.all(
      [file, fifo, "/dev/zero"].map((p) => penguin(["train", "ppo", "--out", p])),
    );
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2]);
    expect(oneLine(runs[0]!)).toMatch(/--out .*afile is a file: name a folder/);
    expect(oneLine(runs[1]!)).toMatch(/is a FIFO \(named pipe\): name a folder/);
    expect(oneLine(runs[2]!)).toMatch(/is a character device: name a folder/);
    expect(readFileSync(file, "utf8")).toBe("x");
  });

  it("a closed output pipe ends solve, eval and play quietly (exit 141, nothing on stderr)", () => {
    const node = process.execPath;
    // A reader that closes its end of the pipe at once (as head does once it has its line).
    const closed = "{ exec 0<&-; sleep 3; }";
    for (const cmd of [
      `${node} bin/penguin.js solve --seed 1 | ${closed}`,
      `${node} bin/penguin.js eval --agent random --deals 300 | ${closed}`,
      `printf '?\\n?\\n?\\n' | ${node} bin/penguin.js play --seed 1 | ${closed}`,
    ]) {
      const r = spawnSync("bash", ["-c", `${cmd}; echo "\${PIPESTATUS[@]}" >&2`], {
        cwd: root,
        encoding: "utf8",
        timeout: 60_000,
      });
      const codes = r.stderr.trim().split("\n").pop()!.split(" ");
      expect(r.stderr.trim().split("\n"), cmd).toHaveLength(1);
      expect(codes).toContain("141");
    }
  });

  it("train ppo --algo es is refused; flippers --report on a missing file is refused and creates nothing", async () => {
    const t = await penguin(["train", "ppo", "--algo", "es", "--out", join(dir, "two")]);
    expect(t.code).toBe(2);
    expect(oneLine(t)).toMatch(/the algorithm is named twice \(ppo and es\)/);
    expect(existsSync(join(dir, "two"))).toBe(false);
    const out = join(dir, "nope.csv");
    const f = await script("experiments/flippers.ts", ["--report", "--out", out]);
    expect(f.code).toBe(2);
    expect(oneLine(f)).toMatch(
      /--report summarizes an existing CSV, and .*nope\.csv does not exist/,
    );
    expect(readdirSync(dir).filter((n) => n.startsWith("nope"))).toEqual([]);
  });

  it("an integer option past 2^53 is quoted exactly as typed; --workers 256 warns and runs", async () => {
    const r = await penguin(["deal", "--ms", "9007199254740993"]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(
      /--ms 9007199254740993 is beyond the integers a number holds exactly/,
    );
    const w = await penguin(["eval", "--agent", "random", "--deals", "600", "--workers", "256"]);
    expect(w.code).toBe(0);
    const cpus = availableParallelism();
    if (256 > 2 * cpus)
      expect(w.stderr.trim()).toBe(
        `eval: warning: 256 workers asked on ${cpus} CPUs; using ${2 * cpus} (at most twice the CPUs)`,
      );
  });
});

describe("penguin web", () => {
  it("an unresolvable --host is one line, exit 2", async () => {
    const r = await penguin(["web", "--host", "no.such.host.invalid", "--port", "0"]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(
      /--host no\.such\.host\.invalid is not a name or address this machine can resolve/,
    );
  });

  it("--host 0.0.0.0 warns; a repeated query parameter is refused", async () => {
    const p = spawn(
      process.execPath,
      ["bin/penguin.js", "web", "--host", "0.0.0.0", "--port", "0"],
      {
        cwd: root,
      },
    );
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    const closed = new Promise((r) => p.on("close", r));
    for (let t = 0; t < 200 && !/open http/.test(stdout); t++)
      await new Promise((r) => setTimeout(r, 50));
    const port = Number(/:(\d+)\//.exec(stdout)![1]);
    expect(stderr).toMatch(/warning: --host 0\.0\.0\.0 serves the page to other machines/);
    const get = (path: string): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        request({ host: "127.0.0.1", port, path }, (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        })
          .on("error", reject)
          .end();
      });
    const twice = await get("/api/deal?seed=1&seed=2");
    expect(twice.status).toBe(400);
    expect(twice.body).toMatch(/query parameter \\"seed\\" is given more than once/);
    expect((await get("/api/deal?seed=1")).status).toBe(200);
    p.kill("SIGTERM");
    await closed;
  });
});
