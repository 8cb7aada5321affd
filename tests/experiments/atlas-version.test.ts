/**
 * The atlas's verdict version (experiments/lib/atlas-version.ts): the rules walk of every row is
 * pinned under VERDICT_SEMANTICS, so a change to the rules fails here until that number is bumped
 * (old shards then stop merging); the probe follows what the solver searches, not the source text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROW_NAMES } from "../../experiments/lib/atlas-rows.js";
import {
  rulesWalk,
  VERDICT_SEMANTICS,
  verdictVersion,
} from "../../experiments/lib/atlas-version.js";

const pins = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/atlas-semantics.json"), "utf8"),
) as { semantics: number; walks: Record<string, string> };

const solver = (maxStates: number) => ({ kind: "solver", maxStates }) as const;

describe("the atlas's verdict version", () => {
  it("every row's rules walk is the one pinned under today's VERDICT_SEMANTICS", () => {
    expect(
      pins.semantics,
      "VERDICT_SEMANTICS was bumped: rewrite the pins with `npx tsx scripts/atlas/semantics-pins.ts`",
    ).toBe(VERDICT_SEMANTICS);
    const changed = ROW_NAMES.filter((r) => rulesWalk(r) !== pins.walks[r]);
    expect(
      changed,
      "what these rows' rules allow or do changed: bump VERDICT_SEMANTICS in experiments/lib/atlas-version.ts, then rewrite the pins (`npx tsx scripts/atlas/semantics-pins.ts`)",
    ).toEqual([]);
  });

  it("the walk sees the rules: rows that differ in one rule walk differently", () => {
    const walks = new Set(ROW_NAMES.map(rulesWalk));
    expect(walks.size).toBe(ROW_NAMES.length);
  });

  it("the probe repeats, and changes with the budget (what the search may do) and the row", async () => {
    const v = await verdictVersion("penguin-3", "solver", solver(1_000_000));
    expect(v).toMatch(new RegExp(`^s${VERDICT_SEMANTICS}\\+[0-9a-f]{12}$`));
    expect(await verdictVersion("penguin-3", "solver", solver(1_000_000))).toBe(v);
    // With 2,000 positions some probe deals end unknown and the rest search the same: another version.
    expect(await verdictVersion("penguin-3", "solver", solver(2_000))).not.toBe(v);
    expect(await verdictVersion("penguin-2", "solver", solver(1_000_000))).not.toBe(v);
  });
});
