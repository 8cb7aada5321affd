/**
 * A deliberately naive reference: breadth-first search over exact positions (string keys, no
 * safe foundation moves, no canonical columns, no pruning). Slow, but it shares nothing with the
 * solver except the engine's move generator, so agreeing verdicts check the solver's shortcuts.
 */
import { applyMoveUnchecked, legalMoves, NO_CARD, type State } from "../../src/engine/index.js";

function key(s: State): string {
  const cols: string[] = [];
  for (let c = 0; c < s.nColumns; c++) cols.push(s.column(c).join(","));
  const cells = Array.from(s.cells.subarray(0, s.nCells))
    .filter((c) => c !== NO_CARD)
    .sort((a, b) => a - b);
  return `${cells.join(",")}|${cols.join("/")}`;
}

/** "solved" | "unsolvable", or "unknown" past `limit` positions. */
export function bruteForce(start: State, limit: number): "solved" | "unsolvable" | "unknown" {
  const seen = new Set<string>([key(start)]);
  let frontier: State[] = [start.clone()];
  while (frontier.length) {
    const next: State[] = [];
    for (const s of frontier) {
      if (s.isWon()) return "solved";
      for (const m of legalMoves(s)) {
        const t = s.clone();
        applyMoveUnchecked(t, m);
        const k = key(t);
        if (seen.has(k)) continue;
        if (seen.size >= limit) return "unknown";
        seen.add(k);
        next.push(t);
      }
    }
    frontier = next;
  }
  return "unsolvable";
}
