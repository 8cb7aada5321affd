/** Hand-built Penguin positions for the feature tests. */
import { NO_CARD, parseCard, rankOf, suitOf } from "../../src/engine/card.js";
import { resolveRules } from "../../src/engine/rules.js";
import { COLUMN_CAP, State } from "../../src/engine/state.js";

const rules = resolveRules("penguin");

/**
 * A hand-built Penguin position with the ace as base rank (so a card's relative rank is its
 * rank): found[s] cards home in suit s (C, D, H, S), the columns from the deepest card up, and
 * the flipper cards. Every card that is not home must be placed exactly once.
 */
export function position(
  found: readonly number[],
  columns: readonly string[][],
  cells: readonly string[],
): State {
  const s = new State(rules, 0);
  const seen = new Set<number>();
  const place = (t: string): number => {
    const c = parseCard(t);
    if (seen.has(c) || rankOf(c) < found[suitOf(c)]!) throw new Error(`${t} placed twice or home`);
    seen.add(c);
    return c;
  };
  for (let f = 0; f < 4; f++) s.found[f] = found[f]!;
  for (let c = 0; c < s.nColumns; c++) {
    const col = columns[c] ?? [];
    s.len[c] = col.length;
    col.forEach((t, d) => (s.cards[c * COLUMN_CAP + d] = place(t)));
  }
  s.cells.fill(NO_CARD);
  cells.forEach((t, i) => (s.cells[i] = place(t)));
  const out = 52 - found.reduce((a, b) => a + b, 0);
  if (seen.size !== out) throw new Error(`placed ${seen.size} cards, ${out} are not home`);
  s.rehash();
  return s;
}

// Clubs home, diamonds up to the queen, hearts and spades up to the five. Column tops: 8H, 9H,
// QH, 9S, KS, TS, KD; no column is empty.
export const FIRST = [
  ["6H", "8H"],
  ["8S", "KH", "9H"],
  ["6S", "TH", "JS", "QH"],
  ["JH", "9S"],
  ["QS", "KS"],
  ["TS"],
  ["KD"],
];
