/**
 * No hang and no unbounded read on hostile files: a FIFO, a device or a huge file where a run
 * keeps its config.json or a dataset its index.json is refused by type and size before it is
 * read; `penguin play` bounds its input lines; `penguin compare` keeps a couple of bits per deal.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdirSync, openSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mkfifo, oneLine, penguin, root, run, tempDir } from "./helpers.js";

const { dir, done } = tempDir("unbounded");
afterAll(done);

/** A folder holding `name` as a FIFO, a link to /dev/zero, or a sparse 200 MB file. */
function folderWith(tag: string, name: string, kind: "fifo" | "zero" | "huge"): string {
  const d = join(dir, `${tag}-${kind}`);
  mkdirSync(d, { recursive: true });
  const p = join(d, name);
  if (kind === "fifo") mkfifo(p);
  else if (kind === "zero") symlinkSync("/dev/zero", p);
  else {
    const fd = openSync(p, "w");
    ftruncateSync(fd, 200 * 1024 * 1024);
    closeSync(fd);
  }
  return d;
}

describe("run and dataset bookkeeping files are checked before they are read", () => {
  it("a FIFO, /dev/zero or a 200 MB file as config.json or index.json: one line, exit 2, no hang", async () => {
    const cases: [string[], RegExp][] = [];
    for (const kind of ["fifo", "zero", "huge"] as const) {
      const want =
        kind === "fifo"
          ? /is a FIFO/
          : kind === "zero"
            ? /is a character device/
            : /larger than 64\.0 MiB/;
      cases.push([["train", "--resume", folderWith("run", "config.json", kind)], want]);
      cases.push([
        ["dataset", "--deals", "4", "--out", folderWith("ds", "index.json", kind)],
        want,
      ]);
      cases.push([
        [
          "train",
          "safety",
          "--data",
          folderWith("data", "index.json", kind),
          "--out",
          join(dir, `s-${kind}`),
        ],
        want,
      ]);
    }
    const ran = await Promise.all(cases.map(([args]) => penguin(args, { timeoutMs: 30_000 })));
    ran.forEach((r, i) => {
      expect(r.signal, cases[i]![0].join(" ")).toBeNull();
      expect(r.code, r.stderr).toBe(2);
      expect(oneLine(r)).toMatch(cases[i]![1]);
    });
  });
});

describe("a network folder is checked the same way", () => {
  it("model.json as a FIFO for the safety and scorer agents: one line, exit 2, no hang", async () => {
    const d = folderWith("model", "model.json", "fifo");
    const runs = await Promise.all(
      ["safety", "scorer"].map((agent) =>
        penguin(["eval", "--agent", agent, "--agent-opt", `model=${d}`, "--deals", "1"], {
          timeoutMs: 30_000,
        }),
      ),
    );
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(2);
      expect(oneLine(r)).toMatch(/network description .*model\.json is a FIFO/);
    }
  });
});

describe("penguin play bounds its input lines", () => {
  it("/dev/zero and a 1 MB line: one short line, exit 2, in small memory", async () => {
    const zero = spawnSync(
      "sh",
      [
        "-c",
        `${process.execPath} --max-old-space-size=64 bin/penguin.js play --seed 1 < /dev/zero`,
      ],
      { cwd: root, encoding: "utf8", timeout: 30_000 },
    );
    expect(zero.status, zero.stderr).toBe(2);
    expect(zero.stderr.trim().split("\n")).toHaveLength(1);
    expect(zero.stderr).toMatch(
      /input line 1 is longer than 10000 characters \(it starts "(\\x00){20}…"\)/,
    );
    const long = await penguin(["play", "--seed", "1"], { input: `${"3a ".repeat(350_000)}\n` });
    expect(long.code).toBe(2);
    expect(oneLine(long).length).toBeLessThan(200);
    // Ordinary piped play is unchanged.
    const ok = await penguin(["play", "--seed", "1"], { input: "?\nq\n" });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/legal moves: .*\n[\s\S]*bye/);
  });
});

describe("penguin compare streams", () => {
  it("two 100,000-row CSVs compare under a 48 MB heap, with the same figures as before", async () => {
    // Seeded pseudo-random outcomes (a linear congruential sequence), deals 1..100000 each.
    const write = (file: string, agent: string, mult: number): void => {
      const rows = ["deal,rules,agent,won,cards_home,moves,ms"];
      let x = 12345;
      for (let d = 1; d <= 100_000; d++) {
        x = (x * mult + 11) % 2147483647;
        const won = x % 3 === 0;
        rows.push(`${d},penguin,${agent},${won},${won ? 52 : 7},100,1.0`);
      }
      writeFileSync(file, `${rows.join("\n")}\n`);
    };
    const a = join(dir, "a.csv");
    const b = join(dir, "b.csv");
    write(a, "alpha", 48271);
    write(b, "beta", 16807);
    const r = await run(
      process.execPath,
      ["--max-old-space-size=48", "bin/penguin.js", "compare", a, b, "--json"],
      { timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr.slice(0, 300)).toBe(0);
    const c = JSON.parse(r.stdout);
    // The same counts worked out here, in the test, row by row.
    const won = (mult: number): boolean[] => {
      const out: boolean[] = [];
      let x = 12345;
      for (let d = 1; d <= 100_000; d++) {
        x = (x * mult + 11) % 2147483647;
        out.push(x % 3 === 0);
      }
      return out;
    };
    const wa = won(48271);
    const wb = won(16807);
    expect(c.deals).toBe(100_000);
    expect(c.a.wins).toBe(wa.filter(Boolean).length);
    expect(c.b.wins).toBe(wb.filter(Boolean).length);
    expect(c.aOnly).toBe(wa.filter((w, i) => w && !wb[i]).length);
    expect(c.bOnly).toBe(wb.filter((w, i) => w && !wa[i]).length);
  });

  it("still refuses files that do not cover the same deals, and a deal twice", async () => {
    const a = join(dir, "c.csv");
    const b = join(dir, "d.csv");
    const head = "deal,rules,agent,won,cards_home,moves,ms\n";
    writeFileSync(
      a,
      `${head}1,penguin,x,true,52,9,1\nms:2,penguin,x,false,3,9,1\nfoo,penguin,x,true,52,9,1\n`,
    );
    writeFileSync(
      b,
      `${head}1,penguin,y,true,52,9,1\nms:3,penguin,y,false,3,9,1\nfoo,penguin,y,true,52,9,1\n`,
    );
    const r = await penguin(["compare", a, b]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/2 deal\(s\) appear in only one of them/);
    writeFileSync(b, `${head}1,penguin,y,true,52,9,1\n1,penguin,y,true,52,9,1\n`);
    expect(oneLine(await penguin(["compare", a, b]))).toMatch(/holds deal 1 \(penguin\) twice/);
  });
});
