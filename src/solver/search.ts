/**
 * The exact solver: a depth-first search over canonical positions that either finds a winning
 * line, proves there is none by visiting every position reachable from the start, or says it
 * ran out of budget.
 *
 * Why it is complete. Each node is a position after its safe foundation moves (canonical.ts),
 * children are all legal moves (each followed by its safe foundation moves), and a node is
 * expanded only when its key is not yet in the transposition table. The only moves left out are
 * ones whose result is already a sibling up to relabelling (a move into any empty column but the
 * first; the engine already drops flipper-to-flipper moves and moves of a whole column into an
 * empty one). So the search visits every node reachable from the start, and since a safe
 * foundation move never makes a winnable position unwinnable nor its shortest win longer
 * (docs/solver.md), "no node is won" means the deal is lost. A budget that runs out turns that
 * proof into "unknown", never into "unsolvable".
 *
 * Move order decides how fast a winnable deal falls: children are tried best first by a cheap
 * score of the position they lead to (cards home, free flippers, empty columns, cards lying
 * out of sequence), in a small portfolio of weightings (WEIGHT_SETS).
 */
import { NO_CARD } from "../engine/card.js";
import { applyMove, CELL0, FOUNDATION, generateMoves, homeMove, isLegal, MAX_MOVES, undoMove, type Move } from "../engine/moves.js";
import { moveToString } from "../engine/notation.js";
import type { Rules } from "../engine/rules.js";
import { COLUMN_CAP, type State } from "../engine/state.js";
import { buildersOf, CanonicalKey, safeHome } from "./canonical.js";
import { shortenSolution } from "./shorten.js";
import { FULL, PRESENT, StateTable } from "./table.js";

export interface SolveOptions {
  /** Most distinct positions to examine (table ≤ 17 bytes each, plus the search stack); default DEFAULT_MAX_STATES. */
  readonly maxStates?: number;
  /** Wall-clock budget in milliseconds; default none. */
  readonly timeoutMs?: number;
  /** Move-order weight sets of the portfolio (advanced; default WEIGHT_SETS, first = final run). */
  readonly weightSets?: readonly (readonly number[])[];
}

export const DEFAULT_MAX_STATES = 2_000_000;
/** Largest budget accepted: its table (2^29 slots, 4 GB) is the most typed arrays allow here. */
export const MAX_STATES_LIMIT = 2 ** 28;

export interface SolveStats {
  /** Distinct positions examined (stored in the transposition table). */
  readonly states: number;
  readonly ms: number;
}
export type UnknownReason = "max-states" | "timeout";
export type SolveResult =
  | (SolveStats & { readonly result: "solved"; readonly moves: Move[] })
  | (SolveStats & { readonly result: "unsolvable" })
  | (SolveStats & { readonly result: "unknown"; readonly reason: UnknownReason });

/** The search stack may hold at most this many move ints (4 bytes each) before it gives up. */
const MAX_POOL = 1 << 25;

/**
 * Weights of the move-order score: cards home, free flippers, empty columns, cards out of
 * sequence, cards above the next foundation cards. Depth-first search is sensitive to them in
 * ways no single set fixes (a deal one set solves in 500 positions can take another past 2
 * million), so the search runs a small portfolio: short runs with each set, then a long run
 * with the first set that alone can prove a deal lost.
 */
export const WEIGHT_SETS: readonly (readonly number[])[] = [
  [20, 12, 20, 3, 3],
  [20, 12, 20, 3, 0],
  [16, 6, 10, 3, 0],
];
/** Share of maxStates each short run may use before the final, complete run. */
const SHORT_RUN_SHARE = 1 / 32;

class Search {
  private readonly s: State;
  private readonly key: CanonicalKey;
  private readonly builders: Uint8Array;
  readonly table: StateTable;
  /** Moves applied from the start, safe foundation moves included. */
  path: Int32Array = new Int32Array(1024);
  pathLen = 0;
  /** Children of every open node, best first; frame f owns pool[start[f] .. end[f]). */
  private pool: Int32Array = new Int32Array(4096);
  private poolTop = 0;
  private fStart: Int32Array = new Int32Array(256);
  private fNext: Int32Array = new Int32Array(256);
  private fEnd: Int32Array = new Int32Array(256);
  /** pathLen at each open node. */
  private fPath: Int32Array = new Int32Array(256);
  private frames = 0;
  private readonly scratch = new Int32Array(MAX_MOVES);
  private readonly kids = new Int32Array(MAX_MOVES);
  private readonly scores = new Int32Array(MAX_MOVES);

  constructor(start: State, maxStates: number, private readonly w: readonly number[]) {
    this.s = start.clone();
    this.key = new CanonicalKey(this.s);
    this.builders = buildersOf(this.s);
    this.table = new StateTable(maxStates);
  }

