/**
 * Best-first search: always expands the open position with the highest score (the walker's
 * heuristic minus a cost per step taken), so it heads straight for the foundations where
 * depth-first search would wander down an early mistake. Each stored node keeps its parent and
 * the moves that led to it; each expanded node also keeps a compact copy of its position (one
 * byte a card). An open node is resumed from its parent's copy plus its own moves (or straight
 * from the parent when the walker stands there, the common case), and the winning line is read
 * back along the parents.
 *
 * Meta-moves (option `meta`): besides every legal move, a child may be a whole manoeuvre that
 * clears the cards above a card into free flippers and then plays that card home or onto
 * another column, as one step. Atomic moves are always there too, so a run that empties its
 * queue has still visited every reachable node.
 */
import { NO_CARD } from "../engine/card.js";
import { CELL0, FOUNDATION, generateMoves, homeMove, makeMove, MAX_MOVES } from "../engine/moves.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import type { RunEnd, RunStop } from "./depth-first.js";
import { FULL, PRESENT, StateTable } from "./table.js";
import { firstEmptyColumn, grow, mirroredEmptyMove, Walker, type Weights } from "./walker.js";

export interface BestFirstOptions {
  /** Add the meta-moves described above (not with `rank`). */
  readonly meta: boolean;
  /** Score taken off per step from the start: 0 is greedy, more trades speed for shorter lines. */
  readonly stepCost: number;
  /** Order by scores of the moves instead of the walker's position score (see MoveRank). */
  readonly rank?: MoveRank;
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

function growBytes(a: Uint8Array, cap: number): Uint8Array {
  const b = new Uint8Array(cap);
  b.set(a);
  return b;
}

export class BestFirst {
  readonly walk: Walker;
  readonly table: StateTable;
  private readonly stride: number;
  /** Node i: parent, depth, its moves steps[stepAt[i] .. stepAt[i+1]), and once expanded its position at snap[snapAt[i]*stride ..]. */
  private snap: Uint8Array;
  private snapAt: Int32Array = new Int32Array(1024);
  private snaps = 0;
  /** The node the walker stands on (with an empty path). */
  private at = -1;
  private parent: Int32Array = new Int32Array(1024);
  private depth: Int32Array = new Int32Array(1024);
  private stepAt: Int32Array = new Int32Array(1025);
  private steps: Int32Array = new Int32Array(4096);
  private nodes = 0;
  /** Node i's priority (with `rank`). */
  private prio: Int32Array = new Int32Array(1024);
  private readonly moveScore = new Float64Array(MAX_MOVES);
  /** Nodes whose children were listed, over every run() call. */
  expanded = 0;
  /** Max-heap of open nodes by score (ties: the newer node first). */
  private heapId: Int32Array = new Int32Array(1024);
  private heapScore: Int32Array = new Int32Array(1024);
  private heapLen = 0;
  private readonly scratch = new Int32Array(MAX_MOVES);
  private readonly tops = new Int8Array(52);
  /** After a win: the node expanded and the moves from it (on the walker's path). */
  private winFrom = -1;

  constructor(start: State, maxStates: number, w: Weights, private readonly opt: BestFirstOptions, shared?: { left: number }) {
    this.walk = new Walker(start, w);
    this.table = new StateTable(maxStates, shared);
    this.stride = start.nColumns + start.nCells + 4 + 52;
    this.snap = new Uint8Array(this.stride * 1024);
  }

  private started = false;

  /** Searches until a verdict, a budget, or (resumable: call again) `stopAt` stored positions or `expandAt` expanded ones. */
  run(deadline: number, stopAt = Infinity, expandAt = Infinity): RunStop {
    const walk = this.walk;
    if (!this.started) {
      this.started = true;
      walk.autoplay();
      if (walk.s.isWon()) return "solved";
      if (this.table.add(walk.key.keyLo, walk.key.keyHi) === FULL) return "max-states";
      const root = this.store(-1, 0);
      walk.pathLen = 0;
      this.at = root;
      this.push(root, walk.score());
    }
    let tick = 0;
    while (this.heapLen > 0) {
      if (this.table.size >= stopAt || this.expanded >= expandAt) return "paused";
      const id = this.pop();
      this.expanded++;
      this.restore(id);
      this.keep(id);
      const r = this.expand(id);
      if (r !== null) return r;
      if ((++tick & 63) === 0 && performance.now() > deadline) return "timeout";
    }
    return "exhausted";
  }

