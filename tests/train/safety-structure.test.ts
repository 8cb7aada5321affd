import { describe, expect, it } from "vitest";
import { suitOf } from "../../src/engine/card.js";
import { deal } from "../../src/engine/deal.js";
import { resolveRules } from "../../src/engine/rules.js";
import { COLUMN_CAP } from "../../src/engine/state.js";
import { encodeStructure, STRUCTURE_WIDTH } from "../../src/players/safety/structure.js";

const rules = resolveRules("penguin");

describe("structural features", () => {
  it("see the beak buried under six cards, the other suits' next cards and the blockers of a fresh deal", () => {
    for (const seed of [1, 2, 3, 17]) {
      const s = deal(rules, seed);
      const out = new Float32Array(STRUCTURE_WIDTH);
      encodeStructure(s, out, 0);
      const beakSuit = suitOf(s.cards[0]!);
      // The beak's foundation is empty; its next card is the beak, deepest in column 1 under six cards.
      expect(s.found[beakSuit]).toBe(0);
      expect(out[6 * beakSuit + 3]).toBeCloseTo(6 / 20, 6);
      expect(out[6 * beakSuit + 2]).toBe(0);
      // Digging costs at most one flipper per card above, and nothing for a card already on top.
      for (let f = 0; f < 4; f++) {
        expect(out[6 * f + 4]! * 7).toBeLessThanOrEqual(out[6 * f + 3]! * 20 + 1e-6);
        if (out[6 * f + 2] === 1) expect(out[6 * f + 4]).toBe(0);
      }
      // Blockers, counted the slow way: cards lying above a lower card of their own suit.
      let blockers = 0;
      for (let c = 0; c < 7; c++)
        for (let d = 0; d < s.len[c]!; d++)
          for (let e = 0; e < d; e++) {
            const hi = s.cards[c * COLUMN_CAP + d]!;
            const lo = s.cards[c * COLUMN_CAP + e]!;
            if (suitOf(hi) === suitOf(lo) && s.tables.rel[hi]! > s.tables.rel[lo]!) {
              blockers++;
              break;
            }
          }
      expect(out[24]! * 20).toBeCloseTo(blockers, 4);
      expect(blockers).toBeGreaterThan(3);
      // All seven flippers free: no flipper card waits for anything.
      expect(Array.from(out.subarray(28, 31))).toEqual([0, 0, 0]);
    }
  });
});

describe("safety checkpoints", () => {
  it("load with or without the structural features and attention, and refuse another encoding", async () => {
    const { mkdtempSync, readFileSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const {
      defaultConfig,
      featuresOf,
      globalWidthOf,
      initWeights,
      loadSafety,
      saveSafety,
      usesStructure,
    } = await import("../../src/players/safety/model.js");
    const { GLOBAL_WIDTH } = await import("../../src/players/safety/encode.js");
    const dir = mkdtempSync(join(tmpdir(), "safety-ck-"));
    try {
      for (const [features, heads] of [
        ["basic", 0],
        ["flippers", 0],
        ["cards", 2],
        ["links", 0],
        ["structure", 4],
      ] as const) {
        const w = initWeights(defaultConfig(7, [16], [8], features, heads), 2);
        saveSafety(dir, w, { play: { threshold: 0.3 } });
        const back = loadSafety(dir).weights;
        expect(featuresOf(back.config)).toBe(features);
        expect(usesStructure(back.config)).toBe(features !== "basic");
        expect(back.config.globalWidth).toBe(globalWidthOf(features));
        expect(back.config.globalWidth).toBe(
          GLOBAL_WIDTH +
            (features === "basic" ? 0 : STRUCTURE_WIDTH) +
            (features === "basic" || features === "structure" ? 0 : 16) +
            (features === "cards" ? 52 * 28 : features === "links" ? 52 * 36 : 0),
        );
        expect(back.W.map((x) => Array.from(x.subarray(0, 5)))).toEqual(
          w.W.map((x) => Array.from(x.subarray(0, 5))),
        );
      }
      const file = join(dir, "model.json");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(
          `"globalWidth": ${GLOBAL_WIDTH + STRUCTURE_WIDTH}`,
          `"globalWidth": ${GLOBAL_WIDTH + 1}`,
        ),
      );
      expect(() => loadSafety(dir)).toThrow(/another position encoding/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
