/**
 * `guided`: a player that checks its moves with a small best-first search, ordered either by
 * greedy(tuned)'s move score or by the move-safety network (docs/guided.md).
 *
 * Each move it ranks the fresh legal moves (greedy's best first; or the safety agent's rule:
 * moves the network judges safe by greedy's score, then the others by risk) and tries them in
 * that order. For each one it runs a best-first search from the position after it, on what is
 * left of the `nodes` budget (positions expanded, counted over the whole move):
 * - the search finds a win: play the move and follow that line from then on;
 * - the search runs dry (every reachable position seen: the move loses): veto it, try the next;
 * - the budget runs out first: play the move.
 * When every move is vetoed the position is proven lost: it plays the first move, and from then
 * on plays the first-ranked move without searching (nothing can save the game). The search is
 * the solver's BestFirst with its walker, canonical keys and safe foundation moves, so a search
 * that runs dry is a proof, exactly as in the solver. Nothing is random: a deal always gets the
 * same game, whatever the number of workers.
 */
import type { Agent, AgentInput, AgentOptions } from "../agents/agent.js";
import { actEach, actionOf } from "../agents/agent.js";
import { MoveScorer, weightsOf } from "../agents/heuristic.js";
import { PositionSet } from "../agents/repeat-guard.js";
import { applyMove, generateMoves, MAX_MOVES, undoMove, type Move } from "../engine/moves.js";
import type { Rules } from "../engine/rules.js";
import type { State } from "../engine/state.js";
import { UsageError } from "../errors.js";
import { BestFirst, type MoveRank } from "./best-first.js";
import type { Weights } from "./walker.js";

const GUIDED_ORDERS = ["greedy", "safety", "safety-root"] as const;
export type GuidedOrder = (typeof GUIDED_ORDERS)[number];
const NODES_MAX = 100_000;
/** What the budget counts: positions expanded (children listed), or positions stored (the solver's maxStates). */
const GUIDED_COUNTS = ["expanded", "stored"] as const;
export type GuidedCount = (typeof GUIDED_COUNTS)[number];
/** Move scores are summed along a path as integers: greedy's in thousandths. */
const GREEDY_SCALE = 1000;
/** The walker's position score is not used with a MoveRank, but the walker needs weights. */
const UNUSED_WEIGHTS: Weights = [0, 0, 0, 0, 0];

/** Root ranking and in-search order of one kind. */
export interface GuidedOrdering extends MoveRank {
  /** Fills order[0..k) with the indexes of moves[0..n) that `fresh` marks, best first; returns k. */
  rankRoot(s: State, moves: Int32Array, n: number, fresh: Uint8Array, order: Int32Array): number;
  /** Network evaluations so far (each is one batched call over a position's moves). */
  readonly calls: number;
  readonly label: string;
}

/** Indexes i < n with fresh[i] = 1, sorted by key descending (stable: ties keep move order). */
export function sortedFresh(
  n: number,
  fresh: Uint8Array,
  key: Float64Array,
  order: Int32Array,
): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (fresh[i] === 1) order[k++] = i;
  const idx = Array.from(order.subarray(0, k)).sort((a, b) => key[b]! - key[a]! || a - b);
  order.set(idx);
  return k;
}

/** greedy(tuned)'s move score, at the root and inside the search. */
export class GreedyOrdering implements GuidedOrdering {
  readonly label = "greedy";
  readonly calls = 0;
  readonly #scorer = new MoveScorer(weightsOf({ preset: "tuned", without: [], weight: {} }));
  readonly #score = new Float64Array(MAX_MOVES);

  rank(s: State, moves: Int32Array, n: number, out: Float64Array): void {
    this.#scorer.scoreMoves(s, moves, n, out);
    for (let i = 0; i < n; i++) out[i] = out[i]! * GREEDY_SCALE;
  }

  rankRoot(s: State, moves: Int32Array, n: number, fresh: Uint8Array, order: Int32Array): number {
    this.#scorer.scoreMoves(s, moves, n, this.#score);
    return sortedFresh(n, fresh, this.#score, order);
  }
}

export class GuidedAgent implements Agent {
  readonly name: string;
  /** Positions expanded by the searches of the last act() (≤ nodes), and over the game. */
  lastExpanded = 0;
  expandedTotal = 0;
  decisions = 0;
  /** Moves the last act() proved lost (its searches ran dry). */
  readonly lastVetoed: Move[] = [];
  readonly #seen = new PositionSet();
  readonly #moves = new Int32Array(MAX_MOVES);
  readonly #fresh = new Uint8Array(MAX_MOVES);
  readonly #order = new Int32Array(MAX_MOVES);
  #scratch: State | undefined;
  /** A winning line being followed: line[next..] from the position `expected`. */
  #line: Move[] = [];
  #next = 0;
  #expected: State | undefined;
  /** Set once every move of a position was proven to lose. */
  #lost = false;

