/**
 * Best-first search: always expands the open position with the highest score (the walker's
 * heuristic minus a cost per step taken), so it heads straight for the foundations where
 * depth-first search would wander down an early mistake. Each stored node keeps its parent and
 * the moves that led to it; each expanded node also keeps a compact copy of its position (one
 * byte a card). An open node is resumed from its parent's copy plus its own moves (or straight
 * from the parent when the walker stands there, the common case), and the winning line is read
 * back along the parents.
 *
 * Manoeuvres (option `meta`, manoeuvre.ts): besides every legal move, a child may be several
 * moves with one purpose. Single moves are always there too, so a run that empties its queue
 * has still visited every reachable node.
 */
import { generateMoves, MAX_MOVES } from "../engine/moves.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import type { RunEnd, RunStop } from "./depth-first.js";
import { hasManoeuvres, isManoeuvre, leftOut, listManoeuvres, playManoeuvre } from "./manoeuvre.js";
import { CanonicalKey } from "./canonical.js";
import { FULL, PRESENT, TranspositionTable } from "./transposition.js";
import { firstEmptyColumn, grow, mirroredEmptyMove, Walker, type Weights } from "./walker.js";

/** A plan entry's settings (PlanStep) serve as they are. */
export interface BestFirstOptions {
  /** Add the meta-moves described above (not with `rank`). */
  readonly meta?: boolean;
  /** Score taken off per step from the start: 0 (default) is greedy, more trades speed for shorter lines. */
  readonly stepCost?: number;
  /** Leave out single moves into a flipper (manoeuvre.ts: leftOut); no longer complete. */
  readonly lean?: boolean;
  /** Order by scores of the moves instead of the walker's position score (see MoveRank). */
  readonly rank?: MoveRank;
  /** Send every card next on its foundation home at once (PlanStep.eager); no longer complete. */
  readonly eager?: boolean;
  /** Horne's prune (PlanStep.horne); no longer complete. */
  readonly horne?: boolean;
}

/**
 * Another order for the search: a child's priority is its parent's plus the score of the move
 * that reaches it (rounded to an integer), so a path's priority is the sum of its moves' scores.
 * All moves of a node are scored in one call, so a network can score them as one batch.
 */
export interface MoveRank {
  /** Fills out[i] with the score of moves[i] from s, higher first; s must be left as it was. */
  rank(s: State, moves: Int32Array, n: number, out: Float64Array): void;
}

const SCRATCH = new Int32Array(MAX_MOVES);
const MOVE_SCORE = new Float64Array(MAX_MOVES);
const ONE = new Int32Array(1);

export class BestFirst {
  readonly walk: Walker;
  readonly table: TranspositionTable;
  readonly #stride: number;
  /** Node i: parent, depth, its moves steps[stepAt[i] .. stepAt[i+1]), and once expanded its position at snap[snapAt[i]*stride ..]. */
  #snap: Uint8Array;
  /** Each copy's canonical-key state (CanonicalKey.save), so a resume needs no re-hash. */
  #snapKeys: Uint32Array;
  readonly #keyStride: number;
  #snapAt: Int32Array = new Int32Array(64);
  #snaps = 0;
  /** The node the walker stands on (with an empty path). */
  #at = -1;
  #parent: Int32Array = new Int32Array(64);
  #depth: Int32Array = new Int32Array(64);
  #stepAt: Int32Array = new Int32Array(65);
  #steps: Int32Array = new Int32Array(256);
  #nodes = 0;
  /** Node i's priority (with `rank`). */
  #prio: Int32Array = new Int32Array(64);
  // Scratch for one expand() call at a time, shared by every search (a plan starts several).
  readonly #moveScore = MOVE_SCORE;
  /** Nodes whose children were listed, over every run() call. */
  expanded = 0;
  /** Max-heap of open nodes by score (ties: the newer node first). */
  #heapId: Int32Array = new Int32Array(64);
  #heapScore: Int32Array = new Int32Array(64);
  #heapLen = 0;
  /** After a win: the node expanded and the moves from it (on the walker's path). */
  #winFrom = -1;

