import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initBackend } from "../../src/train/backend.js";
import { train } from "../../src/train/ppo/train.js";
import { resume as resumeAny } from "../../src/train/trainers.js";
import { METRIC_COLUMNS, TIMING_COLUMNS } from "../../src/train/run.js";
import { scratchDir, tinyOptions } from "./helpers.js";

function weightsOf(run: string): Buffer {
  return readFileSync(join(run, "checkpoint", "weights.bin"));
}

/** metrics.csv without the columns that measure the machine's speed. */
function metricsSansTiming(run: string): string[] {
  const drop = new Set(TIMING_COLUMNS.map((c) => METRIC_COLUMNS.indexOf(c)));
  return readFileSync(join(run, "metrics.csv"), "utf8")
    .trim()
    .split("\n")
    .map((l) =>
      l
        .split(",")
        .filter((_, i) => !drop.has(i))
        .join(","),
    );
}

describe("training runs", () => {
  it("a resumed PPO run ends bit-identical to an uninterrupted one", async () => {
    await initBackend();
    const base = scratchDir("ppo-resume");
    const opts = (out: string, over = {}) => tinyOptions(out, { evalEvery: 2, ...over });
    const straight = join(base, "straight");
    const killed = join(base, "killed");
    const r = await train(opts(straight), straight, { skipFinalEval: true, quiet: true });
    expect(r.stopped).toBe(false);
    await train(opts(killed, { stopAfterUpdates: 1 }), killed, {
      skipFinalEval: true,
      quiet: true,
    });
    // The one resume path (penguin train --resume): config.json names the algorithm.
    const summary = await resumeAny(killed);
    expect(summary?.games).toBe(6);
    expect(weightsOf(killed).equals(weightsOf(straight))).toBe(true);
    const rows = metricsSansTiming(straight);
    expect(rows.length).toBe(4); // header + 3 updates
    expect(metricsSansTiming(killed)).toEqual(rows);
    for (const row of rows.slice(1)) expect(row).toMatch(/^ppo,/);
  });
});
