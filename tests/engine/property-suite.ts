/**
 * The shared body of the property tests: seeded random games per preset (and per override
 * variant), every position checked against the reference model by checkRandomPlay. The suites are
 * split over two files only so vitest can run them on both cores.
 */
import { describe, expect, it } from "vitest";
import { resolveRules, type RuleOverrides } from "../../src/engine/index.js";
import { checkRandomPlay } from "./playouts.js";

export function describeRandomPlay(
  title: string,
  presets: readonly string[],
  variants: readonly [string, RuleOverrides][],
  seed: number,
): void {
  describe(title, () => {
    for (const p of presets)
      it(`${p}: 1000 games`, () => {
        const st = checkRandomPlay(resolveRules(p), 1000, 40, seed);
        expect(st.games).toBe(1000);
        // The games really reach the interesting cases.
        expect(st.steps).toBeGreaterThan(5_000);
        // Stalactites builds nothing and never refills a column: no group or empty-column moves.
        const r = resolveRules(p);
        if (r.build !== "none") expect(st.groupMoves).toBeGreaterThan(0);
        if (r.emptyColumn !== "none") expect(st.emptyColumnMoves).toBeGreaterThan(0);
        if (r.foundations === "rank") expect(st.foundationMoves).toBeGreaterThan(0);
        if (r.deal === "penguin-beak-home") expect(st.autoHomeMoves).toBeGreaterThan(0);
        expect(st.undos).toBeGreaterThan(0);
      });
    for (const [p, o] of variants)
      it(`${p} ${JSON.stringify(o)}: 200 games`, () => {
        const st = checkRandomPlay(resolveRules(p, o), 200, 40, seed + 1);
        expect(st.steps).toBeGreaterThan(500);
      });
  });
}