  /** The start position: a line with manoeuvres stored unplayed is read back by playing it from here. */
  readonly #start: State;

  constructor(
    start: State,
    maxStates: number,
    w: Weights,
    private readonly opt: BestFirstOptions,
    shared?: { left: number },
  ) {
    this.#start = start.clone();
    this.walk = new Walker(start, w, opt.eager, opt.horne);
    this.table = new TranspositionTable(maxStates, shared);
    this.#stride = start.nColumns + start.nCells + 4 + 52;
    this.#snap = new Uint8Array(this.#stride * 16);
    this.#keyStride = CanonicalKey.words(start.nColumns);
    this.#snapKeys = new Uint32Array(this.#keyStride * 16);
  }

  /** Ready for a new search from `start` (same rules) with these budgets, keeping its arrays. */
  restart(start: State, maxStates: number, shared?: { left: number }): void {
    this.#start.copyFrom(start);
    this.walk.restart(start);
    this.table.restart(maxStates, shared);
    this.#nodes = this.#snaps = this.#heapLen = this.expanded = 0;
    this.#at = this.#winFrom = -1;
    this.#started = false;
  }

  #started = false;

  /** Searches until a verdict, a budget, or (resumable: call again) `stopAt` stored positions or `expandAt` expanded ones. */
  run(deadline: number, stopAt = Infinity, expandAt = Infinity): RunStop {
    const walk = this.walk;
    if (!this.#started) {
      this.#started = true;
      const decided = walk.enterRoot(this.table);
      if (decided !== null) return decided;
      const root = this.#store(-1, 0);
      walk.rebase();
      this.#at = root;
      this.#push(root, walk.score());
    }
    let tick = 0;
    while (this.#heapLen > 0) {
      if (this.table.size >= stopAt || this.expanded >= expandAt) return "paused";
      const id = this.#pop();
      this.expanded++;
      this.#restore(id);
      this.#keep(id);
      const r = this.#expand(id);
      if (r !== null) return r;
      if ((++tick & 63) === 0 && performance.now() > deadline) return "timeout";
    }
    return "exhausted";
  }

