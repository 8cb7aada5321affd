import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkMinCells, parseMinCells, sampleDeals } from "../../src/solver/min-cells.js";

const data = readFileSync(
  fileURLToPath(new URL("../data/freecell-ms32000-min-cells.txt", import.meta.url)),
  "utf8",
);
const minCells = parseMinCells(data);

describe("FreeCell minimum free cells (MS 1–32000)", () => {
  it("reads the published list: 32000 deals, 0:69 1:6220 2:19092 3:6420 4:198 5:1", () => {
    expect(minCells.size).toBe(32000);
    const byCells = [0, 0, 0, 0, 0, 0];
    for (const c of minCells.values()) byCells[c]!++;
    expect(byCells).toEqual([69, 6220, 19092, 6420, 198, 1]);
    expect(minCells.get(11982)).toBe(5);
  });

  // A seeded random sample (not hand-picked): 6 deals drawn by sampleDeals(1, 32000, 6, 2026),
  // i.e. 4877, 7103, 9873, 14574, 19793, 21158, each checked twice: solved
  // with its listed cells, proved unsolvable with one fewer, at 200,000 positions per solve.
  // Honest limit: at this budget the solver does not always FIND the win of a deal that needs
  // exactly 2 cells (its move order is weakest when cells are scarce); in this sample 4877 may
  // come out "unknown" on the solvable side (it is solved given more states; see
  // scripts/check-min-cells.ts and docs/solver.md). Every proof of unsolvability with one cell
  // fewer completes. So: no contradiction ever, at most 1 undecided.
  it("agrees on a seeded sample: solvable with the listed cells, unsolvable with one fewer", () => {
    const deals = sampleDeals(1, 32000, 6, 2026);
    let agree = 0;
    let undecided = 0;
    for (const deal of deals) {
      const r = checkMinCells(deal, minCells.get(deal)!, 200_000);
      expect(
        r.agrees,
        `deal ${deal}: with ${r.cells} ${r.withListed}, with ${r.cells - 1} ${r.withFewer}`,
      ).not.toBe(false);
      if (r.cells > 0) expect(r.withFewer, `deal ${deal}`).toBe("unsolvable");
      if (r.agrees) agree++;
      else undecided++;
    }
    expect(agree + undecided).toBe(6);
    expect(undecided).toBeLessThanOrEqual(1);
  });
});
