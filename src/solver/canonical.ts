/**
 * What the search needs to know about a position beyond the engine: a key that ignores which
 * column or flipper holds what, and which foundation moves are safe to make without asking.
 *
 * Canonical key. Solvability does not change when columns or flippers are relabelled, so two
 * positions that differ only that way are one node of the search. Each column gets a Zobrist hash
 * over (depth, card) that does not depend on the column's index, passed through a non-linear mix;
 * the key is the sum of the mixed column hashes (a sum does not care about order) plus the XOR
 * of the flipper cards' keys. Suit foundations need no term: every card not in the tableau or a
 * flipper is home, and foundations fill in order. Rank foundations (Stalactites) do: the same
 * cards home can be split between them in more than one way, so their counts are mixed in. The
 * mix matters: a plain XOR over (depth, card) would give the same key to columns [A B],[C D]
 * and [A D],[C B].
 *
 * Safe foundation moves. A card c that is next on its foundation may go home at once, keeping a
 * won game won, when every card that could ever be built on c in the tableau is already home:
 * then c stays the last card of its column or sits in a flipper until it goes home, and deleting
 * c's moves from any winning line (shortening the group moves it rides in at the tail) leaves a
 * legal winning line that is no longer (docs/solver.md gives the argument). In suit-building
 * rules the builder of c is the card just below it in its suit, already home, so this is every
 * foundation move (docs/rules.md), with one exception: under Penguin's wrap the rank below the base
 * may be built on the beak, so the beak is not autoplayed (the search still tries it first).
 * In FreeCell it is the usual rule: both opposite-colour cards one rank lower are home.
 */
import { NO_CARD } from "../engine/card.js";
import { autoHomeSuit, CELL0, FOUNDATION } from "../engine/moves.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import { fmix32, keyTable } from "../util/rng.js";

const DEPTH_KEYS = COLUMN_CAP * 52;
/** Key i's low half at 2i, its high half at 2i + 1: both in one cache line. */
// A fixed table, so keys, and so search order and figures, repeat exactly.
const KEYS = keyTable(0x50e1c0de, 2 * (DEPTH_KEYS + 52));
const CELL_KEYS = DEPTH_KEYS;

/** A column's mixed hash from its raw Zobrist hash (two halves). */
const mixLo = (lo: number, hi: number): number => fmix32(lo ^ Math.imul(hi, 0x9e3779b1));
const mixHi = (lo: number, hi: number): number =>
  fmix32(hi ^ Math.imul(lo ^ 0x7f4a7c15, 0x85ebca77));
/** An empty column's raw hash, and its mixed halves. */
const EMPTY_LO = 0x2545f491;
const EMPTY_HI = 0x6b43a9b5;
const EMPTY_MIX_LO = mixLo(EMPTY_LO, EMPTY_HI);
const EMPTY_MIX_HI = mixHi(EMPTY_LO, EMPTY_HI);

/** Keeps the canonical key of one State up to date as moves are made and taken back. */
export class CanonicalKey {
  /** Per column: the raw Zobrist hash, and the mixed value the key sums. */
  private readonly rawLo = new Uint32Array(16);
  private readonly rawHi = new Uint32Array(16);
  private readonly colLo = new Uint32Array(16);
  private readonly colHi = new Uint32Array(16);
  keyLo = 0;
  keyHi = 0;
  /** Kept up to date by every change, so the key costs nothing to read back. */
  private sumLo = 0;
  private sumHi = 0;
  private cellLo = 0;
  private cellHi = 0;

  constructor(private readonly s: State) {
    this.reset();
  }

  /** Re-hashes the whole position, after it was overwritten other than by moves. */
  reset(): void {
    const s = this.s;
    this.colLo.fill(0);
    this.colHi.fill(0);
    this.sumLo = this.sumHi = 0;
    for (let c = 0; c < s.nColumns; c++) this.refreshColumn(c);
    this.cellLo = this.cellHi = 0;
    for (let i = 0; i < s.nCells; i++) {
      const card = s.cells[i]!;
      if (card !== NO_CARD) {
        this.cellLo ^= KEYS[(CELL_KEYS + card) * 2]!;
        this.cellHi ^= KEYS[(CELL_KEYS + card) * 2 + 1]!;
      }
    }
    this.recompute();
  }