  /** The winning line after run() returned "solved". */
  line(): number[] {
    const tail = Array.from(this.walk.path.subarray(0, this.walk.pathLen));
    if (this.winFrom < 0) return tail;
    const chain: number[] = [];
    for (let i = this.winFrom; i >= 0; i = this.parent[i]!) chain.push(i);
    const out: number[] = [];
    for (let j = chain.length - 1; j >= 0; j--) {
      const i = chain[j]!;
      for (let k = this.stepAt[i]!; k < this.stepAt[i + 1]!; k++) out.push(this.steps[k]!);
    }
    return out.concat(tail);
  }

  /** Children of node `id` (the walker stands on it, path empty). Null: keep going. */
  private expand(id: number): RunEnd | null {
    const walk = this.walk;
    const s = walk.s;
    const n = generateMoves(s, this.scratch);
    const rank = this.opt.rank;
    if (rank) rank.rank(s, this.scratch, n, this.moveScore);
    const firstEmpty = firstEmptyColumn(s);
    for (let i = 0; i < n; i++) {
      const m = this.scratch[i]!;
      // Empty columns are interchangeable: the same move into another one is the same node.
      if (mirroredEmptyMove(m, firstEmpty)) continue;
      walk.apply(m);
      walk.autoplayAfter(m);
      const r = this.child(id, rank ? this.prio[id]! + Math.round(this.moveScore[i]!) : undefined);
      if (r !== null) return r;
    }
    return this.opt.meta && !rank ? this.metaMoves(id) : null;
  }

  /** Records the walker's position as a child of `id` (with priority `ranked`, if ranked), then steps back to `id`. */
  private child(id: number, ranked?: number): RunEnd | null {
    const walk = this.walk;
    if (walk.s.isWon()) {
      this.winFrom = id;
      return "solved";
    }
    const r = this.table.add(walk.key.keyLo, walk.key.keyHi);
    if (r === FULL) return "max-states";
    if (r !== PRESENT) {
      const score = ranked ?? walk.score() - this.opt.stepCost * (this.depth[id]! + 1);
      this.push(this.store(id, score), score);
    }
    walk.undoTo(0);
    return null;
  }

  /**
   * For each card with k ≥ 1 cards above it and at least k free flippers: the cards above go to
   * flippers one by one, then the card goes home, or onto a column whose last card takes it.
   */
  private metaMoves(id: number): RunEnd | null {
    const walk = this.walk;
    const s = walk.s;
    const fc = s.tables.foundationCard;
    const targets = s.tables.targets;
    // Where a move may carry base cards home with it or must name its foundation, the engine's
    // own move lists are the only source of legal moves: no meta-moves there.
    if (s.tables.autoHome || s.tables.rankHome) return null;
    const free = s.freeCells();
    if (free === 0) return null;
    const tops = this.tops;
    tops.fill(-1);
    for (let c = 0; c < s.nColumns; c++) if (s.len[c]! > 0) tops[s.cards[c * COLUMN_CAP + s.len[c]! - 1]!] = c;
    for (let c = 0; c < s.nColumns; c++) {
      const n = s.len[c]!;
      const b = c * COLUMN_CAP;
      for (let k = 1; k <= free && k < n; k++) {
        const card = s.cards[b + n - 1 - k]!;
        let dst = fc[(card & 3) * 14 + s.found[card & 3]!] === card ? FOUNDATION : -1;
        for (let j = 0; dst < 0 && j < 2; j++) {
          const t = targets[card * 2 + j]!;
          if (t >= 0 && tops[t]! >= 0 && tops[t] !== c) dst = tops[t]!;
        }
        if (dst < 0) continue;
        const r = this.carry(id, c, k, card, dst);
        if (r !== null) return r;
      }
    }
    return null;
  }

