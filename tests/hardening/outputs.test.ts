/**
 * Outputs never damage what they replace: regular files are replaced by rename, symlinks are
 * followed, devices / FIFOs / directories are refused (exit 2, one line, a reason) or, where a
 * stream makes sense (merge), written directly. A FIFO never hangs a run.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { writeOutput } from "../../src/util/output.js";
import { UsageError } from "../../src/errors.js";
import { mkfifo, oneLine, penguin, script, tempDir } from "./helpers.js";

const { dir, done } = tempDir("outputs");
afterAll(done);

const shard = (name: string, rows: string): string => {
  const p = join(dir, name);
  writeFileSync(p, `deal,player\n${rows}`);
  return p;
};

describe("penguin eval --out", () => {
  it("follows a symlink and writes its target; the link stays a link", async () => {
    const target = join(dir, "real.csv");
    const link = join(dir, "link.csv");
    symlinkSync("real.csv", link);
    const r = await penguin([
      "eval",
      "--agent",
      "random",
      "--deals",
      "3",
      "--no-timing",
      "--out",
      link,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe("real.csv");
    expect(readFileSync(target, "utf8").split("\n")).toHaveLength(5); // header, 3 rows, final newline
    // Resuming through the link reads the target back.
    const again = await penguin([
      "eval",
      "--agent",
      "random",
      "--deals",
      "4",
      "--no-timing",
      "--out",
      link,
    ]);
    expect(again.stdout).toMatch(/3 deals read back/);
    expect(readFileSync(target, "utf8").trim().split("\n")).toHaveLength(5);
  });

  it("refuses character devices, FIFOs and directories with exit 2 and a reason, touching nothing", async () => {
    const fifo = join(dir, "pipe");
    mkfifo(fifo);
    const cases: [string, RegExp][] = [
      [
        "/dev/null",
        /\/dev\/null is a character device: this output is read back to resume a run, so it must be a regular file/,
      ],
      ["/dev/full", /\/dev\/full is a character device/],
      [fifo, /is a FIFO \(named pipe\)/],
      [dir, /is a directory: name a file inside it/],
    ];
    // A FIFO must be refused without waiting for a reader: the time limit turns a hang into a failure.
    const runs = await Promise.all(
      cases.map(([out]) =>
        penguin(["eval", "--agent", "random", "--deals", "2", "--out", out], { timeoutMs: 30_000 }),
      ),
    );
    for (const [i, [, msg]] of cases.entries()) {
      expect(runs[i]!.code, runs[i]!.stderr).toBe(2);
      expect(oneLine(runs[i]!)).toMatch(msg);
    }
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp") || f.endsWith(".lock"))).toEqual([]);
  });

  it("an experiment's --out refuses a device the same way", async () => {
    const r = await script("tests/experiments/fixtures/fake-experiment.ts", [
      "--quiet",
      "--deals",
      "2",
      "--out",
      "/dev/null",
    ]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/\/dev\/null is a character device/);
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
  });
});

describe("penguin merge --out and inputs", () => {
  const a = shard("m.shard-0-of-2.csv", "1,x\n2,x\n");
  const b = shard("m.shard-1-of-2.csv", "3,x\n");
  const merged = "deal,player\n1,x\n2,x\n3,x\n";

  it("writes a device as a stream (/dev/stdout), and a symlink's target by rename", async () => {
    const r = await penguin(["merge", a, b, "--out", "/dev/stdout"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith(merged)).toBe(true);
    const target = join(dir, "merged-target.csv");
    writeFileSync(target, "old\n");
    const link = join(dir, "merged-link.csv");
    symlinkSync(target, link);
    const inodeBefore = statSync(target).ino;
    const l = await penguin(["merge", a, b, "--out", link]);
    expect(l.code, l.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe(merged);
    // Replaced by rename: a new inode, never rewritten in place.
    expect(statSync(target).ino).not.toBe(inodeBefore);
  });

  it("refuses a FIFO nobody reads, a directory as --out and a directory as an input: exit 2, one line", async () => {
    const fifo = join(dir, "merge-pipe");
    mkfifo(fifo);
    const sub = join(dir, "sub");
    mkdirSync(sub);
    const runs = await Promise.all([
      penguin(["merge", a, b, "--out", fifo], { timeoutMs: 30_000 }),
      penguin(["merge", a, b, "--out", sub]),
      penguin(["merge", a, sub, "--out", join(dir, "never.csv")]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2]);
    expect(oneLine(runs[0]!)).toMatch(/is a FIFO that no process is reading/);
    expect(oneLine(runs[1]!)).toMatch(/is a directory: name a file inside it/);
    expect(oneLine(runs[2]!)).toMatch(/merge input .*sub is a directory: name a regular file/);
    expect(existsSync(join(dir, "never.csv"))).toBe(false);
  });
});

describe("writeOutput (library)", () => {
  it("follows a dangling link chain to create its target, and writes a FIFO that has a reader", async () => {
    const end = join(dir, "chain-end.txt");
    symlinkSync(end, join(dir, "chain-2"));
    symlinkSync(join(dir, "chain-2"), join(dir, "chain-1"));
    writeOutput(join(dir, "chain-1"), "hello\n");
    expect(readFileSync(end, "utf8")).toBe("hello\n");
    expect(lstatSync(join(dir, "chain-1")).isSymbolicLink()).toBe(true);

    const fifo = join(dir, "lib-pipe");
    mkfifo(fifo);
    expect(() => writeOutput(fifo, "nobody\n")).toThrow(UsageError);
    const got = new Promise<string>((resolve) => {
      let text = "";
      createReadStream(fifo)
        .on("data", (d) => (text += d))
        .on("end", () => resolve(text));
    });
    // The reader's open is asynchronous: retry until it is there.
    for (let i = 0; i < 100; i++) {
      try {
        writeOutput(fifo, "streamed\n");
        break;
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(await got).toBe("streamed\n");
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
});
