/**
 * Depth-first search over canonical positions (the plan's complete strategy). Iterative, on an
 * explicit stack of typed arrays. Each node is a position after its safe foundation moves;
 * children are every legal move (each followed by its safe foundation moves), tried best
 * first by the walker's score, and a child is entered only when its key is new. So a run that
 * empties its stack has visited every reachable node (docs/solver.md: why that proves a loss).
 */
import { CELL0, FOUNDATION, generateMoves, MAX_MOVES } from "../engine/moves.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import { fmix32 } from "../util/rng.js";
import {
  hasManoeuvres,
  isManoeuvre,
  leftOut,
  listManoeuvres,
  listPurposeful,
  parkRuns,
  parkWhole,
  playManoeuvre,
} from "./manoeuvre.js";
import { FULL, PRESENT, TranspositionTable } from "./transposition.js";
import { firstEmptyColumn, grow, mirroredEmptyMove, Walker, type Weights } from "./walker.js";

/** How a strategy run ended: a win left on the walker's path, every node seen, or a budget. */
export type RunEnd = "solved" | "exhausted" | "max-states" | "timeout";
/** run() may also stop early, resumable, once its table holds `stopAt` positions. */
export type RunStop = RunEnd | "paused";
import type { DfsOrder } from "./plan.js";
export type { DfsOrder };

/**
 * A move's class, higher first, read off the move and position without playing it: home;
 * flipper to column; a group onto a column, uncovering a card it was not built on (the more
 * cards the better); into an empty column; a card from a column into a flipper when it was not
 * built on its neighbour; the rest (moves that break a built sequence). Tuned on FreeCell MS
 * 1–300 (empty columns before flippers halved the median search).
 */
function moveClass(s: State, m: number): number {
  const from = m & 31;
  const to = (m >> 5) & 31;
  if (to === FOUNDATION) return 100;
  if (from >= CELL0) return (m >> 22) & 1 ? 40 : 90;
  const count = (m >> 10) & 63;
  const under = s.len[from]! - count - 1;
  const onParent =
    under >= 0 &&
    s.tables.buildOn[((m >> 16) & 63) * 52 + s.cards[from * COLUMN_CAP + under]!] === 1;
  if (to < CELL0 && !((m >> 22) & 1)) return onParent ? 10 : 70 + count;
  if (to >= CELL0) return onParent ? 5 : under < 0 ? 20 : 30;
  return onParent ? 8 : 45 + count;
}

/**
 * A manoeuvre's class (manoeuvre.ts), on moveClass's scale: a card home under the cards in the
 * way, just below a card home at once; a run onto the card it builds on, in the middle (a longer
 * run higher); each card that must go out of the way costs a step. The best of a few variants on
 * Penguin MS 1-1000 and Eight Off MS 1-500; a random search over these numbers and moveClass's
 * (MS 1001-1500) found none clearly better.
 */
function manoeuvreClass(s: State, code: number): number {
  const c = code & 15;
  const k = (code >> 10) & 63;
  const dst = (code >> 16) & 31;
  const away =
    s.len[c]! - ((code >> 4) & 63) - k + (dst < CELL0 ? s.len[dst]! - 1 - ((code >> 21) & 63) : 0);
  return dst === FOUNDATION ? 95 - away : 60 + k - away;
}

// Scratch for one expand() call at a time, shared by every search (a plan starts several).
const SCRATCH = new Int32Array(MAX_MOVES);
const KIDS = new Int32Array(MAX_MOVES);
const SCORES = new Int32Array(MAX_MOVES);
const RANKS = new Int32Array(MAX_MOVES);
/**
 * The last child of a purpose-order node: its runs onto their cards, listed only when the search
 * is back at the node with all else tried (a manoeuvre from column 15, which no rule set has).
 */
const RUNS_LATER = 0x7fffffff;

/** The search stack may hold at most this many move ints (4 bytes each) before it gives up. */
const MAX_POOL = 1 << 25;

export class DepthFirst {
  readonly walk: Walker;
  readonly table: TranspositionTable;
  /** Children of every open node, best first; frame f owns pool[start[f] .. end[f]). */
  private pool: Int32Array = new Int32Array(512);
  private poolTop = 0;
  private fStart: Int32Array = new Int32Array(64);
  private fNext: Int32Array = new Int32Array(64);
  private fEnd: Int32Array = new Int32Array(64);
  /** pathLen at each open node. */
  private fPath: Int32Array = new Int32Array(64);
  private frames = 0;

