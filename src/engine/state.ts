/**
 * A position on typed arrays. Columns are stored with a fixed stride so move generation and
 * apply/undo index straight into one buffer and allocate nothing.
 *
 * The 64-bit position hash is Zobrist-style, kept incrementally in two uint32 halves by every
 * change the engine makes. Its keys come from a fixed table (keyTable from a constant seed),
 * so the same position hashes the same on every machine and in every release that keeps
 * `HASH_VERSION`. Cells hash by content only (a card in flipper a or in flipper c hashes alike),
 * because which flipper holds a card never matters to the game. Under `foundations: "suit"` the
 * foundations are implied by the rest and not hashed; under `"rank"` which card lies on which
 * foundation matters, so each (foundation, card) pair has a key of its own.
 */
import { NO_CARD, rankOf, suitOf, colorOf, makeCard, type Card } from "./card.js";
import type { Rules } from "./rules.js";
import { keyTable } from "../util/rng.js";

export const MAX_COLUMNS = 10;
export const MAX_CELLS = 8;
/** Column stride. A column can never exceed its dealt cards + 12 of a run; 64 is ample. */
export const COLUMN_CAP = 64;
export const HASH_VERSION = 1;

const KEYS = MAX_COLUMNS * COLUMN_CAP * 52;
/**
 * Zobrist keys: [column slot * 52 + card] for tableau cards, then 52 keys for a card in a cell,
 * then 4 × 52 for a card on rank foundation f (drawn last, so the earlier keys never changed).
 */
const ALL_KEYS = KEYS + 52 + 4 * 52;
/** Key k's low half at 2k, its high half at 2k + 1: one cache line a look-up. */
const ZOBRIST = keyTable(0x9e57e1, 2 * ALL_KEYS);
const CELL_KEY = KEYS;
const FOUNDATION_KEY = KEYS + 52;

/**
 * Facts derived once per rule set and base rank, shared by every clone: the hot paths read these
 * tables instead of re-deriving ranks, colours and the build relation.
 */
export class Tables {
  /** rel[c] = (rank − base + 13) mod 13: position of c in its foundation (0 = base rank). */
  readonly rel = new Uint8Array(52);
  /** buildOn[c * 52 + t] = 1 when card c may be placed on card t in the tableau. */
  readonly buildOn = new Uint8Array(52 * 52);
  /**
   * targets[c*2], targets[c*2+1]: the (at most two) cards c may be placed on in the tableau, -1
   * when unused. Lets move generation find a destination column by its last card, not by a scan.
   */
  readonly targets = new Int8Array(52 * 2).fill(-1);
  /**
   * The card that may go next onto suit foundation s when it already holds n cards:
   * foundationCard[s*14+n]. All NO_CARD under rank foundations, where no card is "next" by suit.
   */
  readonly foundationCard = new Uint8Array(4 * 14).fill(NO_CARD);
  /** 0 below-base, 1 any, 2 none. */
  readonly emptyMode: number;
  /** 0 unlimited, 1 supermove, 2 single, 3 free-cells. */
  readonly groupMode: number;
  /** Foundations build by rank in any suit (`foundations: "rank"`). */
  readonly rankHome: boolean;
  /** Base-rank cards go home as soon as they are a column's last card (`deal: "penguin-beak-home"`). */
  readonly autoHome: boolean;

  constructor(
    readonly rules: Rules,
    readonly base: number,
  ) {
    const wrap = rules.base === "beak";
    const suitBuild = rules.build === "suit";
    const noBuild = rules.build === "none";
    for (let c = 0; c < 52; c++) {
      this.rel[c] = (rankOf(c) - base + 13) % 13;
      for (let t = 0; t < 52; t++) {
        const rankOk = wrap ? (rankOf(c) + 1) % 13 === rankOf(t) : rankOf(c) + 1 === rankOf(t);
        const suitOk = suitBuild ? suitOf(c) === suitOf(t) : colorOf(c) !== colorOf(t);
        this.buildOn[c * 52 + t] = rankOk && suitOk && !noBuild ? 1 : 0;
      }
    }
    for (let c = 0; c < 52; c++)
      for (let t = 0, j = 0; t < 52; t++)
        if (this.buildOn[c * 52 + t] === 1) this.targets[c * 2 + j++] = t;
    this.rankHome = rules.foundations === "rank";
    this.autoHome = rules.deal === "penguin-beak-home";
    if (!this.rankHome)
      for (let s = 0; s < 4; s++)
        for (let n = 0; n < 13; n++) this.foundationCard[s * 14 + n] = ((base + n) % 13) * 4 + s;
    this.emptyMode = rules.emptyColumn === "below-base" ? 0 : rules.emptyColumn === "any" ? 1 : 2;
    this.groupMode = ["unlimited", "supermove", "single", "free-cells"].indexOf(rules.groupMove);
  }
}

