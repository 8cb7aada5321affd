/**
 * Shuffles and layouts. Two sources of a shuffled deck (the 52 cards in the order dealt):
 * - `msDeck(n)`: Microsoft FreeCell deal #n (1 ≤ n < 2^31), bit for bit as docs/rules.md gives it;
 * - `seededDeck(seed)`: Fisher–Yates driven by `seedrandom` (ARC4), the same on every machine.
 * `layout(rules, deck)` then lays that deck out the way the rule set's `deal` option says, so
 * Penguin #N, Eight Off #N, Seahaven #N and Stalactites #N are all MS deck #N.
 */
import seedrandom from "seedrandom";
import { NO_CARD, rankOf, suitOf, type Card } from "./card.js";
import type { Rules } from "./rules.js";
import { describeValue, InvalidArgumentError, UsageError } from "../errors.js";
import { State } from "./state.js";

export const MS_MAX = 2 ** 31 - 1;

export function msDeck(n: number): Card[] {
  if (!Number.isInteger(n) || n < 1 || n > MS_MAX)
    throw new UsageError(`Microsoft deal number must be an integer from 1 to ${MS_MAX}, got ${n}`);
  const deck = Array.from({ length: 52 }, (_, i) => i);
  const out: Card[] = [];
  let seed = n;
  for (let left = 52; left > 0; left--) {
    // seed < 2^31 and 214013 < 2^18, so the product stays below 2^53: exact in a double.
    seed = (seed * 214013 + 2531011) % 2 ** 31;
    const j = (seed >>> 16) % left;
    out.push(deck[j]!);
    deck[j] = deck[left - 1]!;
  }
  return out;
}

export type Seed = number | string;

export function seededDeck(seed: Seed): Card[] {
  // String(seed) would turn NaN, 1.5, {} or an array into some seed text: refuse them instead.
  if (!(typeof seed === "string" || (typeof seed === "number" && Number.isSafeInteger(seed))))
    throw new InvalidArgumentError(
      `a seed is an integer (within ±2^53−1) or a string, got ${describeValue(seed)}`,
    );
  const rng = seedrandom(String(seed));
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = t;
  }
  return deck;
}

/** Base rank of a deal: the beak's rank (first card dealt) or the ace. */
function baseRankFor(rules: Rules, deck: readonly Card[]): number {
  return rules.base === "beak" ? rankOf(deck[0]!) : 0;
}

function toFoundation(s: State, card: Card): void {
  // Only base-rank cards go up during a deal, and each suit has one, so the foundation is empty.
  s.found[suitOf(card)] = 1;
}

/** Lays out a shuffled deck under the rules' deal layout. */
export function layout(rules: Rules, deck: readonly Card[]): State {
  if (deck.length !== 52 || new Set(deck).size !== 52 || deck.some((c) => !(c >= 0 && c < 52)))
    throw new UsageError("a deck must hold each of the 52 cards exactly once");
  const base = baseRankFor(rules, deck);
  const s = new State(rules, base);
  const C = rules.columns;
  switch (rules.deal) {
    case "penguin": {
      // The beak goes deepest in column 1; other base-rank cards go straight up and the next
      // card takes their place, filling a 7×7 tableau row by row.
      s.push(0, deck[0]!);
      let slot = 1;
      for (let i = 1; i < 52; i++) {
        const card = deck[i]!;
        if (rankOf(card) === base) toFoundation(s, card);
        else if (slot < 49) s.push(slot++ % C, card);
        else throw new Error("penguin deal overflow"); // unreachable: 3 base cards leave exactly 48
      }
      break;
    }
    case "penguin-beak-home": {
      // Literal reading of the seeds: the beak starts on its foundation, the other 51 are dealt
      // row by row (8,8,7,7,7,7,7), and each base-rank card at the end of a column goes up.
      let k = 0;
      for (let i = 0; i < 52; i++) {
        const card = deck[i]!;
        if (i === 0 && rankOf(card) === base) toFoundation(s, card);
        else s.push(k++ % C, card);
      }
      for (let moved = true; moved; ) {
        moved = false;
        for (let c = 0; c < C; c++) {
          const top = s.top(c);
          if (top !== NO_CARD && rankOf(top) === base && s.found[suitOf(top)] === 0) {
            toFoundation(s, s.pop(c));
            moved = true;
          }
        }
      }
      break;
    }
    case "freecell":
      for (let i = 0; i < 52; i++) s.push(i % C, deck[i]!);
      break;
    case "eight-off":
      for (let i = 0; i < 48; i++) s.push(i % C, deck[i]!);
      for (let i = 48; i < 52; i++) s.setCell(i - 48, deck[i]!);
      break;
    case "seahaven":
      for (let i = 0; i < 50; i++) s.push(i % C, deck[i]!);
      for (let i = 50; i < 52; i++) s.setCell(i - 50, deck[i]!);
      break;
    case "stalactites":
      // 8 × 6 row by row; the last four cards start foundations 1-4, each setting its base rank.
      for (let i = 0; i < 48; i++) s.push(i % C, deck[i]!);
      for (let i = 48; i < 52; i++) s.putHome(i - 48, deck[i]!);
      break;
  }
  s.rehash();
  return s;
}

/** A deal from a seed (`seedrandom`) or a Microsoft deal number. */
export function deal(rules: Rules, seed: Seed): State {
  return layout(rules, seededDeck(seed));
}

export function dealMs(rules: Rules, n: number): State {
  return layout(rules, msDeck(n));
}