  /**
   * `score`: children are tried best first by the walker's score (each child is scored when
   * listed, most of them without being played, and looked up at its turn); `manoeuvre`: the
   * same, with the manoeuvres (manoeuvre.ts) among the children. `engine`: in the engine's
   * order, looked up only when entered, which costs about half as much per node; order does not
   * matter to a search that has to visit every node anyway to prove a deal lost. `lean` leaves out single moves into a flipper (see leftOut):
   * the search is then no longer complete.
   */
  constructor(
    start: State,
    maxStates: number,
    w: Weights,
    private readonly order: DfsOrder = "score",
    shared?: { left: number },
    private readonly lean = false,
    private readonly jitter = 0,
    seed = 0,
    eager?: boolean,
    horne?: boolean,
    singleParks = false,
    complete = false,
    private readonly emptyFrom = 0,
  ) {
    this.seedMix = fmix32(seed ^ 0x5bd1e995);
    this.plain = order !== "score" && order !== "manoeuvre";
    this.runs = !lean && !singleParks && parkRuns(start);
    // Horne's prune keeps a complete search complete only where whole runs are parked
    // (docs/solver.md, "Whole runs parked"); elsewhere a complete search goes without it.
    this.walk = new Walker(start, w, eager, horne && (!complete || this.runs));
    this.walk.estimate = !this.plain;
    this.table = new TranspositionTable(maxStates, shared);
  }
  /** A card that sits on the card it builds on is parked only with its whole run (parkWhole). */
  private readonly runs: boolean;

  /** Ready for a new search from `start` (same rules) with these budgets, keeping its arrays. */
  restart(start: State, maxStates: number, shared?: { left: number }): void {
    this.walk.restart(start);
    this.table.restart(maxStates, shared);
    this.frames = this.poolTop = 0;
    this.started = false;
  }

  private started = false;
  /** Children listed without being scored (engine or class order). */
  private readonly plain: boolean;
  private readonly seedMix: number;
  /** The jitter's noise for the node being expanded (its key mixed with the seed). */
  private nodeMix = 0;

  /** Searches until a verdict, a budget, or (resumable: call again) `stopAt` stored positions. */
  run(deadline: number, stopAt = Infinity): RunStop {
    const walk = this.walk;
    if (!this.started) {
      this.started = true;
      const decided = walk.enterRoot(this.table);
      if (decided !== null) return decided;
      if (this.expand()) return "solved";
    }
    let tick = 0;
    while (this.frames > 0) {
      if (this.table.size >= stopAt) return "paused";
      const f = this.frames - 1;
      if (this.fNext[f] === this.fEnd[f]) {
        this.poolTop = this.fStart[f]!;
        this.frames--;
        if (this.frames > 0) walk.undoTo(this.fPath[this.frames - 1]!);
        continue;
      }
      const next = this.fNext[f]!;
      this.fNext[f] = next + 1;
      const m = this.pool[next]!;
      let r: number;
      if (isManoeuvre(walk.s, m)) {
        // The node's runs onto their cards: listed now, as a frame of their own at the same node.
        if (m === RUNS_LATER) {
          if (this.listPurpose(true) === null) return "max-states";
          continue;
        }
        if (!playManoeuvre(walk, m)) {
          walk.undoTo(this.fPath[f]!);
          continue;
        }
        r = this.table.add(walk.key.keyLo, walk.key.keyHi);
      } else if (walk.peekKey(m)) {
        // Most children are listed without being looked up: when a child's key can be read off
        // its move (no safe foundation move follows it), it is stored, or skipped as seen, before
        // it is played. Looking it up here rather than when listed visits the same nodes in the
        // same order, and most listed children are never reached.
        r = this.table.add(walk.key.peekLo, walk.key.peekHi);
        if (r === PRESENT) continue;
        walk.apply(m);
      } else {
        walk.apply(m);
        walk.autoplayAfter(m);
        r = this.table.add(walk.key.keyLo, walk.key.keyHi);
      }
      if (r === PRESENT) {
        walk.undoTo(this.fPath[f]!);
        continue;
      }
      if (r === FULL) return "max-states";
      if (walk.s.isWon()) return "solved";
      if ((++tick & 255) === 0 && performance.now() > deadline) return "timeout";
      const won = this.expand();
      if (won === true) return "solved";
      if (won === null) return "max-states";
    }
    return "exhausted";
  }

