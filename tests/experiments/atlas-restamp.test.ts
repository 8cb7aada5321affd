/**
 * scripts/atlas/restamp.ts: a shard file of the old format (a build's source hash as its version,
 * no code column) is converted when its build is listed and its verdicts check out with today's
 * solver; it is left as it was otherwise.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAtlas } from "../../experiments/atlas.js";
import { restampFolder } from "../../scripts/atlas/restamp.js";

const tmp = mkdtempSync(join(tmpdir(), "penguin-restamp-"));
const OLD = "0.1.0+0123456789ab";

/** Today's shard file written back in the old format, stamped with build OLD. */
function toOldFormat(path: string): string {
  const [header, ...lines] = readFileSync(path, "utf8").trimEnd().split("\n");
  const strip = (l: string): string => l.replace(/,[^,]*$/, "");
  const old = [
    strip(header!),
    ...lines.map((l) => strip(l).replace(/,s\d+\+[0-9a-f]{12},/, `,${OLD},`)),
  ];
  writeFileSync(path, `${old.join("\n")}\n`);
  return readFileSync(path, "utf8");
}

describe("restamp", () => {
  it("converts a listed build's shard back to what today's run wrote, and refuses what does not check out", async () => {
    const dir = join(tmp, "a");
    // Penguin deals 61-80: deal 71 is lost.
    const args = ["--quiet", "--rows", "penguin-7", "--seed", "61", "--deals", "20", "--out", dir];
    await runAtlas([...args, "--shard", "0/1"]);
    const folder = join(dir, "shards", "penguin-7");
    const path = join(folder, readdirSync(folder).find((f) => f.endsWith(".csv"))!);
    const today = readFileSync(path, "utf8");
    const old = toOldFormat(path);
    await expect(runAtlas(["--quiet", "--merge", "--out", dir])).rejects.toThrow(/restamp/);

    expect(await restampFolder(dir, ["0.1.0+ffffffffffff"], 5)).toEqual([
      `${path}: left as it was: build ${OLD} is not among --builds`,
    ]);
    expect(readFileSync(path, "utf8")).toBe(old);

    // A verdict today's solver does not give (deal 62 listed lost): refused, the file untouched.
    const tampered = old.replace(/,19,1,0,(\d+),71,/, ",18,2,0,$1,62 71,");
    expect(tampered).not.toBe(old);
    writeFileSync(path, tampered);
    await expect(restampFolder(dir, [OLD], 5)).rejects.toThrow(/deal 62 was lost/);
    expect(readFileSync(path, "utf8")).toBe(tampered);

    writeFileSync(path, old);
    await restampFolder(dir, [OLD], 5);
    // Today's file, but for the build that played it.
    expect(readFileSync(path, "utf8")).toBe(today.replace(/,0\.1\.0\+[0-9a-f]{12}$/gm, `,${OLD}`));
    const r = await runAtlas(["--quiet", "--merge", "--out", dir]);
    expect(r!.totals![0]!.lost).toEqual([71]);
  });
});
