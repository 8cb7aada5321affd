/**
 * Named features of a move, the vocabulary of the greedy and lookahead agents. Each of Parlett's
 * tips (the Portuguese rule text's "Dicas e estratégias"; docs/rules.md) is one feature, so a user can switch a tip off
 * (`--without keep-flippers-empty`) and measure what it is worth; a few more features that are not
 * tips help the tuned preset.
 *
 * A feature scores a move as `potential(after) − potential(before) + moveTerm(before, move)`.
 * Most features are pure potentials of a position, which makes a path's total score telescope:
 * the lookahead agent's sum over k moves is then "leaf value − root value + move terms".
 *
 * All features read the position's typed arrays and allocate nothing. None sees which column is
 * which: two positions that differ only by columns swapped get the same value, so MoveScorer
 * scores moves that differ only in which empty column they fill once (a test holds every
 * feature to this).
 *
 * Stalactites (rank foundations, no building, columns never refilled): free-base-cards,
 * plan-empty-columns, build-in-suit, settled-cards, buried-order and empty-columns make no sense
 * there and score 0 (no base card waits to be freed, since the deal starts every foundation; an
 * empty column stays empty; nothing is ever built, so no card is settled on another and none
 * lies "in suit order"; a card's suit says nothing about when it can go home). short-flipper-use
 * and dig-next-home read the rank foundations instead: a card's distance is the ranks until some
 * foundation takes it, and the next cards are every card of a rank some foundation needs.
 */
import { NO_CARD, rankOf, suitOf } from "../engine/card.js";
import {
  autoHomeSuit,
  CELL0,
  FOUNDATION,
  countMoves,
  generateMoves,
  MAX_MOVES,
  moveAutoHome,
  moveCard,
  moveCount,
  moveFrom,
  moveTo,
  type Move,
} from "../engine/moves.js";
import { COLUMN_CAP, MAX_CELLS, MAX_COLUMNS, type State, type Tables } from "../engine/state.js";

export interface Feature {
  readonly name: string;
  /** One line for `--help` and docs/agents.md. */
  readonly describe: string;
  /** True for the features that are Parlett's tips. */
  readonly tip: boolean;
  /** Value of a position (0 when the feature is a pure move term). */
  potential?(s: State, scratch: FeatureScratch): number;
  /** Extra value of playing `m` from `before` (before the move is applied). */
  moveTerm?(before: State, m: Move, scratch: FeatureScratch): number;
  /**
   * A number never below potential(after), where `after` is `before` after move m, worked out
   * from before's facts (located and prepareBounds) and its own potential `now`, without playing
   * m (scratch.boundMove(before, m) comes first): a search skips the moves whose bounds show
   * they cannot be its best. Only for suit foundations without base cards carried home.
   */
  bound?(before: State, scratch: FeatureScratch, m: Move, now: number): number;
}

/**
 * Per-position facts several features need (where each card lies, what covers it), filled once
 * per position by `locate` and reused by every feature.
 */
export class FeatureScratch {
  /** Column of each card, or -1 (flipper), -2 (foundation). */
  readonly where = new Int8Array(52);
  /** Cards lying on each card in its column (0 when it is the column's last card; stale when not in a column). */
  readonly cover = new Uint8Array(52);
  /** seq[c * 52 + t] = 1 when c is t's in-suit successor down (same suit, one rank lower). */
  #seqFor = -1;
  #wrap = true;
  readonly seq = new Uint8Array(52 * 52);
  /** Per column: cards lying on their in-suit parent (build-in-suit's share). */
  readonly inSuit = new Int32Array(MAX_COLUMNS);
  /** Per column: settled-cards' share (0 unless the deepest card is a base − 1 card or may be). */
  readonly settled = new Int32Array(MAX_COLUMNS);
  /** Per column: −cards lying on a lower card of their own suit (buried-order's share). */
  readonly buried = new Int32Array(MAX_COLUMNS);
  readonly #lowest = new Uint8Array(4);
  /** Move buffer for features that look at the legal moves of a position. */
  readonly moves = new Int32Array(MAX_MOVES);
  /** Legal moves of the position `locate` saw last, listed in `moves` or only counted; -1 until asked for. */
  #listed = -1;
  #count = -1;