  /** Words save() writes for a position of n columns. */
  static words(nColumns: number): number {
    return 4 * nColumns + 4;
  }

  /** Writes the key's whole state at out[at ..], so load() can put it back without re-hashing. */
  save(out: Uint32Array, at: number): void {
    const n = this.s.nColumns;
    for (let c = 0; c < n; c++) {
      out[at++] = this.rawLo[c]!;
      out[at++] = this.rawHi[c]!;
      out[at++] = this.colLo[c]!;
      out[at++] = this.colHi[c]!;
    }
    out[at++] = this.sumLo;
    out[at++] = this.sumHi;
    out[at++] = this.cellLo;
    out[at] = this.cellHi;
  }

  /**
   * The state save() wrote, for the position it was saved on (now back in the State). `columns`:
   * a bit per column that changed since the save (the others are read as they are); default all.
   */
  load(from: Uint32Array, at: number, columns = -1): void {
    const n = this.s.nColumns;
    for (let c = 0; c < n; c++, at += 4) {
      if (((columns >> c) & 1) === 0) continue;
      this.rawLo[c] = from[at]!;
      this.rawHi[c] = from[at + 1]!;
      this.colLo[c] = from[at + 2]!;
      this.colHi[c] = from[at + 3]!;
    }
    this.sumLo = from[at++]! | 0;
    this.sumHi = from[at++]! | 0;
    this.cellLo = from[at++]! | 0;
    this.cellHi = from[at]! | 0;
    this.recompute();
  }

  /** Re-hashes column c after its cards changed. */
  refreshColumn(c: number): void {
    const s = this.s;
    const base = c * COLUMN_CAP;
    let lo = EMPTY_LO;
    let hi = EMPTY_HI;
    for (let d = 0, n = s.len[c]!; d < n; d++) {
      const k = d * 52 + s.cards[base + d]!;
      lo ^= KEYS[k * 2]!;
      hi ^= KEYS[k * 2 + 1]!;
    }
    this.rawLo[c] = lo;
    this.rawHi[c] = hi;
    this.mix(c);
  }

  private mix(c: number): void {
    const lo = this.rawLo[c]!;
    const hi = this.rawHi[c]!;
    const nl = mixLo(lo, hi);
    const nh = mixHi(lo, hi);
    this.sumLo = (this.sumLo - this.colLo[c]! + nl) | 0;
    this.sumHi = (this.sumHi - this.colHi[c]! + nh) | 0;
    this.colLo[c] = nl;
    this.colHi[c] = nh;
  }

  /** The key after move m, left in peekLo/peekHi without playing m: only for a move that sends no card home (suit foundations). */
  peekLo = 0;
  peekHi = 0;
  peek(m: number): void {
    const s = this.s;
    const from = m & 31;
    const to = (m >> 5) & 31;
    const k = (m >> 10) & 63;
    let cl = this.cellLo;
    let ch = this.cellHi;
    let sl = this.sumLo;
    let sh = this.sumHi;
    if (from >= CELL0 || to >= CELL0) {
      const kc = CELL_KEYS + ((m >> 16) & 63);
      cl ^= KEYS[kc * 2]!;
      ch ^= KEYS[kc * 2 + 1]!;
    }
    // The moved cards lie at b .. b+k-1 (from a flipper: the move's card alone).
    const b = from < CELL0 ? from * COLUMN_CAP + this.s.len[from]! - k : -1;
    if (from < CELL0) {
      let fl = this.rawLo[from]!;
      let fh = this.rawHi[from]!;
      for (let i = 0, d = b - from * COLUMN_CAP; i < k; i++) {
        const kf = (d + i) * 52 + s.cards[b + i]!;
        fl ^= KEYS[kf * 2]!;
        fh ^= KEYS[kf * 2 + 1]!;
      }
      sl = (sl - this.colLo[from]! + mixLo(fl, fh)) | 0;
      sh = (sh - this.colHi[from]! + mixHi(fl, fh)) | 0;
    }
    if (to < CELL0) {
      let tl = this.rawLo[to]!;
      let th = this.rawHi[to]!;
      for (let i = 0, d = s.len[to]!; i < k; i++) {
        const kt = (d + i) * 52 + (b < 0 ? (m >> 16) & 63 : s.cards[b + i]!);
        tl ^= KEYS[kt * 2]!;
        th ^= KEYS[kt * 2 + 1]!;
      }
      sl = (sl - this.colLo[to]! + mixLo(tl, th)) | 0;
      sh = (sh - this.colHi[to]! + mixHi(tl, th)) | 0;
    }
    this.peekLo = (sl ^ cl) >>> 0;
    this.peekHi = (sh ^ ch) >>> 0;
  }