  constructor(
    readonly ordering: GuidedOrdering,
    readonly nodes: number,
    readonly count: GuidedCount = "expanded",
  ) {
    this.name = `guided(order=${ordering.label},nodes=${nodes}${count === "stored" ? ",count=stored" : ""})`;
  }

  reset(start: State, _seed: number): void {
    this.#seen.clear();
    this.#seen.add(start.hashLo, start.hashHi);
    this.#line = [];
    this.#expected = undefined;
    this.#lost = false;
  }

  act(input: AgentInput): number {
    const s = input.state;
    this.#seen.add(s.hashLo, s.hashHi);
    this.decisions++;
    this.lastExpanded = 0;
    this.lastVetoed.length = 0;
    if (this.#expected && this.#next < this.#line.length && s.equals(this.#expected)) {
      const m = this.#line[this.#next++]!;
      applyMove(this.#expected, m);
      return actionOf(input, m);
    }
    this.#expected = undefined;
    return actionOf(input, this.#choose(s));
  }

  /** The move to play from s (see the file comment). */
  #choose(s: State): Move {
    const x = (this.#scratch =
      this.#scratch && this.#scratch.rules === s.rules && this.#scratch.base === s.base
        ? this.#scratch
        : s.clone());
    x.copyFrom(s);
    const moves = this.#moves;
    const n = generateMoves(x, moves);
    if (n === 0) throw new Error("guided agent asked to act with no legal move");
    let fresh = 0;
    for (let i = 0; i < n; i++) {
      applyMove(x, moves[i]!);
      this.#fresh[i] = this.#seen.has(x.hashLo, x.hashHi) ? 0 : 1;
      fresh += this.#fresh[i]!;
      undoMove(x, moves[i]!);
    }
    if (fresh === 0) this.#fresh.fill(1, 0, n);
    const k = this.ordering.rankRoot(x, moves, n, this.#fresh, this.#order);
    let left = this.#lost ? 0 : this.nodes;
    for (let j = 0; j < k; j++) {
      const m = moves[this.#order[j]!]!;
      if (left <= 0) return m;
      applyMove(x, m);
      if (x.isWon()) return m;
      // Room for every child of every expanded position, so the node budget binds first.
      const search = new BestFirst(x, left * MAX_MOVES + 1, UNUSED_WEIGHTS, {
        meta: false,
        stepCost: 0,
        lean: false,
        rank: this.ordering,
      });
      const stored = this.count === "stored";
      const end = search.run(Infinity, stored ? left : Infinity, stored ? Infinity : left);
      left -= stored ? search.table.size : search.expanded;
      this.lastExpanded += search.expanded;
      this.expandedTotal += search.expanded;
      if (end === "solved") {
        this.#line = search.line();
        this.#next = 0;
        this.#expected = x.clone();
        return m;
      }
      undoMove(x, m);
      if (end !== "exhausted") return m;
      this.lastVetoed.push(m);
    }
    this.#lost = true;
    return moves[this.#order[0]!]!;
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    actEach(this, inputs, out);
  }
}

function parseNodes(v: unknown): number {
  const n = typeof v === "number" ? v : Number(v);
  if (v === undefined || v === "" || !Number.isInteger(n) || n < 0 || n > NODES_MAX)
    throw new UsageError(
      `--agent-opt nodes must be an integer from 0 to ${NODES_MAX}, got ${String(v)}`,
    );
  return n;
}

/** Builds the network ordering of order=safety|safety-root (the players layer supplies it: src/players/guided.ts). */
export type NetworkOrdering = (model: unknown, rules: Rules, rootOnly: boolean) => GuidedOrdering;

/**
 * The guided agent from its options: order=greedy|safety|safety-root, nodes=N (default 100),
 * count, model=DIR (the network orders, built by `networkOrdering`: the solver itself knows no
 * network).
 */
export function createGuidedAgent(
  options: AgentOptions,
  rules: Rules,
  networkOrdering?: NetworkOrdering,
): Agent {
  const order = options.order ?? "greedy";
  if (!GUIDED_ORDERS.includes(order as GuidedOrder))
    throw new UsageError(
      `--agent-opt order must be one of ${GUIDED_ORDERS.join(", ")}, got ${String(order)}`,
    );
  const nodes = parseNodes(options.nodes ?? 100);
  const count = options.count ?? "expanded";
  if (!GUIDED_COUNTS.includes(count as GuidedCount))
    throw new UsageError(
      `--agent-opt count must be one of ${GUIDED_COUNTS.join(", ")}, got ${String(count)}`,
    );
  if (order === "greedy") {
    if (options.model !== undefined)
      throw new UsageError("--agent-opt model is only read with order=safety or safety-root");
    return new GuidedAgent(new GreedyOrdering(), nodes, count as GuidedCount);
  }
  if (!networkOrdering)
    throw new UsageError(`order=${String(order)} needs a network: use the registry's guided agent`);
  return new GuidedAgent(
    networkOrdering(options.model, rules, order === "safety-root"),
    nodes,
    count as GuidedCount,
  );
}
