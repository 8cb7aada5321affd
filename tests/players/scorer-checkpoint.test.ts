/**
 * The scorer checkpoint's checks, which play (readScorer) and training (loadScorer) share: the
 * shipped ES checkpoint reads, and each kind of damage is refused with its one line by both.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readScorer, readScorerCheckpoint } from "../../src/players/scorer/model.js";
import { loadScorer } from "../../src/train/scorer/model.js";

const shipped = join("results", "train-es");
const root = mkdtempSync(join(tmpdir(), "scorer-ckpt-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A copy of the shipped checkpoint, then `damage` applied to it. */
function damaged(name: string, damage: (dir: string) => void): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const f of ["model.json", "weights.bin"])
    copyFileSync(join(shipped, "checkpoint", f), join(dir, f));
  damage(dir);
  return dir;
}

describe("scorer checkpoints", () => {
  it("reads the shipped checkpoint from its run folder, for play and for training alike", async () => {
    const c = readScorerCheckpoint(shipped);
    expect(c.dir).toBe(join(shipped, "checkpoint"));
    expect(readScorer(shipped).config).toEqual(c.config);
    expect((await loadScorer(shipped)).config).toEqual(c.config);
  });

  it.each([
    ["missing", (d: string) => rmSync(join(d, "model.json")), /no trained scorer in/],
    [
      "not-json",
      (d: string) => writeFileSync(join(d, "model.json"), "{ truncated"),
      /model\.json is not valid JSON/,
    ],
    [
      "not-a-scorer",
      (d: string) => writeFileSync(join(d, "model.json"), '{"weightsManifest":[]}'),
      /is not a penguin action-scorer network/,
    ],
    ["no-weights", (d: string) => rmSync(join(d, "weights.bin")), /weights\.bin is missing/],
    [
      "modified",
      (d: string) => writeFileSync(join(d, "weights.bin"), new Uint8Array(16)),
      /weights\.bin does not match its recorded SHA-256/,
    ],
  ] as const)("refuses a checkpoint whose model is %s", async (name, damage, message) => {
    const dir = damaged(name, damage);
    expect(() => readScorer(dir)).toThrow(message);
    await expect(loadScorer(dir)).rejects.toThrow(message);
  });
});