  /**
   * peekLo/peekHi for the position a manoeuvre leads to, without playing it (Walker.peekManoeuvre):
   * column c keeps its first `keep` cards; a run of k cards at depth i goes onto column t above
   * depth j (t < 0: none); the cards in the way (t's above j, then c's above i + k, each top first)
   * fill `free` flippers, then empty columns.
   */
  peekManoeuvre(
    c: number,
    keep: number,
    i: number,
    k: number,
    t: number,
    j: number,
    free: number,
  ): void {
    const s = this.s;
    const cards = s.cards;
    let cl = this.cellLo;
    let ch = this.cellHi;
    let sl = this.sumLo;
    let sh = this.sumHi;
    for (let pass = 0; pass < 2; pass++) {
      const col = pass === 0 ? t : c;
      if (col < 0) continue;
      for (let d = s.len[col]! - 1, e = pass === 0 ? j : i + k - 1; d > e; d--) {
        const card = cards[col * COLUMN_CAP + d]!;
        if (free-- > 0) {
          cl ^= KEYS[(CELL_KEYS + card) * 2]!;
          ch ^= KEYS[(CELL_KEYS + card) * 2 + 1]!;
        } else {
          // An empty column becomes a column of this one card.
          const lo = EMPTY_LO ^ KEYS[card * 2]!;
          const hi = EMPTY_HI ^ KEYS[card * 2 + 1]!;
          sl = (sl - EMPTY_MIX_LO + mixLo(lo, hi)) | 0;
          sh = (sh - EMPTY_MIX_HI + mixHi(lo, hi)) | 0;
        }
      }
    }
    let fl = this.rawLo[c]!;
    let fh = this.rawHi[c]!;
    for (let d = keep, n = s.len[c]!; d < n; d++) {
      const kf = d * 52 + cards[c * COLUMN_CAP + d]!;
      fl ^= KEYS[kf * 2]!;
      fh ^= KEYS[kf * 2 + 1]!;
    }
    sl = (sl - this.colLo[c]! + mixLo(fl, fh)) | 0;
    sh = (sh - this.colHi[c]! + mixHi(fl, fh)) | 0;
    if (t >= 0) {
      let tl = this.rawLo[t]!;
      let th = this.rawHi[t]!;
      for (let d = j + 1, n = s.len[t]!; d < n; d++) {
        const kt = d * 52 + cards[t * COLUMN_CAP + d]!;
        tl ^= KEYS[kt * 2]!;
        th ^= KEYS[kt * 2 + 1]!;
      }
      for (let x = 0; x < k; x++) {
        const kt = (j + 1 + x) * 52 + cards[c * COLUMN_CAP + i + x]!;
        tl ^= KEYS[kt * 2]!;
        th ^= KEYS[kt * 2 + 1]!;
      }
      sl = (sl - this.colLo[t]! + mixLo(tl, th)) | 0;
      sh = (sh - this.colHi[t]! + mixHi(tl, th)) | 0;
    }
    this.peekLo = (sl ^ cl) >>> 0;
    this.peekHi = (sh ^ ch) >>> 0;
  }