  run(deadline: number): "solved" | "unsolvable" | UnknownReason {
    const s = this.s;
    this.autoplay();
    if (s.isWon()) return "solved";
    this.table.add(this.key.keyLo, this.key.keyHi);
    if (this.expand()) return "solved";
    let tick = 0;
    while (this.frames > 0) {
      const f = this.frames - 1;
      if (this.fNext[f] === this.fEnd[f]) {
        this.poolTop = this.fStart[f]!;
        this.frames--;
        if (this.frames > 0) this.undoTo(this.fPath[this.frames - 1]!);
        continue;
      }
      const next = this.fNext[f]!;
      this.fNext[f] = next + 1;
      const m = this.pool[next]!;
      this.apply(m);
      this.autoplayAfter(m);
      const r = this.table.add(this.key.keyLo, this.key.keyHi);
      if (r === PRESENT) {
        this.undoTo(this.fPath[f]!);
        continue;
      }
      if (r === FULL) return "max-states";
      if ((++tick & 255) === 0 && performance.now() > deadline) return "timeout";
      const won = this.expand();
      if (won === true) return "solved";
      if (won === null) return "max-states";
    }
    return "unsolvable";
  }

  /**
   * Lists the children of the current node, best first, as a new frame. Returns true (and leaves
   * the winning child applied) when a child is won, null when the stack budget is spent.
   */
  private expand(): boolean | null {
    const s = this.s;
    const n = generateMoves(s, this.scratch);
    let firstEmpty = -1;
    for (let c = 0; c < s.nColumns; c++)
      if (s.len[c] === 0) {
        firstEmpty = c;
        break;
      }
    const here = this.pathLen;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const m = this.scratch[i]!;
      // Empty columns are interchangeable: the same move into another one is the same node.
      if ((m >> 22) & 1 && ((m >> 5) & 31) !== firstEmpty) continue;
      this.apply(m);
      this.autoplayAfter(m);
      if (s.isWon()) return true;
      if (!this.table.has(this.key.keyLo, this.key.keyHi)) {
        // Insertion sort, best score first; ties keep the engine's order.
        const score = this.score();
        let j = k++;
        while (j > 0 && this.scores[j - 1]! < score) {
          this.scores[j] = this.scores[j - 1]!;
          this.kids[j] = this.kids[j - 1]!;
          j--;
        }
        this.scores[j] = score;
        this.kids[j] = m;
      }
      this.undoTo(here);
    }
    if (this.poolTop + k > this.pool.length) {
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
    this.pool.set(this.kids.subarray(0, k), this.poolTop);
    this.poolTop += k;
    this.fEnd[f] = this.poolTop;
    this.fPath[f] = here;
    return false;
  }

  /** Higher is more promising: cards home, room to move, few cards out of sequence. */
  private score(): number {
    const s = this.s;
    const buildOn = s.tables.buildOn;
    const rel = s.tables.rel;
    const fc = s.tables.foundationCard;
    const kingsOnly = s.tables.emptyMode === 0;
    let out = 0;
    let empty = 0;
    let bury = 0;
    for (let c = 0; c < s.nColumns; c++) {
      const n = s.len[c]!;
      if (n === 0) {
        empty++;
        continue;
      }
      const b = c * COLUMN_CAP;
      let run = 1;
      while (run < n && buildOn[s.cards[b + run]! * 52 + s.cards[b + run - 1]!] === 1) run++;
      out += n - run;
      // Under kings-only rules a run is settled only on a card of the last rank.
      if (kingsOnly && rel[s.cards[b]!] !== 12) out += run >> 1;
      for (let d = 0; d < n; d++) {
        const card = s.cards[b + d]!;
        if (fc[(card & 3) * 14 + s.found[card & 3]!] === card) bury += n - 1 - d;
      }
    }
    const w = this.w;
    return s.cardsHome() * w[0]! + s.freeCells() * w[1]! + empty * w[2]! - out * w[3]! - bury * w[4]!;
  }

  private apply(m: Move): void {
    applyMove(this.s, m);
    this.key.toggleMove(m);
    this.key.recompute();
    if (this.pathLen === this.path.length) this.path = grow(this.path, this.pathLen * 2);
    this.path[this.pathLen++] = m;
  }

  undoTo(len: number): void {
    if (this.pathLen === len) return;
    while (this.pathLen > len) {
      const m = this.path[--this.pathLen]!;
      this.key.toggleMove(m);
      undoMove(this.s, m);
    }
    this.key.recompute();
  }

  /**
   * Safe foundation moves after move m from a position that had none left. Foundations are
   * unchanged unless m went home, so the only new candidate is the card m uncovered.
   */
  private autoplayAfter(m: Move): void {
    const from = m & 31;
    if (((m >> 5) & 31) !== FOUNDATION) {
      if (from >= CELL0) return;
      const s = this.s;
      const n = s.len[from]!;
      if (n === 0) return;
      const card = s.cards[from * COLUMN_CAP + n - 1]!;
      if (s.tables.foundationCard[(card & 3) * 14 + s.found[card & 3]!] !== card || !safeHome(s, this.builders, card)) return;
    }
    this.autoplay();
  }

