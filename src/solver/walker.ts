/**
 * What every search strategy shares: one working position with its canonical key, the line of
 * moves applied to it (safe foundation moves included), the safe autoplay after each move, and
 * the move-order score. Strategies (depth-first.ts, best-first.ts) drive it; nothing here
 * allocates per node.
 */
import { NO_CARD } from "../engine/card.js";
import {
  applyMove,
  autoHomeSuit,
  CELL0,
  FOUNDATION,
  homeMove,
  makeMove,
  moveTo,
  moveToEmpty,
  undoMove,
  type Move,
} from "../engine/moves.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import { buildersOf, CanonicalKey, safeHome } from "./canonical.js";
import { FULL, type TranspositionTable } from "./transposition.js";

// Declared with the plans, so the package's type declarations need not reach the searches.
import type { Weights } from "./plan.js";
export type { Weights };

/** builders for an eager walker: no card waits for one that could be built on it. */
const NO_BUILDERS = new Uint8Array(104).fill(NO_CARD);

export class Walker {
  readonly s: State;
  readonly key: CanonicalKey;
  private readonly builders: Uint8Array;
  /** The key saved by hold(), and the path length it belongs to (-1: none). */
  private readonly held: Uint32Array;
  /** The cards that may be built on each card (buildersOf): a parked card's way out, under `horne`. Read only. */
  readonly kids: Uint8Array;
  private heldAt = -1;
  /** Bit c set: column c changed since hold() (only those need their key words back). */
  private sinceHeld = 0;
  /** Moves applied since the walk's origin, safe foundation moves included. */
  path: Int32Array = new Int32Array(256);
  pathLen = 0;

  /**
   * `eager`: every card next on its foundation counts as safe to send there (PlanStep.eager).
   * `horne`: a parked card also leaves its flipper for the card it builds on as soon as that card
   * is last in a column (PlanStep.horne); false while a manoeuvre plays its moves.
   */
  constructor(
    start: State,
    private readonly w: Weights,
    eager?: boolean,
    public horne = false,
  ) {
    this.s = start.clone();
    // The search keys positions itself (this.key): the engine's hash would only cost its moves.
    this.s.hashed = false;
    this.kids = buildersOf(this.s);
    this.key = new CanonicalKey(this.s);
    this.builders = eager ? NO_BUILDERS : buildersOf(this.s);
    this.held = new Uint32Array(CanonicalKey.words(this.s.nColumns));
    this.locateAll();
  }

  /**
   * score() reads two things off tables kept up to date by every move instead of scanning the
   * position: per column its cards out of sequence (outOf, re-counted only for the columns that
   * changed since the last score: most children of a node differ from it in two columns), and
   * where each card lies (where[card] = column * COLUMN_CAP + depth, −2 − i in flipper i, -1 home), so
   * the cards above the four next foundation cards are four look-ups.
   */
  private readonly outOf = new Int32Array(16);
  /** Per column the length of the sequence that grows from its deepest card (counted with outOf). */
  private readonly runOf = new Int32Array(16);
  /** Bit c set: column c changed since score() last counted it. */
  private stale = 0xffff;
  /** Where each card lies (see above), indexed by card; NO_CARD (255) stays -1. Read only. */
  readonly where = new Int16Array(256).fill(-1);

  /** Higher is more promising: cards home, room to move, few cards out of sequence. */
  score(): number {
    const s = this.s;
    const cards = s.cards;
    const lens = s.len;
    let out = 0;
    let empty = 0;
    for (let c = 0; c < s.nColumns; c++) {
      const n = lens[c]!;
      if (n === 0) {
        empty++;
        continue;
      }
      if ((this.stale >> c) & 1) {
        const buildOn = s.tables.buildOn;
        const b = c * COLUMN_CAP;
        // Cards above the sequence that grows from the column's deepest card are out of order.
        let run = 1;
        while (run < n && buildOn[cards[b + run]! * 52 + cards[b + run - 1]!] === 1) run++;
        this.runOf[c] = run;
        this.outOf[c] = this.loose(c, n, run);
      }
      out += this.outOf[c]!;
    }
    this.stale = 0;
    // Cards above the next card of each foundation (NO_CARD, when none is next, lies nowhere).
    const fc = s.tables.foundationCard;
    let bury = 0;
    for (let su = 0; su < 4; su++) {
      const at = this.where[fc[su * 14 + s.found[su]!]!]!;
      this.nextAt[su] = at;
      if (at >= 0) bury += lens[at >> 6]! - 1 - (at & 63);
    }
    this.free = s.freeCells();
    this.empty = empty;
    this.out = out;
    this.bury = bury;
    this.fresh = true;
    return this.sum(this.free, empty, out, bury);
  }