  /**
   * Updates the column hashes for move m, called on the position AFTER m (right after applying
   * it, or right before undoing it: XOR makes both the same update). Call recompute() after.
   */
  toggleMove(m: number): void {
    const s = this.s;
    const from = m & 31;
    const to = (m >> 5) & 31;
    if (from >= CELL0 || (to >= CELL0 && to < FOUNDATION)) {
      const kc = CELL_KEYS + ((m >> 16) & 63);
      this.cellLo ^= KEYS[kc * 2]!;
      this.cellHi ^= KEYS[kc * 2 + 1]!;
    }
    if (from < CELL0) {
      // Base cards that went home with the move (penguin-beak-home) lay just under the moved cards.
      const auto = (m >>> 25) & 3;
      const la = s.len[from]! + auto;
      for (let i = 0; i < auto; i++) {
        const k = (la - 1 - i) * 52 + s.base * 4 + autoHomeSuit(m, i);
        this.rawLo[from] = this.rawLo[from]! ^ KEYS[k * 2]!;
        this.rawHi[from] = this.rawHi[from]! ^ KEYS[k * 2 + 1]!;
      }
      if (to < CELL0) {
        const k = (m >> 10) & 63;
        const lb = s.len[to]!;
        const b = to * COLUMN_CAP + lb - k;
        let fl = this.rawLo[from]!;
        let fh = this.rawHi[from]!;
        let tl = this.rawLo[to]!;
        let th = this.rawHi[to]!;
        for (let i = 0; i < k; i++) {
          const card = s.cards[b + i]!;
          const kf = (la + i) * 52 + card;
          const kt = (lb - k + i) * 52 + card;
          fl ^= KEYS[kf * 2]!;
          fh ^= KEYS[kf * 2 + 1]!;
          tl ^= KEYS[kt * 2]!;
          th ^= KEYS[kt * 2 + 1]!;
        }
        this.rawLo[from] = fl;
        this.rawHi[from] = fh;
        this.rawLo[to] = tl;
        this.rawHi[to] = th;
        this.mix(from);
        this.mix(to);
      } else {
        const kf = la * 52 + ((m >> 16) & 63);
        this.rawLo[from] = this.rawLo[from]! ^ KEYS[kf * 2]!;
        this.rawHi[from] = this.rawHi[from]! ^ KEYS[kf * 2 + 1]!;
        this.mix(from);
      }
    } else if (to < CELL0) {
      const kt = (s.len[to]! - 1) * 52 + ((m >> 16) & 63);
      this.rawLo[to] = this.rawLo[to]! ^ KEYS[kt * 2]!;
      this.rawHi[to] = this.rawHi[to]! ^ KEYS[kt * 2 + 1]!;
      this.mix(to);
    }
  }

  /** Leaves the key (sum of the column hashes, plus the flipper set) in keyLo/keyHi. */
  recompute(): void {
    let cl = this.cellLo;
    let ch = this.cellHi;
    if (this.s.tables.rankHome) {
      const f = this.s.found;
      const counts = f[0]! | (f[1]! << 4) | (f[2]! << 8) | (f[3]! << 12);
      cl ^= fmix32(counts ^ 0x3c6ef372);
      ch ^= fmix32(counts ^ 0xa54ff53a);
    }
    this.keyLo = (this.sumLo ^ cl) >>> 0;
    this.keyHi = (this.sumHi ^ ch) >>> 0;
  }
}

/** buildersOf per rule tables: every search of a plan starts a walker, and the table never changes. */
const buildersCache = new WeakMap<object, Uint8Array>();

/**
 * For each card, the cards that may be built on it in the tableau (at most two), as a flat
 * table: builders[c * 2 + i], NO_CARD when absent. Shared: do not write to it.
 */
export function buildersOf(s: State): Uint8Array {
  const known = buildersCache.get(s.tables);
  if (known) return known;
  const out = new Uint8Array(104).fill(NO_CARD);
  const buildOn = s.tables.buildOn;
  for (let c = 0; c < 52; c++) {
    let k = 0;
    for (let b = 0; b < 52; b++) if (buildOn[b * 52 + c] === 1) out[c * 2 + k++] = b;
  }
  buildersCache.set(s.tables, out);
  return out;
}

/** True when no card that could be built on `card` is still in play (see the file comment). */
export function safeHome(s: State, builders: Uint8Array, card: number): boolean {
  // Rank foundations: which card of a rank goes up, and onto which foundation, can decide the
  // game, so no move home is made without the search trying the alternatives.
  if (s.tables.rankHome) return false;
  const rel = s.tables.rel;
  for (let i = 0; i < 2; i++) {
    const b = builders[card * 2 + i]!;
    if (b !== NO_CARD && rel[b]! >= s.found[b & 3]!) return false;
  }
  return true;
}
