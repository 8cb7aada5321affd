/**
 * The difficulty atlas (experiments/atlas.ts): real solver verdicts on known deals, shards that
 * merge into exactly what one process writes, a killed shard that resumes, and a merge that
 * refuses missing, unfinished, overlapping or mismatched shards.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAtlas } from "../../experiments/atlas.js";
import { parseRanges, rangesText } from "../../experiments/lib/atlas-shard.js";
import { atlasFiles } from "./fixtures/atlas-files.js";

const root = join(import.meta.dirname, "../..");
const tsx = join(root, "node_modules/.bin/tsx");
const tmp = mkdtempSync(join(tmpdir(), "penguin-atlas-"));

const PLAYERS = ["--deals", "90", "--agent", "solver,greedy"];
const SMALL = ["--rows", "penguin-7,penguin-3", ...PLAYERS];
/** A shard file with its CPU times (the one measured column) blanked. */
const withoutCpu = (text: string): string => text.replace(/^((?:[^,]*,){14})\d+,/gm, "$1,");
const atlas = (args: string[]) => runAtlas(["--quiet", ...args]);

function shardFiles(dir: string, row: string): string[] {
  return readdirSync(join(dir, "shards", row)).filter((f) => f.endsWith(".csv"));
}

describe("the atlas", () => {
  it("finds Penguin's known lost deals among seeds 1-2000 (71, 1295, 1341, 1974) and nothing else", async () => {
    const dir = join(tmp, "known");
    const r = await atlas(["--rows", "penguin-7", "--deals", "2000", "--out", dir]);
    const t = r!.totals![0]!;
    expect([t.n, t.won, t.lost, t.unknown]).toEqual([2000, 1996, [71, 1295, 1341, 1974], []]);
    expect(readFileSync(join(dir, "deals/penguin-7.txt"), "utf8")).toContain(
      "\nlost 71 1295 1341 1974\nunknown\n",
    );
    const summary = readFileSync(join(dir, "summary.csv"), "utf8").split("\n");
    // solvable 1996 of 2000: Wilson 99.49–99.92 %.
    expect(summary[1]).toMatch(
      /^penguin-7,penguin,seed,1,2000,2000,1996,4,0,0\.998000,0\.994869,0\.999222,/,
    );
  });

  it("proves Microsoft FreeCell deal 11982 lost and its neighbours solvable", async () => {
    const dir = join(tmp, "ms");
    const r = await atlas([
      "--rows",
      "freecell-ms",
      "--seed",
      "11980",
      "--deals",
      "5",
      "--out",
      dir,
    ]);
    const t = r!.totals![0]!;
    expect([t.rules, t.deck, t.won, t.lost, t.unknown]).toEqual(["freecell", "ms", 4, [11982], []]);
  });

  it("ranges round-trip", () => {
    const deals = [1, 2, 3, 7, 9, 10, 20];
    expect(rangesText(deals)).toBe("1-3 7 9-10 20");
    expect(parseRanges(rangesText(deals), "x")).toEqual(deals);
  });

  it("three shards merged give what one process writes, byte for byte; a killed shard resumes", async () => {
    const one = join(tmp, "one");
    await atlas([...SMALL, "--out", one]);
    const three = join(tmp, "three");
    for (const i of [2, 0, 1]) await atlas([...SMALL, "--out", three, "--shard", `${i}/3`]);
    // Kill shard 1 of penguin-3's solver in the middle: keep its header and a partial line.
    const dir = join(three, "shards", "penguin-3");
    const f = join(
      dir,
      shardFiles(three, "penguin-3").find(
        (x) => x.startsWith("solver") && x.includes("shard-1-of-3"),
      )!,
    );
    const text = readFileSync(f, "utf8");
    writeFileSync(f, `${text.split("\n")[0]}\npenguin-3,penguin[cells=3],se`);
    await expect(atlas(["--merge", "--out", three])).rejects.toThrow(
      /no finished block|unfinished/,
    );
    await atlas([...SMALL, "--out", three, "--shard", "1/3"]);
    expect(withoutCpu(readFileSync(f, "utf8"))).toBe(withoutCpu(text));
    const merged = await atlas(["--merge", "--out", three]);
    expect(atlasFiles(three)).toEqual(atlasFiles(one));
    // Shards kept elsewhere: the atlas is written where --out says, the same files.
    const small = join(tmp, "small");
    await atlas(["--merge", "--shards", three, "--out", small]);
    expect(atlasFiles(small)).toEqual(atlasFiles(one));
    expect(readdirSync(small)).not.toContain("shards");
    // The ledger names every shard with its budget, verdict version and the build that played it.
    const ledger = readFileSync(join(three, "shards.csv"), "utf8").trim().split("\n");
    expect(ledger).toHaveLength(1 + 2 * 2 * 3);
    expect(ledger[1]).toMatch(
      /^penguin-7,solver\(maxStates=1000000\),1,90,0\/3,30,1000000,s\d+\+[0-9a-f]{12},0\.1\.0\+[0-9a-f]{12},\d/,
    );
    expect(merged!.totals!.map((t) => t.n)).toEqual([90, 90, 90, 90]);
  });

  it("refuses a missing, an overlapping, a gapped and a mismatched shard, and a resume with other settings", async () => {
    const base = join(tmp, "base");
    for (const i of [0, 1])
      await atlas(["--rows", "penguin-7", ...PLAYERS, "--out", base, "--shard", `${i}/2`]);
    const copy = (name: string): string => {
      const d = join(tmp, name);
      cpSync(base, d, { recursive: true });
      return d;
    };
    const missing = copy("missing");
    const s7 = join(missing, "shards", "penguin-7");
    rmSync(
      join(
        s7,
        shardFiles(missing, "penguin-7").find(
          (x) => x.startsWith("solver") && x.includes("shard-1-of-2"),
        )!,
      ),
    );
    await expect(atlas(["--merge", "--out", missing])).rejects.toThrow(/shard 1\/2 is missing/);

    const overlap = copy("overlap");
    await atlas([
      "--rows",
      "penguin-7",
      "--deals",
      "30",
      "--seed",
      "61",
      "--out",
      overlap,
      "--shard",
      "0/1",
    ]);
    await expect(atlas(["--merge", "--out", overlap])).rejects.toThrow(/overlap/);

    const gap = copy("gap");
    await atlas([
      "--rows",
      "penguin-7",
      "--deals",
      "10",
      "--seed",
      "101",
      "--out",
      gap,
      "--shard",
      "0/1",
    ]);
    await expect(atlas(["--merge", "--out", gap])).rejects.toThrow(/no shard has deals 91-100/);
    // Growing the range by the deals right after it merges.
    await atlas([
      "--rows",
      "penguin-7",
      "--deals",
      "10",
      "--seed",
      "91",
      "--out",
      gap,
      "--shard",
      "0/1",
    ]);
    const grown = await atlas(["--merge", "--out", gap]);
    expect(grown!.totals!.find((t) => t.player.startsWith("solver"))!.n).toBe(110);

    const mismatch = copy("mismatch");
    const m7 = join(mismatch, "shards", "penguin-7");
    const victim = join(
      m7,
      shardFiles(mismatch, "penguin-7").find(
        (x) => x.startsWith("solver") && x.includes("shard-1-of-2"),
      )!,
    );
    const played = readFileSync(victim, "utf8");
    // Another build that searches alike (a refactor): its blocks merge, the ledger names both builds.
    writeFileSync(victim, played.replace(/,0\.1\.0\+[0-9a-f]{12}$/gm, ",0.1.0+000000000000"));
    await atlas(["--merge", "--out", mismatch]);
    const builds = readFileSync(join(mismatch, "shards.csv"), "utf8");
    expect(builds).toMatch(/,0\.1\.0\+000000000000,/);
    expect(builds).toMatch(/,0\.1\.0\+(?!000000000000)[0-9a-f]{12},/);
    // Another verdict version (a search or rule that may decide otherwise): refused.
    writeFileSync(victim, played.replace(/,s(\d+)\+[0-9a-f]{12},/g, ",s$1+000000000000,"));
    await expect(atlas(["--merge", "--out", mismatch])).rejects.toThrow(/verdict version/);

    // Another budget on an existing shard file: refused, the file untouched.
    const before = readFileSync(
      join(
        base,
        "shards",
        "penguin-7",
        shardFiles(base, "penguin-7").find(
          (x) => x.startsWith("solver") && x.includes("shard-0-of-2"),
        )!,
      ),
      "utf8",
    );
    await expect(
      atlas([
        "--rows",
        "penguin-7",
        ...PLAYERS,
        "--out",
        base,
        "--shard",
        "0/2",
        "--max-states",
        "5000",
      ]),
    ).rejects.toThrow(/other settings/);
    expect(
      readFileSync(
        join(
          base,
          "shards",
          "penguin-7",
          shardFiles(base, "penguin-7").find(
            (x) => x.startsWith("solver") && x.includes("shard-0-of-2"),
          )!,
        ),
        "utf8",
      ),
    ).toBe(before);
    renameSync(join(base, "shards"), join(base, "gone"));
    await expect(atlas(["--merge", "--out", base])).rejects.toThrow(/does not exist/);
  });

  it("bad input: one line, exit 2", () => {
    for (const args of [
      ["--rows", "penguin-9"],
      ["--shard", "4/4"],
      ["--merge", "--shard", "0/2"],
      ["--shards", join(tmp, "three")],
    ]) {
      const r = spawnSync(tsx, ["experiments/atlas.ts", ...args, "--out", join(tmp, "bad")], {
        cwd: root,
        encoding: "utf8",
      });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("writes its tables into a page between the markers, leaving the rest; a page without them is refused", async () => {
    const dir = join(tmp, "table");
    await atlas(["--rows", "penguin-7", "--deals", "40", "--agent", "solver,greedy", "--out", dir]);
    const page = join(dir, "page.md");
    const before =
      "# Page\n\ntext before\n\n<!-- atlas tables -->\nold\n<!-- /atlas tables -->\n\ntext after\n";
    writeFileSync(page, before);
    const run = (p: string) =>
      spawnSync(tsx, ["scripts/atlas/table.ts", dir, p], { cwd: root, encoding: "utf8" });
    expect(run(page).status).toBe(0);
    const text = readFileSync(page, "utf8");
    expect(text.startsWith("# Page\n\ntext before\n\n<!-- atlas tables -->\n\n| row ")).toBe(true);
    expect(text.endsWith("\n<!-- /atlas tables -->\n\ntext after\n")).toBe(true);
    // 40 deals, all solvable (Penguin's first lost deal is 71): 100 % with Wilson's 91.24 % floor.
    expect(text).toMatch(
      /\| penguin-7 +\| `penguin` +\| 1–40 +\| 40 +\| \*\*100\.000 %\*\* \[91\.2\d\d–100\.000\]/,
    );
    expect(text).toMatch(/\| penguin-7 +\| \*\*\d+\.\d\d\*\* \[[\d.]+–[\d.]+\] \([\d.]+\) \|/);
    const bare = join(dir, "bare.md");
    writeFileSync(bare, "no markers\n");
    const r = run(bare);
    expect([r.status, r.stderr.trim().split("\n").length]).toEqual([2, 1]);
    expect(readFileSync(bare, "utf8")).toBe("no markers\n");
  });

  it("scripts/atlas/local.sh with two lanes plays each shard once, and merges to what one lane gives", () => {
    const dir = join(tmp, "lanes");
    const plan = join(tmp, "lanes-plan.txt");
    writeFileSync(plan, "# two runs\npenguin-7 1 60 3\npenguin-3 1 60 3 random\n");
    const play = (lanes: string, out: string) =>
      spawnSync("bash", ["scripts/atlas/local.sh", plan, out], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, ATLAS_LANES: lanes },
      });
    const two = play("2", join(dir, "two"));
    expect(two.status).toBe(0);
    const done = readFileSync(join(dir, "two", "done.txt"), "utf8")
      .trim()
      .split("\n")
      .sort();
    expect(done).toEqual([
      "penguin-3 1 60 0/3 random",
      "penguin-3 1 60 1/3 random",
      "penguin-3 1 60 2/3 random",
      "penguin-7 1 60 0/3 solver",
      "penguin-7 1 60 1/3 solver",
      "penguin-7 1 60 2/3 solver",
    ]);
    // Each shard started once: one "<time> <line>" per shard in the lanes' output.
    expect(two.stdout.trim().split("\n")).toHaveLength(6);
    expect(play("1", join(dir, "one")).status).toBe(0);
    for (const d of ["two", "one"])
      expect(
        spawnSync(
          tsx,
          [
            "experiments/atlas.ts",
            "--merge",
            "--quiet",
            "--shards",
            join(dir, d),
            "--out",
            join(dir, `m-${d}`),
          ],
          {
            cwd: root,
          },
        ).status,
      ).toBe(0);
    for (const f of ["summary.csv", "players.csv", "deals/penguin-7.txt"])
      expect(readFileSync(join(dir, "m-two", f), "utf8")).toBe(
        readFileSync(join(dir, "m-one", f), "utf8"),
      );
    const bad = play("0", join(dir, "bad"));
    expect([bad.status, bad.stderr.trim()]).toEqual([
      2,
      "ATLAS_LANES must be a whole number from 1 to 99, got '0'",
    ]);
  });
});
