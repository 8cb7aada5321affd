/**
 * Cards are small integers 0..51: `rank * 4 + suit`, rank 0 = A … 12 = K, suit 0..3 = C D H S.
 * This is exactly the deck order of Microsoft's FreeCell shuffle (AC AD AH AS 2C …), so the MS
 * deal needs no translation table.
 */
export type Card = number;

export const SUITS = "CDHS";
export const RANKS = "A23456789TJQK";
export const NO_CARD = 255;

export const rankOf = (c: Card): number => c >> 2;
export const suitOf = (c: Card): number => c & 3;
/** Clubs and spades are black (0); diamonds and hearts are red (1). */
export const colorOf = (c: Card): number => ((c & 3) === 1 || (c & 3) === 2 ? 1 : 0);
export const makeCard = (rank: number, suit: number): Card => rank * 4 + suit;

export function cardToString(c: Card): string {
  if (!Number.isInteger(c) || c < 0 || c > 51)
    throw new RangeError(`not a card id: ${c} (allowed 0..51)`);
  return RANKS[rankOf(c)]! + SUITS[suitOf(c)]!;
}

/** Parses `TH`, `10H`, `th`, `AS`… Throws a one-line error naming the accepted form. */
export function parseCard(text: string): Card {
  const t = text.trim().toUpperCase();
  const m = /^(10|[A2-9TJQK])([CDHS])$/.exec(t);
  if (!m)
    throw new SyntaxError(
      `bad card "${text}": expected rank ${RANKS} (or 10) followed by suit ${SUITS}, e.g. TH`,
    );
  const r = m[1] === "10" ? 9 : RANKS.indexOf(m[1]!);
  return makeCard(r, SUITS.indexOf(m[2]!));
}

export function parseRank(ch: string): number {
  const r = RANKS.indexOf(ch.toUpperCase());
  if (r < 0) throw new SyntaxError(`bad rank "${ch}": expected one of ${RANKS}`);
  return r;
}