  /** The winning line after run() returned "solved" (once: it is played again on the search's walker). */
  line(): number[] {
    const tail = this.walk.moves();
    if (this.#winFrom < 0) return tail;
    const chain: number[] = [];
    for (let i = this.#winFrom; i >= 0; i = this.#parent[i]!) chain.push(i);
    // The steps from the start, played again so that manoeuvres stored unplayed give their moves.
    const walk = this.walk;
    walk.restart(this.#start);
    this.#at = -1;
    for (let j = chain.length - 1; j >= 0; j--) {
      const i = chain[j]!;
      for (let k = this.#stepAt[i]!; k < this.#stepAt[i + 1]!; k++)
        this.#step(walk, this.#steps[k]!);
    }
    return walk.moves().concat(tail);
  }

  /** Plays one stored step: an engine move, or a manoeuvre stored without being played (always playable: walker.peekManoeuvre). */
  #step(walk: Walker, m: number): void {
    if (!isManoeuvre(walk.s, m)) walk.apply(m);
    else if (!playManoeuvre(walk, m)) throw new Error("solver bug: unplayable manoeuvre");
  }

  /** Children of node `id` (the walker stands on it, path empty). Null: keep going. */
  #expand(id: number): RunEnd | null {
    const walk = this.walk;
    const s = walk.s;
    walk.hold();
    const n = generateMoves(s, SCRATCH);
    const rank = this.opt.rank;
    if (rank) rank.rank(s, SCRATCH, n, this.#moveScore);
    const firstEmpty = firstEmptyColumn(s);
    for (let i = 0; i < n; i++) {
      const m = SCRATCH[i]!;
      // Empty columns are interchangeable: the same move into another one is the same node.
      if (mirroredEmptyMove(m, firstEmpty)) continue;
      if (this.opt.lean && leftOut(s, m)) continue;
      const ranked = rank ? this.#prio[id]! + Math.round(this.#moveScore[i]!) : undefined;
      // Most children are scored and looked up without being played (walker.peek, then #peeked).
      const r = walk.peek(m)
        ? this.#peeked(id, m, ranked)
        : (walk.apply(m), walk.autoplayAfter(m), this.#child(id, ranked));
      if (r !== null) return r;
    }
    return this.opt.meta && !rank ? this.#manoeuvres(id) : null;
  }

  /** What a child of node `id` pays for its steps from the start. */
  #toll(id: number): number {
    return (this.opt.stepCost ?? 0) * (this.#depth[id]! + 1);
  }

  /** Records the walker's position as a child of `id` (with priority `ranked`, if ranked), then steps back to `id`. */
  #child(id: number, ranked?: number): RunEnd | null {
    const walk = this.walk;
    if (walk.s.isWon()) {
      this.#winFrom = id;
      return "solved";
    }
    const r = this.table.add(walk.key.keyLo, walk.key.keyHi);
    if (r === FULL) return "max-states";
    if (r !== PRESENT) {
      const score = ranked ?? walk.score() - this.#toll(id);
      this.#push(this.#store(id, score), score);
    }
    walk.undoTo(0);
    return null;
  }

  /** child() for the position move m leads to, known from walker.peek without playing m (it cannot be won). */
  #peeked(id: number, m: number, ranked?: number): RunEnd | null {
    const walk = this.walk;
    walk.key.peek(m);
    const r = this.table.add(walk.key.peekLo, walk.key.peekHi);
    if (r === FULL) return "max-states";
    if (r !== PRESENT) {
      const score = ranked ?? walk.peekScore - this.#toll(id);
      ONE[0] = m;
      this.#push(this.#store(id, score, ONE, 1), score);
    }
    return null;
  }

  /** The manoeuvres of node `id` (manoeuvre.ts), each recorded as a child. */
  #manoeuvres(id: number): RunEnd | null {
    const walk = this.walk;
    if (!hasManoeuvres(walk.s)) return null;
    const n = listManoeuvres(walk, SCRATCH);
    for (let i = 0; i < n; i++) {
      // Most are stored without being played (their key and score read off the manoeuvre), and played when expanded.
      if (walk.peekManoeuvre(SCRATCH[i]!, true)) {
        const r = this.table.add(walk.key.peekLo, walk.key.peekHi);
        if (r === FULL) return "max-states";
        if (r !== PRESENT) {
          const score = walk.peekScore - this.#toll(id);
          ONE[0] = SCRATCH[i]!;
          this.#push(this.#store(id, score, ONE, 1), score);
        }
        continue;
      }
      if (!playManoeuvre(walk, SCRATCH[i]!)) {
        walk.undoTo(0);
        continue;
      }
      const r = this.#child(id);
      if (r !== null) return r;
    }
    return null;
  }

  /** Stores a node reached from `parent` by path[0 .. len) (default: the walker's path). */
  #store(parent: number, prio: number, path = this.walk.path, len = this.walk.pathLen): number {
    const id = this.#nodes++;
    if (id === this.#parent.length) {
      const cap = id * 2;
      this.#parent = grow(this.#parent, cap);
      this.#depth = grow(this.#depth, cap);
      this.#stepAt = grow(this.#stepAt, cap + 1);
      this.#snapAt = grow(this.#snapAt, cap);
      this.#prio = grow(this.#prio, cap);
    }
    this.#parent[id] = parent;
    this.#prio[id] = prio;
    this.#depth[id] = parent < 0 ? 0 : this.#depth[parent]! + 1;
    const at = this.#stepAt[id]!;
    if (at + len > this.#steps.length)
      this.#steps = grow(this.#steps, Math.max(this.#steps.length * 2, at + len));
    for (let k = 0; k < len; k++) this.#steps[at + k] = path[k]!;
    this.#stepAt[id + 1] = at + len;
    return id;
  }

  /** Copies the walker's position, which is node `id`'s, before its children are listed. */
  #keep(id: number): void {
    const s = this.walk.s;
    if (this.#snaps * this.#stride === this.#snap.length) {
      this.#snap = grow(this.#snap, this.#snap.length * 2);
      this.#snapKeys = grow(this.#snapKeys, this.#snapKeys.length * 2);
    }
    this.#snapAt[id] = this.#snaps;
    this.walk.key.save(this.#snapKeys, this.#snaps * this.#keyStride);
    let o = this.#snaps++ * this.#stride;
    const snap = this.#snap;
    for (let c = 0; c < s.nColumns; c++) snap[o++] = s.len[c]!;
    for (let i = 0; i < s.nCells; i++) snap[o++] = s.cells[i]!;
    for (let i = 0; i < 4; i++) snap[o++] = s.found[i]!;
    for (let c = 0; c < s.nColumns; c++)
      for (let d = c * COLUMN_CAP, e = d + s.len[c]!; d < e; d++) snap[o++] = s.cards[d]!;
  }

  /** Puts the walker on node `id` with an empty path: from its parent's copy, plus its moves. */
  #restore(id: number): void {
    if (id === this.#at) return;
    const walk = this.walk;
    const s = walk.s;
    const parent = this.#parent[id]!;
    if (parent !== this.#at) {
      let o = this.#snapAt[parent]! * this.#stride;
      const snap = this.#snap;
      for (let c = 0; c < s.nColumns; c++) s.len[c] = snap[o++]!;
      for (let i = 0; i < s.nCells; i++) s.cells[i] = snap[o++]!;
      for (let i = 0; i < 4; i++) s.found[i] = snap[o++]!;
      for (let c = 0; c < s.nColumns; c++)
        for (let d = c * COLUMN_CAP, e = d + s.len[c]!; d < e; d++) s.cards[d] = snap[o++]!;
      walk.reload(this.#snapKeys, this.#snapAt[parent]! * this.#keyStride);
    }
    walk.rebase();
    for (let k = this.#stepAt[id]!, e = this.#stepAt[id + 1]!; k < e; k++)
      this.#step(walk, this.#steps[k]!);
    walk.rebase();
    this.#at = id;
  }

  #push(id: number, score: number): void {
    if (this.#heapLen === this.#heapId.length) {
      this.#heapId = grow(this.#heapId, this.#heapLen * 2);
      this.#heapScore = grow(this.#heapScore, this.#heapLen * 2);
    }
    const hi = this.#heapId;
    const hs = this.#heapScore;
    let i = this.#heapLen++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (hs[p]! > score || (hs[p] === score && hi[p]! > id)) break;
      hi[i] = hi[p]!;
      hs[i] = hs[p]!;
      i = p;
    }
    hi[i] = id;
    hs[i] = score;
  }

  #pop(): number {
    const hi = this.#heapId;
    const hs = this.#heapScore;
    const top = hi[0]!;
    const id = hi[--this.#heapLen]!;
    const score = hs[this.#heapLen]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.#heapLen) break;
      if (
        c + 1 < this.#heapLen &&
        (hs[c + 1]! > hs[c]! || (hs[c + 1] === hs[c] && hi[c + 1]! > hi[c]!))
      )
        c++;
      if (hs[c]! < score || (hs[c] === score && hi[c]! < id)) break;
      hi[i] = hi[c]!;
      hs[i] = hs[c]!;
      i = c;
    }
    hi[i] = id;
    hs[i] = score;
    return top;
  }
}