  /** Legal moves of s (the position last located), listed in `moves` once for all features. */
  legalMoves(s: State): number {
    if (this.#listed < 0) this.#listed = this.#count = generateMoves(s, this.moves);
    return this.#listed;
  }

  /** How many legal moves s (the position last located) has, counted once for all features. */
  moveCount(s: State): number {
    if (this.#count < 0) this.#count = countMoves(s);
    return this.#count;
  }

  /**
   * Legal moves of s that do not park a card in a flipper: all but the moves into one, which
   * generateMoves lists once per non-empty column when a flipper is free (the lowest) and never
   * else. Counted so, not by a pass over the list.
   */
  realOptions(s: State): number {
    const n = this.moveCount(s);
    return s.freeCells() > 0 ? n - (s.nColumns - s.emptyColumns()) : n;
  }

  /**
   * Facts of the located position that the features' bounds read (prepareBounds): its free
   * flippers and empty columns, the suits whose next card could go home now, and the most cards
   * that may be placed on one card.
   */
  free = 0;
  empties = 0;
  homeReady = 0;
  builders = 0;
  /** Per suit, where its next card lies (as `where`; -2 when the suit is home) and its cover. */
  readonly nextColumn = new Int8Array(4);
  readonly nextCover = new Uint8Array(4);
  /** Free flippers and empty columns after the move bounded now (boundMove). */
  freeAfter = 0;
  emptiesAfter = 0;

  /** fillSizes summed over the columns of the prepared position, by cap (-1: not yet known). */
  readonly #fill = new Int32Array(65);

  /** Σ fillSizes(column) over s's columns (s prepared), worked out once per cap. */
  fillSizes(s: State, cap: number): number {
    let v = this.#fill[cap]!;
    if (v < 0) {
      v = 0;
      for (let c = 0; c < s.nColumns; c++) v += fillSizes(s.tables, s.len[c]!, cap);
      this.#fill[cap] = v;
    }
    return v;
  }

  /** Sets freeAfter and emptiesAfter for move m from s (located and prepared). */
  boundMove(s: State, m: Move): void {
    const from = moveFrom(m);
    const to = moveTo(m);
    this.freeAfter =
      this.free + (from >= CELL0 ? 1 : 0) - (to >= CELL0 && to !== FOUNDATION ? 1 : 0);
    this.emptiesAfter =
      this.empties +
      (from < CELL0 && s.len[from] === moveCount(m) ? 1 : 0) -
      (to < CELL0 && s.len[to] === 0 ? 1 : 0);
  }

  /** Works out the facts above for s, the position located last. */
  prepareBounds(s: State): void {
    this.free = s.freeCells();
    this.empties = s.emptyColumns();
    this.#fill.fill(-1);
    let ready = 0;
    for (let suit = 0; suit < 4; suit++) {
      const card = nextHome(s, suit);
      const w = card === NO_CARD ? -2 : this.where[card]!;
      this.nextColumn[suit] = w;
      this.nextCover[suit] = w >= 0 ? this.cover[card]! : 0;
      if (w === -1 || (w >= 0 && this.cover[card] === 0)) ready++;
    }
    this.homeReady = ready;
    const t = s.tables;
    if (this.#buildersFor !== t) {
      this.#buildersFor = t;
      this.#builderOf.fill(-1);
      let most = 0;
      for (let top = 0; top < 52; top++) {
        let k = 0;
        for (let c = 0; c < 52; c++)
          if (t.buildOn[c * 52 + top] === 1) this.#builderOf[top * 4 + k++] = c;
        most = Math.max(most, k);
      }
      this.#builders = most;
    }
    this.builders = this.#builders;
    // Moves onto column d's last card: the cards that may be placed on it lying in a flipper, or
    // in another column under fewer cards than any position one move on lets move as a group
    // (capOnMove: one more free flipper and one more empty column than now). Cards under more,
    // per column: a move off that column may bring them within reach.
    const free = this.free;
    const mode = t.groupMode;
    const capOnMove =
      mode === 0 ? 64 : mode === 2 ? 1 : mode === 3 ? free + 2 : (free + 2) << (this.empties + 1);
    this.reach.fill(0);
    this.deepReach.fill(0);
    let all = 0;
    for (let d = 0; d < s.nColumns; d++) {
      const len = s.len[d]!;
      if (len === 0) continue;
      const top = s.cards[d * COLUMN_CAP + len - 1]!;
      let a = 0;
      for (let j = top * 4, e = j + 4; j < e; j++) {
        const on = this.#builderOf[j]!;
        if (on < 0) break;
        const w = this.where[on]!;
        if (w === -1) a++;
        else if (w >= 0 && w !== d) {
          if (this.cover[on]! < capOnMove) a++;
          else this.deepReach[w]!++;
        }
      }
      this.reach[d] = a;
      all += a;
    }
    this.allReach = all;
    // short-flipper-use: each flipper card's share, summed by what could shrink it: the card
    // leaving its flipper, a card of its suit going home, or the card it builds on (see
    // returnDistance) moving or having cards taken off its column.
    const wrap = s.rules.base === "beak";
    this.suitShare.fill(0);
    this.columnShare.fill(0);
    this.parentShare.fill(0);
    for (let i = 0; i < s.nCells; i++) {
      const card = s.cells[i]!;
      const share = card === NO_CARD ? 0 : returnDistance(s, card, this) / RETURN_CAP;
      this.cellShare[i] = share;
      if (share === 0) continue;
      this.suitShare[card & 3]! += share;
      const pr = rankOf(card) + 1;
      if (pr > 12 && !wrap) continue;
      const parent = (pr % 13) * 4 + suitOf(card);
      this.parentShare[parent]! += share;
      if (this.where[parent]! >= 0) this.columnShare[this.where[parent]!]! += share;
    }
  }
  #builders = 0;
  #buildersFor: Tables | undefined;
  /** builderOf[t * 4 ..]: the cards that may be placed on card t in the tableau, then -1. */
  readonly #builderOf = new Int8Array(52 * 4);
  /**
   * Per column d, the cards that may be placed on its last card and are within reach (prepareBounds),
   * their sum over the columns, and per column the cards that may be placed on another column's
   * last card lying too deep in it.
   */
  readonly reach = new Int32Array(MAX_COLUMNS);
  readonly deepReach = new Int32Array(MAX_COLUMNS);
  allReach = 0;
  /**
   * short-flipper-use's shares (multiples of 1/8) of the flipper cards: per flipper, and summed
   * per suit, per card they build on, and per column that card lies in.
   */
  readonly cellShare = new Float64Array(MAX_CELLS);
  readonly suitShare = new Float64Array(4);
  readonly parentShare = new Float64Array(52);
  readonly columnShare = new Float64Array(MAX_COLUMNS);

  locate(s: State): void {
    this.#ensureSeq(s);
    this.#listed = this.#count = -1;
    // cover is read only for cards in a column (where >= 0), which the loop below sets.
    this.where.fill(-2);
    for (let c = 0; c < s.nColumns; c++) this.#column(s, c);
    this.#cells(s);
  }

  /**
   * After `locate(p)` and then move m played from p (s is p after m): the same facts as
   * `locate(s)`, found by redoing only what m changed, its columns and the flippers. With
   * `child` false, s is p again (m taken back) and the facts return to p's. A search scores
   * every move of a position this way, without walking the whole tableau for each.
   */
  relocate(s: State, m: Move, child: boolean): void {
    this.#listed = this.#count = -1;
    const from = moveFrom(m);
    const to = moveTo(m);
    if (from < CELL0) this.#column(s, from);
    if (to < CELL0) this.#column(s, to);
    this.#cells(s);
    if (!child) return;
    // Cards gone home are in no column or flipper: the card moved home, and base cards any move
    // from a column may carry home after it (penguin-beak-home).
    if (to === FOUNDATION) this.where[moveCard(m)] = -2;
    for (let k = moveAutoHome(m); k > 0; k--) this.where[s.base * 4 + autoHomeSuit(m, k - 1)] = -2;
  }

  #cells(s: State): void {
    for (let i = 0; i < s.nCells; i++) {
      const card = s.cells[i]!;
      if (card !== NO_CARD) this.where[card] = -1;
    }
  }

  /**
   * Where and cover of column c's cards, and the column's share of three features that are sums
   * over columns (build-in-suit, settled-cards, buried-order): one walk for all of them.
   */
  #column(s: State, c: number): void {
    const n = s.len[c]!;
    const b = c * COLUMN_CAP;
    const cards = s.cards;
    const rel = s.tables.rel;
    const seq = this.seq;
    // buried-order: per suit the lowest rel below (a table, not four variables: the suits come
    // in no order a branch could guess). A card above a lower one of its suit counts; else it is
    // its suit's lowest so far.
    const lowest = this.#lowest;
    lowest[0] = lowest[1] = lowest[2] = lowest[3] = 99;
    let inSuit = 0;
    let buried = 0;
    // settled-cards: 1 + the cards in suit order above the deepest, counted while unbroken.
    let settled = 1;
    let unbroken = true;
    for (let d = 0; d < n; d++) {
      const card = cards[b + d]!;
      this.where[card] = c;
      this.cover[card] = n - 1 - d;
      const r = rel[card]!;
      if (lowest[card & 3]! < r) buried--;
      else lowest[card & 3] = r;
      if (d > 0) {
        const q = seq[card * 52 + cards[b + d - 1]!]!;
        inSuit += q;
        if (unbroken && q === 1) settled++;
        else unbroken = false;
      }
    }
    this.inSuit[c] = inSuit;
    this.buried[c] = buried;
    // Only from a base − 1 card at the bottom, where an empty column takes nothing else.
    this.settled[c] = n === 0 || (s.tables.emptyMode === 0 && rel[cards[b]!] !== 12) ? 0 : settled;
  }