const tableCache = new Map<string, Tables>();
/** Tables are pure functions of the rule set and base rank, so deals share them. */
export function tablesFor(rules: Rules, base: number): Tables {
  const key = `${rules.cells}|${rules.emptyColumn}|${rules.groupMove}|${rules.build}|${rules.base}|${rules.foundations}|${rules.deal}|${base}`;
  let t = tableCache.get(key);
  if (!t || t.rules !== rules) {
    t = t && sameRules(t.rules, rules) ? t : new Tables(rules, base);
    tableCache.set(key, t);
  }
  return t;
}
function sameRules(a: Rules, b: Rules): boolean {
  return (
    a.cells === b.cells &&
    a.emptyColumn === b.emptyColumn &&
    a.groupMove === b.groupMove &&
    a.build === b.build &&
    a.base === b.base &&
    a.foundations === b.foundations &&
    a.deal === b.deal
  );
}

export class State {
  readonly nColumns: number;
  readonly nCells: number;
  /** Tableau: column i holds cards[i*COLUMN_CAP .. i*COLUMN_CAP+len[i]-1], deepest first. */
  readonly cards: Uint8Array;
  readonly len: Uint8Array;
  /** Flippers: NO_CARD when free. */
  readonly cells: Uint8Array;
  /** Cards on each foundation (0..13): suit C D H S, or rank foundations 1-4. */
  readonly found: Uint8Array;
  /**
   * Rank foundations only: foundation f's cards in the order they went up, pile[f*13 .. f*13+found[f]-1]
   * (suit foundations need no record: their cards follow from the count).
   */
  readonly pile: Uint8Array;
  hashLo = 0;
  hashHi = 0;
  /**
   * False: moves leave hashLo/hashHi as they are (a solver's working copy, which keys positions
   * its own way, so its moves do not read the hash keys, a table larger than the first-level cache).
   * A clone or a copy made from it gets its hash worked out afresh.
   */
  hashed = true;

  constructor(
    readonly rules: Rules,
    readonly base: number,
    readonly tables: Tables = tablesFor(rules, base),
    copy?: State,
  ) {
    this.nColumns = rules.columns;
    this.nCells = rules.cells;
    if (copy) {
      this.cards = copy.cards.slice();
      this.len = copy.len.slice();
      this.cells = copy.cells.slice();
      this.found = copy.found.slice();
      this.pile = copy.pile.slice();
      this.hashLo = copy.hashLo;
      this.hashHi = copy.hashHi;
      if (!copy.hashed) this.rehash();
    } else {
      this.cards = new Uint8Array(MAX_COLUMNS * COLUMN_CAP).fill(NO_CARD);
      this.len = new Uint8Array(MAX_COLUMNS);
      this.cells = new Uint8Array(MAX_CELLS).fill(NO_CARD);
      this.found = new Uint8Array(4);
      this.pile = new Uint8Array(52).fill(NO_CARD);
    }
  }

  clone(): State {
    return new State(this.rules, this.base, this.tables, this);
  }

  /** Copies another position of the same rule set into this one without allocating. */
  copyFrom(o: State): void {
    this.cards.set(o.cards);
    this.len.set(o.len);
    this.cells.set(o.cells);
    this.found.set(o.found);
    this.pile.set(o.pile);
    this.hashLo = o.hashLo;
    this.hashHi = o.hashHi;
    if (this.hashed && !o.hashed) this.rehash();
  }

  /** Same cards in the same places (flipper order included). */
  equals(o: State): boolean {
    if (this.base !== o.base || this.nColumns !== o.nColumns || this.nCells !== o.nCells)
      return false;
    for (let i = 0; i < 4; i++) if (this.found[i] !== o.found[i]) return false;
    if (this.tables.rankHome)
      for (let i = 0; i < 52; i++) if (this.pile[i] !== o.pile[i]) return false;
    for (let i = 0; i < this.nCells; i++) if (this.cells[i] !== o.cells[i]) return false;
    for (let c = 0; c < this.nColumns; c++) {
      const n = this.len[c]!;
      if (n !== o.len[c]) return false;
      for (let d = c * COLUMN_CAP, e = d + n; d < e; d++)
        if (this.cards[d] !== o.cards[d]) return false;
    }
    return true;
  }

  /** Stable 64-bit position hash (see the file comment). */
  hash(): bigint {
    return (BigInt(this.hashHi >>> 0) << 32n) | BigInt(this.hashLo >>> 0);
  }

  cardsHome(): number {
    return this.found[0]! + this.found[1]! + this.found[2]! + this.found[3]!;
  }

  isWon(): boolean {
    return this.cardsHome() === 52;
  }

  /** Last card of column c, or NO_CARD. */
  top(c: number): Card {
    const n = this.len[c]!;
    return n ? this.cards[c * COLUMN_CAP + n - 1]! : NO_CARD;
  }

  column(c: number): Card[] {
    return Array.from(this.cards.subarray(c * COLUMN_CAP, c * COLUMN_CAP + this.len[c]!));
  }

  freeCells(): number {
    let n = 0;
    for (let i = 0; i < this.nCells; i++) if (this.cells[i] === NO_CARD) n++;
    return n;
  }

