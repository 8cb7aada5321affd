/**
 * Property tests, Penguin family: thousands of seeded random games per preset, every position
 * checked against the independent reference model (see playouts.ts for the list of checks).
 */
import { describe, expect, it } from "vitest";
import { resolveRules, type RuleOverrides } from "../../src/engine/index.js";
import { checkRandomPlay } from "./playouts.js";

const PRESETS = ["penguin", "penguin-relaxed", "opus", "penguin-beak-home"] as const;
// Overrides that exercise every other option against a beak base and wrapped building.
const VARIANTS: [string, RuleOverrides][] = [
  ["penguin", { groupMove: "supermove", emptyColumn: "any", cells: 2 }],
  ["penguin", { groupMove: "supermove", cells: 3 }],
  ["penguin", { groupMove: "single" }],
  ["penguin", { emptyColumn: "none" }],
  ["penguin", { cells: 0 }],
  ["penguin", { build: "alternate-color" }],
];

describe("random play agrees with the reference model (Penguin family)", () => {
  for (const p of PRESETS)
    it(`${p}: 1000 games`, () => {
      const st = checkRandomPlay(resolveRules(p), 1000, 40, 11);
      expect(st.games).toBe(1000);
      // The games really reach the interesting cases.
      expect(st.steps).toBeGreaterThan(5_000);
      expect(st.groupMoves).toBeGreaterThan(0);
      expect(st.emptyColumnMoves).toBeGreaterThan(0);
      expect(st.undos).toBeGreaterThan(0);
    });
  for (const [p, o] of VARIANTS)
    it(`${p} ${JSON.stringify(o)}: 200 games`, () => {
      const st = checkRandomPlay(resolveRules(p, o), 200, 40, 12);
      expect(st.steps).toBeGreaterThan(500);
    });
});