  #ensureSeq(s: State): void {
    const wrap = s.rules.base === "beak";
    if (this.#seqFor === s.base && this.#wrap === wrap) return;
    this.#seqFor = s.base;
    this.#wrap = wrap;
    for (let c = 0; c < 52; c++)
      for (let t = 0; t < 52; t++) {
        const rankOk = wrap ? (rankOf(c) + 1) % 13 === rankOf(t) : rankOf(c) + 1 === rankOf(t);
        this.seq[c * 52 + t] = rankOk && suitOf(c) === suitOf(t) ? 1 : 0;
      }
  }
}

/** Card that must go home next on suit s, or NO_CARD when the suit is complete. */
function nextHome(s: State, suit: number): number {
  return s.tables.foundationCard[suit * 14 + s.found[suit]!]!;
}

/**
 * How far a card is from leaving a flipper: 0 when it can go home or onto a column's last card
 * now; else the cards covering its in-suit parent (the card it builds on), or the cards of its
 * suit that must go home first, whichever is fewer. Capped, since beyond a few it is simply "stuck".
 */
const RETURN_CAP = 8;
function returnDistance(s: State, card: number, x: FeatureScratch): number {
  if (s.tables.rankHome) {
    // Only a foundation can take it: ranks to go until the nearest one needs this card's rank.
    let d = RETURN_CAP;
    for (let f = 0; f < 4; f++) {
      const need = s.foundationNeeds(f);
      if (need !== NO_CARD) d = Math.min(d, ((rankOf(card) - need + 13) % 13) * 2);
    }
    return Math.min(d, RETURN_CAP);
  }
  const suit = suitOf(card);
  const toHome = s.tables.rel[card]! - s.found[suit]!;
  if (toHome <= 0) return 0;
  let best = Math.min(toHome * 2, RETURN_CAP);
  // The parent: same suit, one rank higher (wrapping with a beak base).
  const wrap = s.rules.base === "beak";
  const pr = rankOf(card) + 1;
  if (pr <= 12 || wrap) {
    const parent = (pr % 13) * 4 + suit;
    const w = x.where[parent]!;
    if (w >= 0) best = Math.min(best, x.cover[parent]!);
  }
  return best;
}