  /**
   * Lists the children of the current node, best first, as a new frame. Returns true (and leaves
   * the winning child applied) when a child is won, null when the stack budget is spent.
   */
  private expand(): boolean | null {
    if (this.plain) return this.expandPlain();
    const walk = this.walk;
    const s = walk.s;
    const n = generateMoves(s, SCRATCH);
    const firstEmpty = firstEmptyColumn(s);
    const here = walk.pathLen;
    walk.hold();
    this.nodeMix = walk.key.keyLo ^ this.seedMix;
    const free = this.runs ? s.freeCells() : 0;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const m = SCRATCH[i]!;
      // Empty columns are interchangeable: the same move into another one is the same node.
      if (mirroredEmptyMove(m, firstEmpty)) continue;
      if (this.lean && leftOut(s, m)) continue;
      const whole = this.runs ? parkWhole(s, m, free) : m;
      if (whole !== m) {
        if (
          whole !== -1 &&
          playManoeuvre(walk, whole) &&
          !this.table.has(walk.key.keyLo, walk.key.keyHi)
        )
          this.insertKid(k++, whole, walk.score());
        walk.undoTo(here);
        continue;
      }
      // Most children are scored without being played (a move that sends no card home cannot
      // win), and looked up only if run() reaches them.
      if (walk.peek(m)) {
        this.insertKid(k++, m, walk.peekScore);
        continue;
      }
      walk.apply(m);
      walk.autoplayAfter(m);
      if (s.isWon()) return true;
      if (!this.table.has(walk.key.keyLo, walk.key.keyHi)) {
        this.insertKid(k++, m, walk.score());
      }
      walk.undoTo(here);
    }
    if (this.order === "manoeuvre" && hasManoeuvres(s)) {
      const e = listManoeuvres(walk, SCRATCH);
      for (let i = 0; i < e; i++) {
        const m = SCRATCH[i]!;
        // Most are scored without being played: run() plays one when its turn comes, and skips it if seen by then.
        if (walk.peekManoeuvre(m)) {
          this.insertKid(k++, m, walk.peekScore);
          continue;
        }
        if (playManoeuvre(walk, m)) {
          if (s.isWon()) return true;
          if (!this.table.has(walk.key.keyLo, walk.key.keyHi)) this.insertKid(k++, m, walk.score());
        }
        walk.undoTo(here);
      }
    }
    return this.pushFrame(k, here);
  }

  /** Puts child m into kids[0..k] by insertion sort, best score first; ties keep the engine's order. */
  private insertKid(k: number, m: number, score: number): void {
    if (this.jitter > 0) score += fmix32(this.nodeMix ^ Math.imul(m, 0x9e3779b1)) % this.jitter;
    let j = k;
    while (j > 0 && SCORES[j - 1]! < score) {
      SCORES[j] = SCORES[j - 1]!;
      KIDS[j] = KIDS[j - 1]!;
      j--;
    }
    SCORES[j] = score;
    KIDS[j] = m;
  }

  /**
   * expand() without scoring: the children in the engine's order, or by move class (with
   * manoeuvres among them in `static-manoeuvre`), or only those with a purpose, by class
   * (`purpose`: listPurposeful).
   */
  private expandPlain(): boolean | null {
    const s = this.walk.s;
    // (Without manoeuvres in the rules, it lists as `static` does.)
    if (this.order === "purpose" && hasManoeuvres(s)) return this.listPurpose(false);
    const n = generateMoves(s, SCRATCH);
    const firstEmpty = firstEmptyColumn(s);
    let k = 0;
    const rank = this.order !== "engine";
    this.nodeMix = this.walk.key.keyLo ^ this.seedMix;
    const free = this.runs ? s.freeCells() : 0;
    for (let i = 0; i < n; i++) {
      const m = SCRATCH[i]!;
      if (mirroredEmptyMove(m, firstEmpty)) continue;
      if (this.lean && leftOut(s, m)) continue;
      // Listed in the place of the single park it replaces, and ranked as that park.
      const kid = this.runs ? parkWhole(s, m, free) : m;
      if (kid === -1) continue;
      if (!rank) {
        KIDS[k++] = kid;
        continue;
      }
      this.insertKid(k++, kid, moveClass(s, m));
    }
    if (this.order === "static-manoeuvre" && hasManoeuvres(s)) {
      // Played only when their turn comes, and skipped then if seen.
      const e = listManoeuvres(this.walk, SCRATCH);
      for (let i = 0; i < e; i++) this.insertKid(k++, SCRATCH[i]!, manoeuvreClass(s, SCRATCH[i]!));
    }
    return this.pushFrame(k, this.walk.pathLen);
  }

  /** A frame of the purpose order's children: the node's runs onto their cards (`runs`), or the rest, then RUNS_LATER. */
  private listPurpose(runs: boolean): boolean | null {
    // (Depth in frames: each node on the path, and once more while its runs are tried.)
    let n = listPurposeful(this.walk, SCRATCH, RANKS, runs, this.frames >= this.emptyFrom);
    this.nodeMix = this.walk.key.keyLo ^ this.seedMix;
    for (let i = 0; i < n; i++) this.insertKid(i, SCRATCH[i]!, RANKS[i]!);
    if (!runs) KIDS[n++] = RUNS_LATER;
    return this.pushFrame(n, this.walk.pathLen);
  }

  private pushFrame(k: number, here: number): boolean | null {
    while (this.poolTop + k > this.pool.length) {
      if (this.pool.length * 2 > MAX_POOL) return null;
      this.pool = grow(this.pool, this.pool.length * 2);
    }
    if (this.frames === this.fStart.length) {
      const cap = this.frames * 2;
      this.fStart = grow(this.fStart, cap);
      this.fNext = grow(this.fNext, cap);
      this.fEnd = grow(this.fEnd, cap);
      this.fPath = grow(this.fPath, cap);
    }
    const f = this.frames++;
    this.fStart[f] = this.fNext[f] = this.poolTop;
    // A plain copy: a subarray view would be an allocation per node.
    const pool = this.pool;
    for (let i = 0, o = this.poolTop; i < k; i++) pool[o + i] = KIDS[i]!;
    this.poolTop += k;
    this.fEnd[f] = this.poolTop;
    this.fPath[f] = here;
    return false;
  }

  /** The winning line after run() returned "solved". */
  line(): number[] {
    return this.walk.moves();
  }
}