  /** Plays one meta-move from node `id` (see metaMoves) and records it as a child. */
  private carry(id: number, c: number, k: number, card: number, dst: number): RunEnd | null {
    const walk = this.walk;
    const s = walk.s;
    // `card` sits at depth d; a card above it (or `card` itself, once uncovered) may go home by
    // itself on the way.
    const d = s.len[c]! - 1 - k;
    while (s.len[c]! - 1 > d) {
      let cell = 0;
      while (cell < s.nCells && s.cells[cell] !== NO_CARD) cell++;
      if (cell === s.nCells) {
        walk.undoTo(0);
        return null;
      }
      const m = makeMove(c, CELL0 + cell, 1, s.cards[c * COLUMN_CAP + s.len[c]! - 1]!);
      walk.apply(m);
      walk.autoplayAfter(m);
    }
    if (s.len[c]! - 1 === d) {
      const m = dst === FOUNDATION ? homeMove(s, c) : makeMove(c, dst, 1, card);
      walk.apply(m);
      walk.autoplayAfter(m);
    }
    return this.child(id);
  }

  private store(parent: number, prio: number): number {
    const walk = this.walk;
    const id = this.nodes++;
    if (id === this.parent.length) {
      const cap = id * 2;
      this.parent = grow(this.parent, cap);
      this.depth = grow(this.depth, cap);
      this.stepAt = grow(this.stepAt, cap + 1);
      this.snapAt = grow(this.snapAt, cap);
      this.prio = grow(this.prio, cap);
    }
    this.parent[id] = parent;
    this.prio[id] = prio;
    this.depth[id] = parent < 0 ? 0 : this.depth[parent]! + 1;
    const at = this.stepAt[id]!;
    if (at + walk.pathLen > this.steps.length) this.steps = grow(this.steps, Math.max(this.steps.length * 2, at + walk.pathLen));
    for (let k = 0; k < walk.pathLen; k++) this.steps[at + k] = walk.path[k]!;
    this.stepAt[id + 1] = at + walk.pathLen;
    return id;
  }

  /** Copies the walker's position, which is node `id`'s, before its children are listed. */
  private keep(id: number): void {
    const s = this.walk.s;
    if (this.snaps * this.stride === this.snap.length) this.snap = growBytes(this.snap, this.snap.length * 2);
    this.snapAt[id] = this.snaps;
    let o = this.snaps++ * this.stride;
    const snap = this.snap;
    for (let c = 0; c < s.nColumns; c++) snap[o++] = s.len[c]!;
    for (let i = 0; i < s.nCells; i++) snap[o++] = s.cells[i]!;
    for (let i = 0; i < 4; i++) snap[o++] = s.found[i]!;
    for (let c = 0; c < s.nColumns; c++) for (let d = c * COLUMN_CAP, e = d + s.len[c]!; d < e; d++) snap[o++] = s.cards[d]!;
  }

  /** Puts the walker on node `id` with an empty path: from its parent's copy, plus its moves. */
  private restore(id: number): void {
    if (id === this.at) return;
    const walk = this.walk;
    const s = walk.s;
    const parent = this.parent[id]!;
    if (parent !== this.at) {
      let o = this.snapAt[parent]! * this.stride;
      const snap = this.snap;
      for (let c = 0; c < s.nColumns; c++) s.len[c] = snap[o++]!;
      for (let i = 0; i < s.nCells; i++) s.cells[i] = snap[o++]!;
      for (let i = 0; i < 4; i++) s.found[i] = snap[o++]!;
      for (let c = 0; c < s.nColumns; c++) for (let d = c * COLUMN_CAP, e = d + s.len[c]!; d < e; d++) s.cards[d] = snap[o++]!;
      walk.key.reset();
    }
    walk.pathLen = 0;
    for (let k = this.stepAt[id]!, e = this.stepAt[id + 1]!; k < e; k++) walk.apply(this.steps[k]!);
    walk.pathLen = 0;
    this.at = id;
  }

  private push(id: number, score: number): void {
    if (this.heapLen === this.heapId.length) {
      this.heapId = grow(this.heapId, this.heapLen * 2);
      this.heapScore = grow(this.heapScore, this.heapLen * 2);
    }
    const hi = this.heapId;
    const hs = this.heapScore;
    let i = this.heapLen++;
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

  private pop(): number {
    const hi = this.heapId;
    const hs = this.heapScore;
    const top = hi[0]!;
    const id = hi[--this.heapLen]!;
    const score = hs[this.heapLen]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.heapLen) break;
      if (c + 1 < this.heapLen && (hs[c + 1]! > hs[c]! || (hs[c + 1] === hs[c] && hi[c + 1]! > hi[c]!))) c++;
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