/** Is a card of rank base − 1 (the only card an empty column takes) ready to fill one? */
function fillerReady(s: State, x: FeatureScratch, except: number): boolean {
  const rel = s.tables.rel;
  for (let i = 0; i < s.nCells; i++) {
    const card = s.cells[i]!;
    if (card !== NO_CARD && rel[card] === 12) return true;
  }
  for (let c = 0; c < s.nColumns; c++) {
    if (c === except) continue;
    const n = s.len[c]!;
    const b = c * COLUMN_CAP;
    // Walk up the run at the column's end: its head can move, unless it is already the deepest card.
    for (let d = n - 1; d >= 1; d--) {
      const card = s.cards[b + d]!;
      if (rel[card] === 12) return true;
      if (x.seq[card * 52 + s.cards[b + d - 1]!] !== 1) break;
    }
  }
  return false;
}

/**
 * At most how many groups of a column of `len` cards may go into one empty column when groups
 * of up to `cap` cards may: countMoves' count with the run as long as the column allows.
 */
export function fillSizes(t: Tables, len: number, cap: number): number {
  if (len < 2) return 0;
  const max = Math.min(cap, len - 1);
  return t.emptyMode === 1 ? max : Math.floor((max - 1) / 13) + 1;
}

/**
 * A number never below realOptions after move m from s, from s's facts alone: realOptions is
 * the moves home (at most the suits whose next card could go home before, plus the one card
 * the move uncovers and the next card of a suit it sends home), onto a column's last card (the
 * cards that may be placed on it within reach), and into each empty column (countMoves'
 * count with every run as long as the column allows, and every flipper card).
 */
