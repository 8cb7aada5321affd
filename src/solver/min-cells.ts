/**
 * Checks the solver against the published FreeCell figures: for Microsoft deals 1–32000, the
 * fewest free cells that solve each deal (tests/data/freecell-ms32000-min-cells.txt, lines
 * "<deal> <cells>"). A deal agrees when it is solved with its listed number of cells and proved
 * unsolvable with one fewer (deals listed with 0 cells have only the first check).
 */
import { dealMs } from "../engine/deal.js";
import { Rng } from "../util/rng.js";
import { resolveRules } from "../engine/rules.js";
import { solve, type SolveResult } from "./search.js";

/** Deal number → fewest cells, from the data file's text. */
export function parseMinCells(text: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (!t || t.startsWith("#")) continue;
    const m = /^(\d+)\s+(\d+)$/.exec(t);
    if (!m) throw new Error(`bad min-cells line "${t}": expected "<deal> <cells>"`);
    out.set(Number(m[1]), Number(m[2]));
  }
  return out;
}

/** `count` distinct deal numbers from [from, to], drawn with the seeded generator (`Rng`), ascending. */
export function sampleDeals(from: number, to: number, count: number, seed: number): number[] {
  const pool = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const rng = new Rng(seed);
  const k = Math.min(count, pool.length);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, k).sort((a, b) => a - b);
}

export interface MinCellsCheck {
  deal: number;
  cells: number;
  /** Verdict with the listed number of cells (should be "solved"). */
  withListed: SolveResult["result"];
  /** Verdict with one cell fewer (should be "unsolvable"); undefined when the list says 0. */
  withFewer: SolveResult["result"] | undefined;
  /** True when both verdicts match; false when one contradicts; undefined when one is "unknown". */
  agrees: boolean | undefined;
  states: number;
  ms: number;
}

export function checkMinCells(
  deal: number,
  cells: number,
  maxStates: number,
  timeoutMs?: number,
): MinCellsCheck {
  const a = solve(dealMs(resolveRules("freecell", { cells }), deal), { maxStates, timeoutMs });
  const b =
    cells > 0
      ? solve(dealMs(resolveRules("freecell", { cells: cells - 1 }), deal), {
          maxStates,
          timeoutMs,
        })
      : undefined;
  const verdicts = [a.result === "solved" ? true : a.result === "unsolvable" ? false : undefined];
  if (b)
    verdicts.push(b.result === "unsolvable" ? true : b.result === "solved" ? false : undefined);
  const agrees = verdicts.includes(false) ? false : verdicts.includes(undefined) ? undefined : true;
  const ms = Math.round((a.ms + (b?.ms ?? 0)) * 10) / 10;
  return {
    deal,
    cells,
    withListed: a.result,
    withFewer: b?.result,
    agrees,
    states: a.states + (b?.states ?? 0),
    ms,
  };
}