  /** Plays every safe foundation move, repeatedly, onto the path. */
  private autoplay(): void {
    const s = this.s;
    const fc = s.tables.foundationCard;
    for (let again = true; again; ) {
      again = false;
      for (let c = 0; c < s.nColumns; c++) {
        const n = s.len[c]!;
        if (n === 0) continue;
        const card = s.cards[c * COLUMN_CAP + n - 1]!;
        if (fc[(card & 3) * 14 + s.found[card & 3]!] === card && safeHome(s, this.builders, card)) {
          this.apply(homeMove(s, c)); // with any base card it uncovers (penguin-beak-home)
          again = true;
        }
      }
      for (let i = 0; i < s.nCells; i++) {
        const card = s.cells[i]!;
        if (card !== NO_CARD && fc[(card & 3) * 14 + s.found[card & 3]!] === card && safeHome(s, this.builders, card)) {
          this.apply(homeMove(s, CELL0 + i));
          again = true;
        }
      }
    }
  }
}

function grow(a: Int32Array, cap: number): Int32Array {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}

/** The play notation of a line from `start`, each move written as `penguin play` reads it back. */
export function lineText(start: State, moves: readonly Move[]): string[] {
  const s = start.clone();
  return moves.map((m) => {
    const text = moveToString(m, s);
    applyMove(s, m);
    return text;
  });
}

/**
 * Plays `moves` from `start` through the engine (each must be legal) and says whether they win.
 * Every solution passes this check before `solve` returns it.
 */
export function replayWins(start: State, moves: readonly Move[]): boolean {
  const s = start.clone();
  for (const m of moves) {
    if (!isLegal(s, m)) return false;
    applyMove(s, m);
  }
  return s.isWon();
}

function sameRules(a: Rules, b: Rules): boolean {
  return a.cells === b.cells && a.emptyColumn === b.emptyColumn && a.groupMove === b.groupMove && a.build === b.build && a.base === b.base && a.deal === b.deal;
}

/**
 * Decides a position: a verified winning line, a proof that none exists, or "unknown" when
 * `maxStates` positions or `timeoutMs` ran out. The rules are the position's own; the
 * three-argument form `solve(position, rules, options)` checks they agree.
 */
export function solve(position: State, options?: SolveOptions): SolveResult;
export function solve(position: State, rules: Rules, options?: SolveOptions): SolveResult;
export function solve(position: State, a?: SolveOptions | Rules, b?: SolveOptions): SolveResult {
  let options: SolveOptions = {};
  if (a && "cells" in a) {
    if (!sameRules(a, position.rules)) throw new Error("solve: the rules given differ from the position's rules");
    options = b ?? {};
  } else if (a) options = a;
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  if (!Number.isInteger(maxStates) || maxStates < 1 || maxStates > MAX_STATES_LIMIT)
    throw new RangeError(`maxStates must be an integer from 1 to ${MAX_STATES_LIMIT}, got ${maxStates}`);
  const t0 = performance.now();
  const deadline = options.timeoutMs === undefined ? Infinity : t0 + options.timeoutMs;
  // Short runs may end in "max-states" without cost to completeness: the last run is complete.
  const short = Math.floor(maxStates * SHORT_RUN_SHARE);
  const sets = options.weightSets ?? WEIGHT_SETS;
  if (sets.length === 0 || sets.some((w) => w.length !== 5)) throw new RangeError("weightSets: give at least one set of 5 weights");
  const runs: [readonly number[], number][] = short >= 1000 && sets.length > 1 ? sets.map((w) => [w, short]) : [];
  let states = 0;
  let search: Search | undefined;
  let verdict: ReturnType<Search["run"]> = "max-states";
  for (const [w, budget] of runs) {
    search = new Search(position, budget, w);
    verdict = search.run(deadline);
    states += search.table.size;
    if (verdict !== "max-states") break;
  }
  if (verdict === "max-states") {
    search = new Search(position, maxStates - states, sets[0]!);
    verdict = search.run(deadline);
    states += search.table.size;
  }
  const elapsed = (): number => Math.round((performance.now() - t0) * 10) / 10;
  if (verdict === "solved") {
    const found = Array.from(search!.path.subarray(0, search!.pathLen));
    if (!replayWins(position, found)) throw new Error("solver bug: the solution found does not replay to a win");
    const shorter = shortenSolution(position, found);
    const moves = shorter.length < found.length && replayWins(position, shorter) ? shorter : found;
    return { result: "solved", moves, states, ms: elapsed() };
  }
  if (verdict === "unsolvable") return { result: "unsolvable", states, ms: elapsed() };
  return { result: "unknown", reason: verdict, states, ms: elapsed() };
}