function optionsAfter(s: State, x: FeatureScratch, m: Move): number {
  const t = s.tables;
  const from = moveFrom(m);
  const to = moveTo(m);
  const k = moveCount(m);
  const free = x.freeAfter;
  const empties = x.emptiesAfter;
  // Onto columns: those whose last card stays keep at most their reach (prepareBounds), plus
  // what a move off `from` brings within reach; the move's own columns take at most `builders`.
  let onto = x.allReach;
  if (from < CELL0) {
    onto += x.deepReach[from]! - x.reach[from]!;
    if (s.len[from]! > k) onto += x.builders;
  }
  if (to < CELL0) onto += x.builders - x.reach[to]!;
  let n = Math.min(4, x.homeReady + 2) + onto;
  if (empties > 0 && t.emptyMode !== 2) {
    const mode = t.groupMode;
    // groupCaps (moves.ts): the largest group into an empty column.
    const cap =
      mode === 0 ? 64 : mode === 2 ? 1 : mode === 3 ? free + 1 : (free + 1) << (empties - 1);
    // Every column as it is, then the move's two columns as they will be.
    let sizes = s.nCells - free + x.fillSizes(s, Math.min(cap, 64));
    if (from < CELL0)
      sizes += fillSizes(t, s.len[from]! - k, cap) - fillSizes(t, s.len[from]!, cap);
    if (to < CELL0) sizes += fillSizes(t, s.len[to]! + k, cap) - fillSizes(t, s.len[to]!, cap);
    n += empties * sizes;
  }
  return n;
}

/** flipper-reserve's −2^(−free flippers), by free flippers (a table: a power is slow). */
const FLIPPER_RESERVE = Float64Array.from({ length: MAX_CELLS + 1 }, (_, k) => -(2 ** -k));