  /** The parts of the last score(), and whether they are still the current position's. */
  private free = 0;
  private empty = 0;
  private out = 0;
  private bury = 0;
  private fresh = false;
  /** Where the next card of each foundation lies (as `where`), as of the last score(). */
  private readonly nextAt = new Int16Array(4);
  /** The score of the position after the move peek() last accepted (its key: key.peekLo/peekHi). */
  peekScore = 0;

  /**
   * The score and key of the child that move m leads to, worked out from the move without
   * playing it, when that is simple: m sends no card home and uncovers none that would go home
   * at once, under suit foundations (the score's count of cards out of sequence then changes
   * only in the two columns, read off their sequence lengths). False: play the move to find out.
   * The child's key is key.peek(m) (left out here: the depth-first search looks a child up only
   * on entry).
   */
  peek(m: Move): boolean {
    const s = this.s;
    const from = m & 31;
    const to = (m >> 5) & 31;
    if (!this.#readable(m, this.estimate)) return false;
    if (!this.fresh) this.score();
    const k = (m >> 10) & 63;
    let free = this.free;
    let empty = this.empty;
    let out = this.out;
    let bury = this.bury;
    const rest = from < CELL0 ? s.len[from]! - k : -1;
    if (from >= CELL0) free++;
    else {
      if (rest === 0) empty++;
      out += this.loose(from, rest, Math.min(this.runOf[from]!, rest)) - this.outOf[from]!;
    }
    // A run lands on the card it builds on: the column's sequence grows if the column was all one.
    // (Into an empty column only a run that settles it may go under kings-only rules.)
    if (to >= CELL0) free--;
    else {
      const nt = s.len[to]!;
      const rt = this.runOf[to]!;
      if (nt === 0) empty--;
      else out += this.loose(to, nt + k, rt < nt ? rt : nt + k) - this.outOf[to]!;
    }
    for (let su = 0; su < 4; su++) {
      const at = this.nextAt[su]!;
      if (at < 0) continue;
      if (at >> 6 === to) bury += k;
      else if (at >> 6 === from && (at & 63) < rest) bury -= k;
    }
    this.peekScore =
      this.sum(free, empty, out, bury) + (this.estimate && this.#unparksAfter(m) ? this.w[1] : 0);
    return true;
  }

  /**
   * Under `horne`, peek() and peekManoeuvre() (without a key) score a child that a parked card
   * would follow as if it stayed parked, plus one free flipper, instead of declining it: the
   * order of a scored depth-first search needs only a score, and such a child is played when
   * its turn comes anyway, to be looked up.
   */
  estimate = false;

  /**
   * The key of the child that move m leads to (key.peekLo/peekHi), without playing it, when no
   * safe foundation move follows m: it sends no card home and uncovers none that would go home
   * at once. Suit foundations (CanonicalKey.peek). False: play the move to find out.
   */
  peekKey(m: Move): boolean {
    if (!this.#readable(m)) return false;
    this.key.peek(m);
    return true;
  }

  /** Whether the child of move m can be read off the move (peek, peekKey: the conditions above). */
  #readable(m: Move, parked = false): boolean {
    const from = m & 31;
    return !(
      ((m >> 5) & 31) === FOUNDATION ||
      m >>> 25 !== 0 ||
      this.s.tables.rankHome ||
      (!parked && this.#unparksAfter(m)) ||
      this.homeSafe(from, from < CELL0 ? this.s.len[from]! - ((m >> 10) & 63) : 0)
    );
  }

  /**
   * peek() for a manoeuvre (manoeuvre.ts): the score of the position it leads to, left in
   * peekScore without playing it, under the rules peek() needs. Its safe foundation moves are
   * foreseen when they all come from the top of its source column once it is done: the card
   * sent home, then any card it uncovers that is next and safe, and so on down. False (play it
   * to find out) when a card in the way would go home as it is uncovered, or when a safe
   * foundation move would come from anywhere else. A run of k cards at depth i of
   * column c goes onto the card at depth j of column t; a card home is one card at depth i.
   * `withKey`: also its key, in key.peekLo/peekHi. A manoeuvre that would win is played.
   */
  peekManoeuvre(code: number, withKey = false): boolean {
    const s = this.s;
    const t = (code >> 16) & 31;
    if (s.tables.rankHome || (t >= CELL0 && t !== FOUNDATION)) return false;
    if (!this.fresh) this.score();
    const run = t !== FOUNDATION;
    const c = code & 15;
    const i = (code >> 4) & 63;
    const k = (code >> 10) & 63;
    const j = (code >> 21) & 63;
    const n = s.len[c]!;
    const nt = run ? s.len[t]! : 0;
    // The cards in the way fill free flippers first, then empty columns (one card each: in sequence).
    const room = this.free - (n - i - k) - (run ? nt - 1 - j : 0);
    // (Only where any card may fill an empty column are they listed with cards going to one.)
    if (this.empty + room < 0) return false;
    // No card in the way may go home as it is uncovered (the run's own last card included). Until
    // one does, the foundations stay as they are, so a card that is next but not safe stays put.
    if (this.homeIn(c, run ? i + k - 1 : i + 1, n - 1) || (run && this.homeIn(t, j, nt - 1)))
      return false;
    // The safe foundation moves after it, played on the foundation counts alone and taken back below.
    const found = s.found;
    const f0 = found[0]!,
      f1 = found[1]!,
      f2 = found[2]!,
      f3 = found[3]!;
    let keep = i;
    let home = 0;
    if (!run) found[s.cards[c * COLUMN_CAP + i]! & 3]!++, home++;
    while (keep > 0) {
      const card = s.cards[c * COLUMN_CAP + keep - 1]!;
      if (!this.next(card) || !safeHome(s, this.builders, card)) break;
      found[card & 3]!++;
      home++;
      keep--;
    }
    let ok = true;
    let bury = 0;
    const fc = s.tables.foundationCard;
    for (let su = 0; su < 4 && ok; su++) {
      const card = fc[su * 14 + found[su]!]!;
      const at = this.where[card]!;
      if (card === NO_CARD) continue;
      const col = at >> 6;
      const d = at & 63;
      // Where the next card lies afterwards, and whether it is uncovered (in a flipper, moved out of the way, or a last card).
      let above: number;
      if (at < 0) above = -1;
      else if (col === c) above = d < keep ? keep - 1 - d : run && d < i + k ? i + k - 1 - d : -1;
      else if (run && col === t) above = d <= j ? j + k - d : -1;
      else above = s.len[col]! - 1 - d;
      if (above <= 0 && safeHome(s, this.builders, card)) ok = false;
      else if (above > 0) bury += above;
    }
    (found[0] = f0), (found[1] = f1), (found[2] = f2), (found[3] = f3);
    if (!ok || s.cardsHome() + home === 52) return false;
    let bonus = 0;
    if (
      this.horne &&
      (room < 0 ||
        this.#unparks(
          c,
          i + (run ? k : 1),
          run ? t : -1,
          j,
          keep > 0 ? s.cards[c * COLUMN_CAP + keep - 1]! : NO_CARD,
          run ? s.cards[c * COLUMN_CAP + i + k - 1]! : NO_CARD,
        ))
    ) {
      if (withKey || !this.estimate || room < 0) return false;
      bonus = this.w[1];
    }
    if (withKey) this.key.peekManoeuvre(c, keep, i, k, run ? t : -1, j, this.free);
    const free = Math.max(room, 0);
    const empty = this.empty + Math.min(room, 0) + (keep === 0 ? 1 : 0);
    // A prefix of p cards keeps min(p, the column's bottom run) in sequence; the run lands in sequence.
    let out = this.out - this.outOf[c]! + this.loose(c, keep, Math.min(this.runOf[c]!, keep));
    if (run) {
      const rt = this.runOf[t]!;
      out += this.loose(t, j + 1 + k, rt > j ? j + 1 + k : rt) - this.outOf[t]!;
    }
    this.peekScore = this.sum(free, empty, out, bury) + home * this.w[0] + bonus;
    return true;
  }

  /**
   * Under `horne`, whether a parked card would leave its flipper after move m, so the child is
   * more than m (peek then says no).
   */
  #unparksAfter(m: Move): boolean {
    if (!this.horne) return false;
    const s = this.s;
    const from = m & 31;
    const to = (m >> 5) & 31;
    if (from >= CELL0) return this.#unparks(-1, 64, to, 64, NO_CARD, s.cells[from - CELL0]!);
    // Column `from` keeps n cards; the card m parks is the one at depth n.
    const n = s.len[from]! - ((m >> 10) & 63);
    const b = from * COLUMN_CAP;
    return this.#unparks(
      from,
      to >= CELL0 && to !== FOUNDATION ? n : 64,
      to < CELL0 ? to : -1,
      64,
      n > 0 ? s.cards[b + n - 1]! : NO_CARD,
      to < CELL0 ? s.cards[b + s.len[from]! - 1]! : NO_CARD,
    );
  }

