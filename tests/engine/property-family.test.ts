/**
 * Property tests, FreeCell family (ace base): thousands of seeded random games per preset, every
 * position checked against the independent reference model (see playouts.ts for the checks).
 */
import { describe, expect, it } from "vitest";
import { resolveRules, type RuleOverrides } from "../../src/engine/index.js";
import { checkRandomPlay } from "./playouts.js";

const PRESETS = ["bakers-game", "kings-only-bakers-game", "freecell", "eight-off", "seahaven-towers"] as const;
const VARIANTS: [string, RuleOverrides][] = [
  ["freecell", { groupMove: "unlimited" }],
  ["freecell", { groupMove: "single", cells: 2 }],
  ["freecell", { emptyColumn: "below-base", cells: 1 }],
  ["bakers-game", { cells: 0 }],
  ["seahaven-towers", { emptyColumn: "any" }],
];

describe("random play agrees with the reference model (FreeCell family)", () => {
  for (const p of PRESETS)
    it(`${p}: 1000 games`, () => {
      const st = checkRandomPlay(resolveRules(p), 1000, 40, 21);
      expect(st.games).toBe(1000);
      expect(st.steps).toBeGreaterThan(5_000);
      expect(st.groupMoves).toBeGreaterThan(0);
      expect(st.emptyColumnMoves).toBeGreaterThan(0);
      expect(st.undos).toBeGreaterThan(0);
    });
  for (const [p, o] of VARIANTS)
    it(`${p} ${JSON.stringify(o)}: 200 games`, () => {
      const st = checkRandomPlay(resolveRules(p, o), 200, 40, 22);
      expect(st.steps).toBeGreaterThan(500);
    });
});