  emptyColumns(): number {
    let n = 0;
    for (let c = 0; c < this.nColumns; c++) if (this.len[c] === 0) n++;
    return n;
  }

  /** Recomputes the hash from scratch (used after building a position by hand). */
  rehash(): void {
    let lo = 0;
    let hi = 0;
    for (let c = 0; c < this.nColumns; c++)
      for (let d = 0; d < this.len[c]!; d++) {
        const k = (c * COLUMN_CAP + d) * 52 + this.cards[c * COLUMN_CAP + d]!;
        lo ^= ZOBRIST[k * 2]!;
        hi ^= ZOBRIST[k * 2 + 1]!;
      }
    for (let i = 0; i < this.nCells; i++) {
      const card = this.cells[i]!;
      if (card !== NO_CARD) {
        lo ^= ZOBRIST[(CELL_KEY + card) * 2]!;
        hi ^= ZOBRIST[(CELL_KEY + card) * 2 + 1]!;
      }
    }
    if (this.tables.rankHome)
      for (let f = 0; f < 4; f++)
        for (let k = 0; k < this.found[f]!; k++) {
          const key = FOUNDATION_KEY + f * 52 + this.pile[f * 13 + k]!;
          lo ^= ZOBRIST[key * 2]!;
          hi ^= ZOBRIST[key * 2 + 1]!;
        }
    this.hashLo = lo >>> 0;
    this.hashHi = hi >>> 0;
  }

  /** Rank foundation f's or suit f's base rank: the rank its first card has or must have. */
  foundationBase(f: number): number {
    return this.tables.rankHome && this.found[f]! > 0 ? rankOf(this.pile[f * 13]!) : this.base;
  }

  /** Top card of foundation f, or NO_CARD when it is empty. */
  foundationTop(f: number): Card {
    const n = this.found[f]!;
    if (n === 0) return NO_CARD;
    return this.tables.rankHome
      ? this.pile[f * 13 + n - 1]!
      : makeCard((this.base + n - 1) % 13, f);
  }

  /** Rank foundation f needs next, or NO_CARD when it holds 13 cards. */
  foundationNeeds(f: number): number {
    const n = this.found[f]!;
    return n === 13 ? NO_CARD : (this.foundationBase(f) + n) % 13;
  }

  /** Puts a card on foundation f (the suit's under suit foundations); keeps the hash. */
  putHome(f: number, card: Card): void {
    const n = this.found[f]!;
    this.found[f] = n + 1;
    if (!this.tables.rankHome) return;
    this.pile[f * 13 + n] = card;
    if (this.hashed) this.toggleHomeKey(f, card);
  }

  /** Takes the top card off foundation f (undo only: play never does); keeps the hash. */
  takeHome(f: number, card: Card): void {
    const n = this.found[f]! - 1;
    this.found[f] = n;
    if (!this.tables.rankHome) return;
    this.pile[f * 13 + n] = NO_CARD;
    if (this.hashed) this.toggleHomeKey(f, card);
  }

  /** XORs the key of `card` on rank foundation f into the hash (adds or removes it). */
  private toggleHomeKey(f: number, card: Card): void {
    this.toggleKey(FOUNDATION_KEY + f * 52 + card);
  }

  /** Appends a card to column c (no legality check; the caller keeps the position valid). */
  push(c: number, card: Card): void {
    const d = this.len[c]!;
    this.cards[c * COLUMN_CAP + d] = card;
    this.len[c] = d + 1;
    if (this.hashed) this.toggleKey((c * COLUMN_CAP + d) * 52 + card);
  }

  /** Removes and returns the last card of column c. */
  pop(c: number): Card {
    const d = this.len[c]! - 1;
    const card = this.cards[c * COLUMN_CAP + d]!;
    this.cards[c * COLUMN_CAP + d] = NO_CARD;
    this.len[c] = d;
    if (this.hashed) this.toggleKey((c * COLUMN_CAP + d) * 52 + card);
    return card;
  }

  /** Puts a card in flipper i or takes it out (card = NO_CARD); keeps the hash. */
  setCell(i: number, card: Card): void {
    const old = this.cells[i]!;
    this.cells[i] = card;
    if (!this.hashed) return;
    if (old !== NO_CARD) this.toggleKey(CELL_KEY + old);
    if (card !== NO_CARD) this.toggleKey(CELL_KEY + card);
  }

  /** XORs Zobrist key k into the hash (adds or removes what it stands for). */
  private toggleKey(k: number): void {
    this.hashLo = (this.hashLo ^ ZOBRIST[k * 2]!) >>> 0;
    this.hashHi = (this.hashHi ^ ZOBRIST[k * 2 + 1]!) >>> 0;
  }
}

/**
 * A scratch copy of `from` for searches: reuses `into` when it has the same rules and base (no
 * allocation per step), else clones.
 */
export function copyInto(into: State | undefined, from: State): State {
  if (!into || into.base !== from.base || into.rules !== from.rules) return from.clone();
  into.copyFrom(from);
  return into;
}
