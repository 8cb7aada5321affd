/** Hand-built positions for focused tests: name the cards in play, the rest are home. */
import {
  parseBoard,
  parseCard,
  RANKS,
  SUITS,
  type Rules,
  type State,
} from "../../src/engine/index.js";

/**
 * `cols` are columns (cards deepest first, space-separated), `cells` the flippers ("-" = free).
 * Every card not named is on its foundation, which must then be a run from the base rank: the
 * function throws if a card not named sits above a named one of its suit.
 */
export function position(rules: Rules, base: string, cols: string[], cells: string[] = []): State {
  const b = RANKS.indexOf(base);
  const named = new Set<number>();
  for (const t of [...cols, ...cells].join(" ").split(/\s+/))
    if (t && t !== "-") named.add(parseCard(t));
  const tops: string[] = [];
  for (let su = 0; su < 4; su++) {
    let k = 0;
    while (k < 13 && !named.has(((b + k) % 13) * 4 + su)) k++;
    for (let j = k; j < 13; j++) {
      const c = ((b + j) % 13) * 4 + su;
      if (!named.has(c))
        throw new Error(`test position: ${RANKS[(b + j) % 13]}${SUITS[su]} must be placed`);
    }
    tops.push(k ? `${RANKS[(b + k - 1) % 13]}${SUITS[su]}` : "-");
  }
  const cellTokens = Array.from({ length: rules.cells }, (_, i) => cells[i] ?? "-");
  const text = [
    "penguin-board 1",
    `base: ${base}`,
    `foundations: ${tops.join(" ")}`,
    `flippers: ${cellTokens.join(" ")}`,
    ...Array.from({ length: rules.columns }, (_, i) => `${(i + 1) % 10}: ${cols[i] ?? ""}`),
  ].join("\n");
  return parseBoard(text, rules);
}
