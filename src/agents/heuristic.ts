/**
 * A heuristic = weights over the named features. Named strategies are weight presets; the CLI
 * reweights or switches off any feature: `--heuristic parlett --without keep-flippers-empty
 * --weight build-in-suit=2`. `MoveScorer` scores every legal move of a position with them.
 */
import { UsageError } from "../errors.js";
import { applyMove, MAX_MOVES, undoMove, type Move } from "../engine/moves.js";
import type { State } from "../engine/state.js";
import { FEATURES, FEATURE_NAMES, FeatureScratch } from "./move-features.js";
import { PositionCache } from "./position-cache.js";

export type Weights = Readonly<Record<string, number>>;

/**
 * Presets. `parlett` uses only the tips (foundation moves first + Parlett's five), `foundation-first`
 * only plays foundation moves first (otherwise the first legal move), `tuned` adds the non-tip
 * features. Weights were tuned by coordinate search on deal seeds 100000-100199 and checked on
 * 100200+, never on the evaluation seeds 1..1000 (see docs/agents.md).
 */
export const HEURISTIC_PRESETS: Readonly<Record<string, Weights>> = {
  parlett: {
    "foundation-first": 10,
    "free-base-cards": 1.5,
    "keep-flippers-empty": 1,
    "plan-empty-columns": 8,
    "build-in-suit": 6,
    "short-flipper-use": 2,
  },
  "foundation-first": { "foundation-first": 1 },
  tuned: {
    "foundation-first": 5,
    "keep-flippers-empty": 0.1,
    "plan-empty-columns": 4,
    "build-in-suit": 1.5,
    "short-flipper-use": 1,
    "dig-next-home": 1,
    "settled-cards": 0.5,
    "buried-order": 0.25,
    "dead-end": 100,
    "flipper-reserve": 4,
    mobility: 4,
  },
};
export const HEURISTIC_NAMES = Object.keys(HEURISTIC_PRESETS);
export const DEFAULT_HEURISTIC = "tuned";

function checkFeature(name: string): void {
  if (!FEATURE_NAMES.includes(name))
    throw new UsageError(`unknown feature "${name}"; known: ${FEATURE_NAMES.join(", ")}`);
}

/** Items of a list option given as a comma list, repeated flags (joined with commas) or an array. */
export function listOption(v: unknown): string[] {
  if (v === undefined || v === null || v === false || v === "") return [];
  const items = Array.isArray(v) ? v.map(String) : String(v).split(",");
  return items.map((t) => t.trim()).filter((t) => t.length > 0);
}

export interface HeuristicSpec {
  preset: string;
  without: readonly string[];
  /** feature=weight overrides, applied after `without`. */
  weight: Readonly<Record<string, number>>;
}

/** Reads `heuristic`, `without` and `weight` agent options; every bad value is one-line UsageError. */
export function heuristicSpec(
  options: Readonly<Record<string, unknown>>,
  dflt = DEFAULT_HEURISTIC,
): HeuristicSpec {
  const preset = options.heuristic === undefined ? dflt : String(options.heuristic);
  if (!HEURISTIC_PRESETS[preset])
    throw new UsageError(`unknown heuristic "${preset}"; known: ${HEURISTIC_NAMES.join(", ")}`);
  const without = listOption(options.without);
  without.forEach(checkFeature);
  const weight: Record<string, number> = {};
  for (const item of listOption(options.weight)) {
    const m = /^([a-z-]+)=(-?\d+(?:\.\d+)?(?:e-?\d+)?)$/.exec(item);
    if (!m)
      throw new UsageError(`bad --weight "${item}": expected feature=number, e.g. build-in-suit=2`);
    checkFeature(m[1]!);
    weight[m[1]!] = Number(m[2]);
  }
  return { preset, without, weight };
}

export function weightsOf(spec: HeuristicSpec): Record<string, number> {
  const w: Record<string, number> = { ...HEURISTIC_PRESETS[spec.preset] };
  for (const f of spec.without) delete w[f];
  for (const [f, v] of Object.entries(spec.weight)) w[f] = v;
  return w;
}

/** `parlett`, `parlett,-keep-flippers-empty,build-in-suit=2`: the heuristic part of an agent's name. */
export function heuristicLabel(spec: HeuristicSpec): string {
  const parts = [
    spec.preset,
    ...spec.without.map((f) => `-${f}`),
    ...Object.entries(spec.weight).map(([f, v]) => `${f}=${v}`),
  ];
  return parts.join(",");
}

