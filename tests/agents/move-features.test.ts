import { describe, expect, it } from "vitest";
import { deal } from "../../src/engine/deal.js";
import {
  CELL0,
  FOUNDATION,
  generateMoves,
  MAX_MOVES,
  applyMove,
  moveTo,
} from "../../src/engine/moves.js";
import { PRESET_NAMES, resolveRules } from "../../src/engine/rules.js";
import { FeatureScratch } from "../../src/agents/move-features.js";

describe("FeatureScratch", () => {
  it("counts the real options (moves not into a flipper) as the move list has them", () => {
    const moves = new Int32Array(MAX_MOVES);
    const x = new FeatureScratch();
    let checked = 0;
    for (const preset of PRESET_NAMES)
      for (const cells of [undefined, 0, 1]) {
        // Some deals fill flippers: those rules take no fewer.
        if (cells !== undefined && ["eight-off", "seahaven-towers"].includes(preset)) continue;
        const rules = resolveRules(preset, cells === undefined ? {} : { cells });
        for (let seed = 100010; seed < 100013; seed++) {
          const s = deal(rules, seed);
          for (let ply = 0; ply < 60; ply++) {
            const n = generateMoves(s, moves);
            let real = 0;
            for (let i = 0; i < n; i++) {
              const to = moveTo(moves[i]!);
              if (to < CELL0 || to === FOUNDATION) real++;
            }
            x.locate(s);
            expect(x.realOptions(s), `${preset} ${seed} ply ${ply}`).toBe(real);
            expect(x.legalMoves(s)).toBe(n);
            checked++;
            if (n === 0) break;
            applyMove(s, moves[(ply * 13 + seed) % n]!);
          }
        }
      }
    expect(checked).toBeGreaterThan(500);
  });
});