export const FEATURES: readonly Feature[] = [
  {
    name: "foundation-first",
    describe: "a move to a foundation (always safe when building in suit)",
    tip: false,
    moveTerm: (_s, m) => (moveTo(m) === FOUNDATION ? 1 : 0),
  },
  {
    name: "free-base-cards",
    describe: "tip 1: dig out the base-rank cards not yet home (−cards covering each)",
    tip: true,
    potential: (s, x) => {
      let v = 0;
      if (s.tables.rankHome) return 0;
      for (let suit = 0; suit < 4; suit++) {
        if (s.found[suit] !== 0) continue;
        const card = nextHome(s, suit);
        v -= x.where[card]! >= 0 ? 1 + x.cover[card]! : 0.5;
      }
      return v;
    },
  },
  {
    name: "keep-flippers-empty",
    describe: "tip 2: −(occupied flippers)² / 4, so each further flipper filled costs more",
    tip: true,
    potential: (s) => {
      const used = s.nCells - s.freeCells();
      return (-used * used) / 4;
    },
    bound: (s, x) => {
      const used = s.nCells - x.freeAfter;
      return (-used * used) / 4;
    },
  },
  {
    name: "plan-empty-columns",
    describe: "tip 3: −1 for emptying a column when no base−1 card is ready to fill it",
    tip: true,
    moveTerm: (s, m, x) => {
      const from = moveFrom(m);
      if (from >= CELL0 || s.tables.emptyMode !== 0 || s.len[from] !== moveCount(m)) return 0;
      return fillerReady(s, x, from) ? 0 : -1;
    },
  },
  {
    name: "build-in-suit",
    describe: "tip 4: cards lying on their in-suit parent in the tableau",
    tip: true,
    potential: (s, x) => {
      if (s.rules.build === "none") return 0;
      let v = 0;
      for (let c = 0; c < s.nColumns; c++) v += x.inSuit[c]!;
      return v;
    },
    // Moving cards off a column takes away in-suit pairs; only the one onto the target's last card can be new.
    bound: (s, x, m, now) => {
      const to = moveTo(m);
      if (s.rules.build === "none" || to >= CELL0 || s.len[to] === 0) return now;
      return now + x.seq[moveCard(m) * 52 + s.cards[to * COLUMN_CAP + s.len[to]! - 1]!]!;
    },
  },
  {
    name: "short-flipper-use",
    describe:
      "tip 5: −(how far each flipper card is from leaving it), so flippers hold cards briefly",
    tip: true,
    potential: (s, x) => {
      let v = 0;
      for (let i = 0; i < s.nCells; i++) {
        const card = s.cells[i]!;
        if (card !== NO_CARD) v -= returnDistance(s, card, x) / RETURN_CAP;
      }
      return v;
    },
    // A flipper card's distance can only shrink when it leaves, when its suit gets a card home,
    // or when the card it builds on has cards taken off it or is the card moved; a card put
    // into a flipper adds a share of at most 0. Shares are multiples of 1/8: the sum is exact.
    bound: (_s, x, m, now) => {
      const from = moveFrom(m);
      const head = moveCard(m);
      // A flipper card may be counted twice here: the bound is only the looser.
      let v = now + x.parentShare[head]!;
      if (from >= CELL0) v += x.cellShare[from - CELL0]!;
      else v += x.columnShare[from]!;
      if (moveTo(m) === FOUNDATION) v += x.suitShare[head & 3]!;
      return v;
    },
  },
  {
    name: "dig-next-home",
    describe: "−cards covering the next card each foundation needs",
    tip: false,
    potential: (s, x) => {
      let v = 0;
      if (s.tables.rankHome) {
        // Per foundation, the least-covered card of the rank it needs.
        for (let f = 0; f < 4; f++) {
          const need = s.foundationNeeds(f);
          if (need === NO_CARD) continue;
          let best = -1;
          for (let su = 0; su < 4; su++) {
            const card = need * 4 + su;
            if (x.where[card] === -1) best = 0;
            else if (x.where[card]! >= 0 && (best < 0 || x.cover[card]! < best))
              best = x.cover[card]!;
          }
          if (best > 0) v -= best;
        }
        return v;
      }
      for (let suit = 0; suit < 4; suit++) {
        const card = nextHome(s, suit);
        if (card !== NO_CARD && x.where[card]! >= 0) v -= x.cover[card]!;
      }
      return v;
    },
    // A next card under the moved cards has them off it; one sent home makes way for one that
    // is no nearer (it was a column's last card or in a flipper); cards put on one add to it.
    bound: (_s, x, m, now) => {
      const from = moveFrom(m);
      if (from >= CELL0) return now;
      const k = moveCount(m);
      let v = now;
      for (let suit = 0; suit < 4; suit++)
        if (x.nextColumn[suit] === from && x.nextCover[suit]! >= k) v += k;
      return v;
    },
  },
  {
    name: "settled-cards",
    describe:
      "cards in columns ordered in suit from a base−1 card at the bottom (never need to move)",
    tip: false,
    potential: (s, x) => {
      if (s.rules.build === "none") return 0;
      let v = 0;
      for (let c = 0; c < s.nColumns; c++) v += x.settled[c]!;
      return v;
    },
    // Cards off a column leave its settled run no longer; the target's grows by at most the cards moved.
    bound: (_s, _x, m, now) => (moveTo(m) < CELL0 ? now + moveCount(m) : now),
  },
  {
    name: "empty-columns",
    describe: "empty columns (worth something only while a card may fill them)",
    tip: false,
    potential: (s) => (s.tables.emptyMode === 2 ? 0 : s.emptyColumns()),
    bound: (s, x) => (s.tables.emptyMode === 2 ? 0 : x.emptiesAfter),
  },
  {
    name: "buried-order",
    describe:
      "−cards lying on a lower card of their own suit (each must move again before that card goes home)",
    tip: false,
    potential: (s, x) => {
      if (s.tables.rankHome) return 0;
      let v = 0;
      for (let c = 0; c < s.nColumns; c++) v += x.buried[c]!;
      return v;
    },
    // The cards below those moved stay as they are; the moved cards may count again where they land.
    bound: (_s, _x, m, now) => (moveFrom(m) < CELL0 ? Math.min(0, now + moveCount(m)) : now),
  },
  {
    name: "dead-end",
    describe: "−1 for a position with no legal move left (a lost game)",
    tip: false,
    potential: (s, x) => (!s.isWon() && x.moveCount(s) === 0 ? -1 : 0),
    bound: () => 0,
  },
  {
    name: "flipper-reserve",
    describe: "−2^(−free flippers): the last free flippers are worth the most",
    tip: false,
    potential: (s) => FLIPPER_RESERVE[s.freeCells()]!,
    bound: (_s, x) => FLIPPER_RESERVE[x.freeAfter]!,
  },
  {
    name: "mobility",
    describe: "legal moves that do not park a card in a flipper, / 10",
    tip: false,
    potential: (s, x) => x.realOptions(s) / 10,
    bound: (s, x, m) => optionsAfter(s, x, m) / 10,
  },
];

export const FEATURE_NAMES: readonly string[] = FEATURES.map((f) => f.name);