/**
 * Fewer moves than this are all scored, not bounded: bounds pay only where most of a long list
 * can be skipped (FreeCell's positions have about 70 moves, Penguin's about 9).
 */
const BOUND_MOVES = 24;
/** Positions with more legal moves than this are scored afresh each time (they are rare). */
const MEMO_MOVES = 64;
/** A memo of a position's move scores: its value, n, a spare word, n moves, n scores. */
const MEMO_N = 2;
const MEMO_MOVE = 4;
const MEMO_SCORE = MEMO_MOVE + MEMO_MOVES;
const MEMO_WORDS = MEMO_SCORE + 2 * MEMO_MOVES;

/**
 * The memo tables, one pair per thread, made at first use: the values of the last 2^16
 * positions scored and the move scores of the last 2^14 positions expanded (about 10 + 13 MB).
 * Shared by every scorer that keeps a memo, so that a player made afresh for each game (the
 * safety labels' teacher) allocates nothing; a scorer with other weights, or another rule set,
 * empties them (what they hold is exact for one of each).
 */
let memos: { values: PositionCache; scored: PositionCache } | undefined;
/** One token per distinct weights: the owner of the memo's entries. */
const owners = new Map<string, object>();

/**
 * Scores moves by the weighted features. Holds its own scratch position, so the caller's state is
 * never touched, and allocates nothing per call.
 */
export class MoveScorer {
  /** Active features, parallel to `w`. */
  readonly #pot: { f: (s: State, x: FeatureScratch) => number; w: number }[] = [];
  readonly #term: { f: (s: State, m: Move, x: FeatureScratch) => number; w: number }[] = [];
  /** Parallel to #pot: each feature's bound after a move (Feature.bound), and its value now. */
  readonly #bound: (((s: State, x: FeatureScratch, m: Move, now: number) => number) | undefined)[] =
    [];
  readonly #now: Float64Array;
  /**
   * Per search level, what boundMoves kept of its position for exactScore: its value, its moves'
   * move terms, and which located position the scratch held then (#gen counts every locate).
   */
  readonly #v0: number[] = [];
  readonly #t: Float64Array[] = [];
  readonly #locGen: number[] = [];
  #gen = 0;
  /** Per level: each move's twin (#twins), and the exact scores exactScore found so far. */
  readonly #twin: Int32Array[] = [];
  readonly #known: Uint8Array[] = [];
  readonly #exactOf: Float64Array[] = [];
  readonly #scoreTwin = new Int32Array(MAX_MOVES);
  /** #twins' table, by source and group size: the first such move, valid under the stamp. */
  readonly #firstAt = new Int32Array(32 * 64);
  readonly #firstStamp = new Int32Array(32 * 64);
  #stamp = 0;
  /** Whether every potential has a bound and a weight of at least 0: boundMoves can bound. */
  readonly #bounds: boolean;
  readonly #x = new FeatureScratch();
  /** Values of positions, and scoreMoves' answers, kept for a search (position-cache.ts). */
  readonly #values: PositionCache | undefined;
  readonly #scored: PositionCache | undefined;
  readonly #owner: object;

  /**
   * `memo`: keep values and move scores of the positions scored last (the thread's memo tables
   * above), for a search that scores the same positions many times: what it gets back is exactly
   * what it would work out afresh.
   */
  constructor(
    readonly weights: Readonly<Record<string, number>>,
    memo = false,
  ) {
    const key = JSON.stringify(weights);
    let owner = owners.get(key);
    if (!owner) owners.set(key, (owner = {}));
    this.#owner = owner;
    if (memo) {
      memos ??= {
        values: new PositionCache(16, 2),
        scored: new PositionCache(14, MEMO_WORDS),
      };
      this.#values = memos.values;
      this.#scored = memos.scored;
    }
    for (const feat of FEATURES) {
      const w = weights[feat.name];
      if (w === undefined || w === 0) continue;
      if (feat.potential) {
        this.#pot.push({ f: feat.potential, w });
        this.#bound.push(feat.bound);
      }
      if (feat.moveTerm) this.#term.push({ f: feat.moveTerm, w });
    }
    this.#bounds = this.#pot.every((p, k) => p.w >= 0 && this.#bound[k] !== undefined);
    this.#now = new Float64Array(this.#pot.length);
  }