  /**
   * Whether a parked card would leave its flipper after a change that parks the cards of column
   * c from depth `from` on and those of column t above depth j, and leaves cards a and b last in
   * their columns (NO_CARD: none). The walker's positions have no such card (autoplay), so only
   * these need a look.
   */
  #unparks(c: number, from: number, t: number, j: number, a: number, b: number): boolean {
    const s = this.s;
    this.#c = c;
    this.#from = from;
    this.#t = t;
    this.#j = j;
    if (this.#kidParked(a) || this.#kidParked(b)) return true;
    for (let d = from; d < (c < 0 ? 0 : s.len[c]!); d++)
      if (this.#onLast(s.cards[c * COLUMN_CAP + d]!)) return true;
    for (let d = j + 1; d < (t < 0 ? 0 : s.len[t]!); d++)
      if (this.#onLast(s.cards[t * COLUMN_CAP + d]!)) return true;
    return false;
  }

  /** The change #unparks looks at. */
  #c = 0;
  #from = 0;
  #t = 0;
  #j = 0;

  /** Whether a card that may be built on p is parked after the change. */
  #kidParked(p: number): boolean {
    if (p === NO_CARD || this.s.tables.rel[p] === 0) return false;
    for (let i = p * 2; i < p * 2 + 2; i++) {
      const at = this.where[this.kids[i]!]!;
      if (
        at <= -2 ||
        (at >= 0 &&
          (at >> 6 === this.#c
            ? (at & 63) >= this.#from
            : at >> 6 === this.#t && (at & 63) > this.#j))
      )
        return true;
    }
    return false;
  }

  /** Whether a card that y may be built on stays last in a column the change leaves alone. */
  #onLast(y: number): boolean {
    const targets = this.s.tables.targets;
    for (let i = y * 2; i < y * 2 + 2 && targets[i]! >= 0; i++) {
      const at = this.where[targets[i]!]!;
      if (
        at >= 0 &&
        at >> 6 !== this.#c &&
        at >> 6 !== this.#t &&
        (at & 63) === this.s.len[at >> 6]! - 1 &&
        this.s.tables.rel[targets[i]!] !== 0
      )
        return true;
    }
    return false;
  }

  /** The score of the current position's cards home with these parts. */
  private sum(free: number, empty: number, out: number, bury: number): number {
    const w = this.w;
    return this.s.cardsHome() * w[0] + free * w[1] + empty * w[2] - out * w[3] - bury * w[4];
  }

  /**
   * Cards out of sequence in column c as score() counts them, were it n cards long with its
   * `run` deepest in sequence: under kings-only rules a run is settled only on a card of the last rank.
   */
  private loose(c: number, n: number, run: number): number {
    const t = this.s.tables;
    return (
      n - run + (t.emptyMode === 0 && t.rel[this.s.cards[c * COLUMN_CAP]!] !== 12 ? run >> 1 : 0)
    );
  }

  /** Whether the card is the next one its foundation takes. */
  private next(card: number): boolean {
    const s = this.s;
    return s.tables.foundationCard[(card & 3) * 14 + s.found[card & 3]!] === card;
  }

  /** Whether the last card of column c, were it n cards long, is next on its foundation and safe to send there (autoplay would). */
  homeSafe(c: number, n: number): boolean {
    const s = this.s;
    const card = n > 0 ? s.cards[c * COLUMN_CAP + n - 1]! : NO_CARD;
    return card !== NO_CARD && this.next(card) && safeHome(s, this.builders, card);
  }

  /** Whether a card at depth from .. to-1 of column c is next on its foundation and safe to send there. */
  private homeIn(c: number, from: number, to: number): boolean {
    for (let d = from; d < to; d++) if (this.homeSafe(c, d + 1)) return true;
    return false;
  }

  /** Records where the last k cards of column c lie. */
  private locateTop(c: number, k: number): void {
    const cards = this.s.cards;
    for (let d = this.s.len[c]! - k, e = d + k, b = c * COLUMN_CAP; d < e; d++)
      this.where[cards[b + d]!] = b + d;
  }

  /** Re-reads where every card lies and every column's count. */
  private locateAll(): void {
    this.fresh = false;
    this.where.fill(-1);
    for (let c = 0; c < this.s.nColumns; c++) this.locateTop(c, this.s.len[c]!);
    for (let i = 0; i < this.s.nCells; i++) this.where[this.s.cells[i]!] = -2 - i;
    this.where[NO_CARD] = -1;
    this.stale = 0xffff;
  }

  /** After applying m: the columns it changed are stale, the cards it moved lie elsewhere. */
  private moved(m: Move): void {
    this.fresh = false;
    const from = m & 31;
    const to = (m >> 5) & 31;
    if (from < CELL0) {
      this.stale |= 1 << from;
      this.sinceHeld |= 1 << from;
    }
    if (to < CELL0) {
      this.stale |= 1 << to;
      this.sinceHeld |= 1 << to;
      this.locateTop(to, (m >> 10) & 63);
    } else this.where[(m >> 16) & 63] = to === FOUNDATION ? -1 : CELL0 - 2 - to;
    // Base cards that went home with the move (penguin-beak-home).
    for (let i = (m >>> 25) & 3; i > 0; i--)
      this.where[this.s.base * 4 + autoHomeSuit(m, i - 1)] = -1;
  }

  /** After taking m back: the same, the other way. */
  private unmoved(m: Move): void {
    this.fresh = false;
    const from = m & 31;
    const to = (m >> 5) & 31;
    if (to < CELL0) this.stale |= 1 << to;
    if (from < CELL0) {
      this.stale |= 1 << from;
      this.locateTop(from, ((m >> 10) & 63) + ((m >>> 25) & 3));
    } else this.where[(m >> 16) & 63] = CELL0 - 2 - from;
  }

  /**
   * After the position was overwritten other than by moves: re-read it, and re-hash it or take
   * its key from `keys` at `at` (CanonicalKey.save on the same position).
   */
  reload(keys?: Uint32Array, at = 0): void {
    if (keys) this.key.load(keys, at);
    else this.key.reset();
    this.heldAt = -1;
    this.locateAll();
  }

  /** The moves since the walk's origin as a plain array (a loop: Array.from on a typed array walks an iterator). */
  moves(): number[] {
    const out = new Array<number>(this.pathLen);
    for (let i = 0; i < out.length; i++) out[i] = this.path[i]!;
    return out;
  }

  /** Starts over from `start`, a position of the same rules: as a new walker would, without allocating. */
  restart(start: State): void {
    this.s.copyFrom(start);
    this.pathLen = 0;
    this.sinceHeld = 0;
    this.reload();
  }

  apply(m: Move): void {
    applyMove(this.s, m);
    this.moved(m);
    this.key.toggleMove(m);
    this.key.recompute();
    if (this.pathLen === this.path.length) this.path = grow(this.path, this.pathLen * 2);
    this.path[this.pathLen++] = m;
  }

  /**
   * Keeps the key of the current position, so that undoTo back to this path length copies it
   * back instead of taking every move's key change back (a node's children are each tried and
   * taken back in turn). Good until the walk goes back past this point or restarts.
   */
  hold(): void {
    this.key.save(this.held, 0);
    this.heldAt = this.pathLen;
    this.sinceHeld = 0;
  }

  /** The current position becomes the origin of the path (its moves are forgotten). */
  rebase(): void {
    this.pathLen = 0;
    this.heldAt = -1;
  }

  undoTo(len: number): void {
    if (this.pathLen === len) return;
    if (len === this.heldAt) {
      while (this.pathLen > len) {
        const m = this.path[--this.pathLen]!;
        undoMove(this.s, m);
        this.unmoved(m);
      }
      this.key.load(this.held, 0, this.sinceHeld);
      this.sinceHeld = 0;
      return;
    }
    if (len < this.heldAt) this.heldAt = -1;
    while (this.pathLen > len) {
      const m = this.path[--this.pathLen]!;
      this.key.toggleMove(m);
      undoMove(this.s, m);
      this.unmoved(m);
    }
    this.key.recompute();
  }

  /**
   * Safe foundation moves after move m from a position that had none left. Foundations are
   * unchanged unless m went home (or carried base cards home with it), so otherwise the only new
   * candidate is the card m uncovered.
   */
  autoplayAfter(m: Move): void {
    const from = m & 31;
    if (!this.horne && ((m >> 5) & 31) !== FOUNDATION && ((m >>> 25) & 3) === 0) {
      if (from >= CELL0 || !this.homeSafe(from, this.s.len[from]!)) return;
    }
    this.autoplay();
  }

  /**
   * The start every search shares: the root's safe foundation moves, then the root's key in
   * `table`. Returns the verdict when that already decides, else null.
   */
  enterRoot(table: TranspositionTable): "solved" | "max-states" | null {
    this.autoplay();
    if (this.s.isWon()) return "solved";
    return table.add(this.key.keyLo, this.key.keyHi) === FULL ? "max-states" : null;
  }

  /**
   * Plays every safe foundation move, repeatedly, onto the path: passes over the columns in
   * order, then the flippers, until a pass finds none (one call site of apply: a smaller
   * function to compile).
   */
  autoplay(): void {
    for (let again = true; again; ) {
      again = false;
      for (let from = this.nextHome(0); from >= 0; from = this.nextHome(from + 1)) {
        this.apply(homeMove(this.s, from)); // with any base card it uncovers (penguin-beak-home)
        again = true;
      }
      if (this.horne) again = this.#unpark() || again;
    }
  }

  /** Under `horne`: moves each parked card whose card to build on is last in a column onto it; true if any moved. */
  #unpark(): boolean {
    const s = this.s;
    let moved = false;
    for (let i = 0; i < s.nCells; i++) {
      const y = s.cells[i]!;
      if (y === NO_CARD) continue;
      for (let j = y * 2; j < y * 2 + 2; j++) {
        const p = s.tables.targets[j]!;
        if (p < 0) break;
        const at = this.where[p]!;
        // Never onto a base card (Penguin's wrap), which may have to go home first.
        if (at >= 0 && (at & 63) === s.len[at >> 6]! - 1 && s.tables.rel[p] !== 0) {
          this.apply(makeMove(CELL0 + i, at >> 6, 1, y));
          moved = true;
          break;
        }
      }
    }
    return moved;
  }

  /**
   * The pass's next source of a safe foundation move from `from` on (columns, then flippers from
   * CELL0), or -1. Only the (at most four) cards next on their foundations can go, so instead of
   * reading every column and flipper the pass looks those up where they lie (`where`).
   */
  private nextHome(from: number): number {
    const s = this.s;
    const fc = s.tables.foundationCard;
    let best = -1;
    for (let su = 0; su < 4; su++) {
      const card = fc[su * 14 + s.found[su]!]!;
      const at = this.where[card]!;
      // A column's last card, or a card in a flipper, as a place in the pass's order.
      const p = at >= 0 ? ((at & 63) === s.len[at >> 6]! - 1 ? at >> 6 : -1) : CELL0 - 2 - at;
      if (at !== -1 && p >= from && (best < 0 || p < best) && safeHome(s, this.builders, card))
        best = p;
    }
    return best;
  }
}

/** The leftmost empty column, or -1: every search tries a move into an empty column only there. */
export function firstEmptyColumn(s: State): number {
  for (let c = 0; c < s.nColumns; c++) if (s.len[c] === 0) return c;
  return -1;
}

/** A move into an empty column other than the leftmost: the same position as that one, mirrored. */
export function mirroredEmptyMove(m: Move, firstEmpty: number): boolean {
  return moveToEmpty(m) && moveTo(m) !== firstEmpty;
}

/** A copy of `a` with room for `cap` elements (the same kind of array). */
export function grow<T extends Int32Array | Uint32Array | Uint8Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}