  /** Weighted potential of a position. */
  value(s: State): number {
    if (this.#pot.length === 0) return 0;
    const memo = this.#values;
    const slot = memo ? memo.find(s, this.#owner) : -1;
    if (slot >= 0) return memo!.floats[slot >> 1]!;
    this.#locate(s);
    let v = 0;
    for (const p of this.#pot) v += p.w * p.f(s, this.#x);
    if (memo) memo.floats[memo.put(slot, s) >> 1] = v;
    return v;
  }

  /**
   * Writes score[i] for moves[0..n) played from s (which is changed and restored: pass a scratch
   * copy). Returns the value of s itself.
   */
  scoreMoves(s: State, moves: Int32Array, n: number, score: Float64Array): number {
    const memo = n <= MEMO_MOVES ? this.#scored : undefined;
    const slot = memo ? memo.find(s, this.#owner) : -1;
    if (slot >= 0 && this.#memoHolds(slot, moves, n)) {
      const f = memo!.floats;
      for (let i = 0, j = (slot + MEMO_SCORE) >> 1; i < n; i++) score[i] = f[j + i]!;
      return f[slot >> 1]!;
    }
    const v0 = this.value(s);
    const x = this.#x;
    if (this.#term.length || this.#pot.length) this.#locate(s);
    const twin = this.#twins(moves, n, this.#scoreTwin);
    for (let i = 0; i < n; i++) {
      if (twin[i] !== i) continue;
      const m = moves[i]!;
      let t = 0;
      for (const p of this.#term) t += p.w * p.f(s, m, x);
      score[i] = t;
    }
    if (this.#pot.length)
      for (let i = 0; i < n; i++) {
        if (twin[i] !== i) continue;
        const m = moves[i]!;
        applyMove(s, m);
        const v = this.#childValue(s, m);
        score[i] = score[i]! + v - v0;
        undoMove(s, m);
        // The scratch back to s's facts, if the child's were worked out.
        if (this.#moved) {
          x.relocate(s, m, false);
          this.#moved = false;
        }
      }
    for (let i = 0; i < n; i++) if (twin[i] !== i) score[i] = score[twin[i]!]!;
    if (memo) {
      // A hit on the position with other moves (a caller's own list) stores over it.
      const p = slot >= 0 ? slot : memo.put(slot, s);
      const w = memo.words;
      const f = memo.floats;
      f[p >> 1] = v0;
      w[p + MEMO_N] = n;
      for (let i = 0; i < n; i++) w[p + MEMO_MOVE + i] = moves[i]!;
      for (let i = 0, j = (p + MEMO_SCORE) >> 1; i < n; i++) f[j + i] = score[i]!;
    }
    return v0;
  }

  /**
   * For a search that needs only the best score among s's moves. When the memo holds s's scores,
   * or the features or rules allow no bound (Feature.bound), writes the scores scoreMoves gives
   * into `score` and returns true. Else writes into score[i] a number never below the score of
   * move i, worked out without playing it, and returns false: exactScore then gives the scores
   * one by one, exactly as scoreMoves would.
   */
  boundMoves(s: State, moves: Int32Array, n: number, score: Float64Array, level = 0): boolean {
    const memo = n <= MEMO_MOVES ? this.#scored : undefined;
    const slot = memo ? memo.find(s, this.#owner) : -1;
    if (
      !this.#bounds ||
      n < BOUND_MOVES ||
      s.tables.rankHome ||
      s.tables.autoHome ||
      (slot >= 0 && this.#memoHolds(slot, moves, n))
    ) {
      this.scoreMoves(s, moves, n, score);
      return true;
    }
    const x = this.#x;
    this.#locate(s);
    this.#locGen[level] = this.#gen;
    const t = (this.#t[level] ??= new Float64Array(MAX_MOVES));
    const twin = this.#twins(moves, n, (this.#twin[level] ??= new Int32Array(MAX_MOVES)));
    (this.#known[level] ??= new Uint8Array(MAX_MOVES)).fill(0, 0, n);
    this.#exactOf[level] ??= new Float64Array(MAX_MOVES);
    for (let i = 0; i < n; i++) {
      if (twin[i] !== i) {
        t[i] = t[twin[i]!]!;
        continue;
      }
      const m = moves[i]!;
      let ti = 0;
      for (const p of this.#term) ti += p.w * p.f(s, m, x);
      t[i] = ti;
    }
    x.prepareBounds(s);
    const pot = this.#pot;
    const bound = this.#bound;
    const now = this.#now;
    // s's value as value() works it out: the same terms in the same order.
    let v0 = 0;
    for (let k = 0; k < pot.length; k++) v0 += pot[k]!.w * (now[k] = pot[k]!.f(s, x));
    this.#v0[level] = v0;
    for (let i = 0; i < n; i++) {
      if (twin[i] !== i) {
        score[i] = score[twin[i]!]!;
        continue;
      }
      const m = moves[i]!;
      x.boundMove(s, m);
      // Each term no smaller than the feature's (weights are at least 0), summed in the same
      // order as value(): no smaller a sum, whatever the rounding.
      let v = 0;
      for (let k = 0; k < pot.length; k++) v += pot[k]!.w * bound[k]!(s, x, m, now[k]!);
      score[i] = t[i]! + v - v0;
    }
    return false;
  }

  /**
   * The score scoreMoves gives moves[i] of s, the position boundMoves bounded last at `level`
   * (and returned false for), when `child` is s after that move: the move is taken back before
   * returning. Calls for other positions may come between.
   */
  exactScore(child: State, moves: Int32Array, i: number, level = 0): number {
    const m = moves[i]!;
    const j = this.#twin[level]![i]!;
    const known = this.#known[level]!;
    const exact = this.#exactOf[level]!;
    if (known[j] === 1) {
      undoMove(child, m);
      return exact[j]!;
    }
    if (this.#locGen[level] !== this.#gen) {
      // The scratch was located elsewhere since: back to this level's position.
      undoMove(child, m);
      this.#locate(child);
      this.#locGen[level] = this.#gen;
      applyMove(child, m);
    }
    const v = this.#childValue(child, m);
    undoMove(child, m);
    if (this.#moved) {
      this.#x.relocate(child, m, false);
      this.#moved = false;
    }
    known[j] = 1;
    return (exact[j] = this.#t[level]![i]! + v - this.#v0[level]!);
  }

  /**
   * Writes into `twin`, per move, the first move of the list that differs from it only in which
   * empty column it fills (itself if none): the two positions differ only in which column is which, which no
   * feature sees (move-features.ts), so the two moves score the same, to the last bit.
   */
  #twins(moves: Int32Array, n: number, twin: Int32Array): Int32Array {
    const stamp = ++this.#stamp;
    const at = this.#firstAt;
    const seen = this.#firstStamp;
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      twin[i] = i;
      if (((m >> 22) & 1) === 0) continue;
      // A move's source and group size, then every field but its target column.
      const key = (m & 31) * 64 + ((m >> 10) & 63);
      if (seen[key] === stamp && ((moves[at[key]!]! ^ m) & ~(31 << 5)) === 0) twin[i] = at[key]!;
      else {
        seen[key] = stamp;
        at[key] = i;
      }
    }
    return twin;
  }

  #locate(s: State): void {
    this.#x.locate(s);
    this.#gen++;
  }

  /** Whether the scratch holds the facts of a child of the position located (see #childValue). */
  #moved = false;

  /**
   * value() of s, a position the located one reached by move m: the same number, but on a miss
   * the scratch's facts come from the located position's, with only what m changed redone.
   */
  #childValue(s: State, m: Move): number {
    const memo = this.#values;
    const slot = memo ? memo.find(s, this.#owner) : -1;
    if (slot >= 0) return memo!.floats[slot >> 1]!;
    this.#x.relocate(s, m, true);
    this.#moved = true;
    let v = 0;
    for (const p of this.#pot) v += p.w * p.f(s, this.#x);
    if (memo) memo.floats[memo.put(slot, s) >> 1] = v;
    return v;
  }

  /** Does the memo at `slot` hold the scores of exactly these moves? */
  #memoHolds(slot: number, moves: Int32Array, n: number): boolean {
    const w = this.#scored!.words;
    if (w[slot + MEMO_N] !== n) return false;
    for (let i = 0; i < n; i++) if (w[slot + MEMO_MOVE + i] !== moves[i]! >>> 0) return false;
    return true;
  }
}
