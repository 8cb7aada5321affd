/**
 * `lookahead`: depth-limited beam search. From the current position it follows, at each level, the
 * `width` best moves by the greedy score, `depth` moves deep, and plays the first move of the path
 * with the highest total score (a won position is worth WIN, a dead end LOSS). Like greedy, it
 * never steps back into a position of the episode while another move exists, and never searches
 * through a position twice on one path.
 */
import { applyMove, generateMoves, MAX_MOVES, undoMove, type Move } from "../engine/moves.js";
import { describeValue, InvalidArgumentError } from "../errors.js";
import { copyInto, type State } from "../engine/state.js";
import type { Agent, AgentInput, AgentOptions } from "./agent.js";
import { actEach, actionOf } from "./agent.js";
import { heuristicLabel, heuristicSpec, MoveScorer, weightsOf } from "./heuristic.js";
import { PositionSet } from "./repeat-guard.js";

const WIN = 1e6;
const LOSS = -1e4;
export const DEFAULT_DEPTH = 3;
export const DEFAULT_WIDTH = 3;
/** Lookahead leans on the non-tip features (mobility, dead ends) more than greedy does. */
export const LOOKAHEAD_HEURISTIC = "tuned";

function intOption(v: unknown, name: string, dflt: number, max: number): number {
  if (v === undefined) return dflt;
  // A number, not text: the command line and agent labels turn "3" into 3 before this.
  const n = typeof v === "number" ? v : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new InvalidArgumentError(
      `--${name} must be an integer from 1 to ${max}, got ${describeValue(v)}`,
    );
  return n;
}

export class LookaheadAgent implements Agent {
  readonly name: string;
  readonly depth: number;
  readonly width: number;
  readonly #scorer: MoveScorer;
  readonly #seen = new PositionSet();
  #scratch: State | undefined;
  /** Per search level: moves, scores, and which moves are already taken into the beam. */
  readonly #moves: Int32Array[] = [];
  readonly #score: Float64Array[] = [];
  /** Per level, for #beam: exact scores found so far, and each move's state. */
  readonly #exact: Float64Array[] = [];
  readonly #state: Uint8Array[] = [];
  readonly #pathLo: Uint32Array;
  readonly #pathHi: Uint32Array;

  constructor(options: AgentOptions = {}) {
    const spec = heuristicSpec(options, LOOKAHEAD_HEURISTIC);
    this.depth = intOption(options.depth, "depth", DEFAULT_DEPTH, 8);
    this.width = intOption(options.width, "width", DEFAULT_WIDTH, 64);
    // A memo of the scorer's answers: one decision's tree meets a position about twice, and the
    // next decision's tree is mostly this one's.
    this.#scorer = new MoveScorer(weightsOf(spec), true);
    this.name = `lookahead(${heuristicLabel(spec)},depth=${this.depth},width=${this.width})`;
    for (let d = 0; d <= this.depth; d++) {
      this.#moves.push(new Int32Array(MAX_MOVES));
      this.#score.push(new Float64Array(MAX_MOVES));
      this.#exact.push(new Float64Array(MAX_MOVES));
      this.#state.push(new Uint8Array(MAX_MOVES));
    }
    this.#pathLo = new Uint32Array(this.depth + 1);
    this.#pathHi = new Uint32Array(this.depth + 1);
  }

  reset(start: State): void {
    this.#seen.clear();
    this.#seen.add(start.hashLo, start.hashHi);
    this.#scratch = start.clone();
  }

  #visited(s: State, level: number): boolean {
    if (this.#seen.has(s.hashLo, s.hashHi)) return true;
    for (let i = 0; i < level; i++)
      if (this.#pathLo[i] === s.hashLo && this.#pathHi[i] === s.hashHi) return true;
    return false;
  }

  /**
   * Best total score of up to `left` more moves from s (s is restored). Level indexes the buffers.
   * Moves into visited positions are skipped; if all are, the node counts as a dead end.
   */
  #search(s: State, left: number, level: number): number {
    const moves = this.#moves[level]!;
    const score = this.#score[level]!;
    const n = generateMoves(s, moves);
    if (n === 0) return LOSS;
    this.#pathLo[level] = s.hashLo;
    this.#pathHi[level] = s.hashHi;
    // The last level needs only its best score. No move of it can win (a move sends at most 4
    // cards home), so that is the best score of a move to a position not visited.
    if (left === 1 && s.cardsHome() + 4 < 52) {
      if (!this.#scorer.boundMoves(s, moves, n, score, level))
        return this.#best(s, moves, n, score, level);
    } else if (left > 1) {
      if (!this.#scorer.boundMoves(s, moves, n, score, level))
        return this.#beam(s, moves, n, score, left, level);
    } else this.#scorer.scoreMoves(s, moves, n, score);
    let best = -Infinity;
    for (let taken = 0; taken < this.width; taken++) {
      // Next best untaken move (taken ones are marked -Infinity).
      let i = -1;
      for (let j = 0; j < n; j++)
        if (score[j]! > -Infinity && (i < 0 || score[j]! > score[i]!)) i = j;
      if (i < 0) break;
      const sc = score[i]!;
      score[i] = -Infinity;
      const v = this.#follow(s, moves[i]!, sc, left, level);
      if (Number.isNaN(v))
        taken--; // a visited position does not use up the beam
      else if (v > best) best = v;
    }
    return best === -Infinity ? LOSS : best;
  }

  /**
   * The total score of move m (score sc) of s at `level` followed by up to left - 1 more moves,
   * or NaN when m leads to a visited position; s is restored.
   */
  #follow(s: State, m: number, sc: number, left: number, level: number): number {
    applyMove(s, m);
    const v = this.#visited(s, level + 1)
      ? Number.NaN
      : s.isWon()
        ? sc + WIN
        : left > 1
          ? sc + this.#search(s, left - 1, level + 1)
          : sc;
    undoMove(s, m);
    return v;
  }

  /**
   * The best score among the n moves of s (at `level`) that lead to a position not visited, or
   * LOSS when none does, from upper bounds of the scores (MoveScorer.boundMoves): moves are
   * scored exactly in the order of their bounds, until no bound left is above the best score.
   */
  #best(s: State, moves: Int32Array, n: number, bound: Float64Array, level: number): number {
    let best = -Infinity;
    for (;;) {
      let i = -1;
      for (let j = 0; j < n; j++)
        if (bound[j]! > -Infinity && (i < 0 || bound[j]! > bound[i]!)) i = j;
      if (i < 0 || bound[i]! <= best) break;
      bound[i] = -Infinity;
      const m = moves[i]!;
      applyMove(s, m);
      if (this.#visited(s, level + 1)) {
        undoMove(s, m);
        continue;
      }
      const v = this.#scorer.exactScore(s, moves, i, level);
      if (v > best) best = v;
    }
    return best === -Infinity ? LOSS : best;
  }

  /**
   * #search's beam from upper bounds of the scores (MoveScorer.boundMoves) instead of the
   * scores: the same moves in the same order, each the untaken one with the highest score (the
   * first on ties), found by scoring exactly only as many moves as it takes to be sure.
   */
  #beam(
    s: State,
    moves: Int32Array,
    n: number,
    bound: Float64Array,
    left: number,
    level: number,
  ): number {
    const exact = this.#exact[level]!;
    // Per move: 0 only bounded, 1 scored exactly, 2 taken into the beam.
    const state = this.#state[level]!;
    state.fill(0, 0, n);
    let best = -Infinity;
    for (let taken = 0; taken < this.width; taken++) {
      const i = this.#next(s, moves, n, bound, level);
      if (i < 0) break;
      state[i] = 2;
      const v = this.#follow(s, moves[i]!, exact[i]!, left, level);
      if (Number.isNaN(v))
        taken--; // a visited position does not use up the beam
      else if (v > best) best = v;
    }
    return best === -Infinity ? LOSS : best;
  }

  /**
   * The untaken move of the highest score, the first on ties, or -1: the best scored so far once
   * no move left unscored could come before it (its bound is lower, or equal and it comes later).
   */
  #next(s: State, moves: Int32Array, n: number, bound: Float64Array, level: number): number {
    const exact = this.#exact[level]!;
    const state = this.#state[level]!;
    for (;;) {
      let c = -1;
      let u = -1;
      for (let j = 0; j < n; j++) {
        if (state[j] === 1) {
          if (c < 0 || exact[j]! > exact[c]!) c = j;
        } else if (state[j] === 0 && (u < 0 || bound[j]! > bound[u]!)) u = j;
      }
      if (u < 0) return c;
      if (c >= 0 && (bound[u]! < exact[c]! || (bound[u] === exact[c] && u > c))) return c;
      applyMove(s, moves[u]!);
      exact[u] = this.#scorer.exactScore(s, moves, u, level);
      state[u] = 1;
    }
  }

  /**
   * What the search gives move m of position x (greedy score `score`; x is restored): WIN for a
   * won position, else its score plus the best path of depth − 1 more moves; −Infinity when m
   * goes back to a position of the episode. The level-0 path must hold x (act and startAt set it).
   */
  valueOf(x: State, m: Move, score: number): number {
    applyMove(x, m);
    const v = this.#seen.has(x.hashLo, x.hashHi)
      ? -Infinity
      : x.isWon()
        ? WIN
        : this.depth > 1
          ? score + this.#search(x, this.depth - 1, 1)
          : score;
    undoMove(x, m);
    return v;
  }

  /**
   * Scores the moves of x as act() compares them, into `out` (a won position counts WIN; a move
   * back to a position of the episode −Infinity): a teacher's values for a network that learns to
   * play like this search without running it. Like act(), it counts x as seen.
   */
  valuesAt(x: State, moves: Int32Array, n: number, out: Float64Array): void {
    this.#seen.add(x.hashLo, x.hashHi);
    this.#scorer.scoreMoves(x, moves, n, this.#score[0]!);
    this.#pathLo[0] = x.hashLo;
    this.#pathHi[0] = x.hashHi;
    for (let i = 0; i < n; i++) out[i] = this.valueOf(x, moves[i]!, this.#score[0]![i]!);
  }

  act(input: AgentInput): number {
    const s = input.state;
    this.#seen.add(s.hashLo, s.hashHi);
    const x = (this.#scratch = copyInto(this.#scratch, s));
    const moves = this.#moves[0]!;
    const score = this.#score[0]!;
    const n = generateMoves(x, moves);
    if (n === 0) throw new Error("lookahead agent asked to act with no legal move");
    this.#scorer.scoreMoves(x, moves, n, score);
    this.#pathLo[0] = x.hashLo;
    this.#pathHi[0] = x.hashHi;
    // Root: every move is searched (width limits deeper levels), best greedy score breaks ties.
    // search() uses the buffers of levels 1.., so level 0's scores stay valid here.
    let best = -1;
    let bestV = -Infinity;
    let fallback = 0;
    for (let i = 0; i < n; i++) if (score[i]! > score[fallback]!) fallback = i;
    for (let i = 0; i < n; i++) {
      const v = this.valueOf(x, moves[i]!, score[i]!);
      if (v === -Infinity) continue;
      if (v > bestV || (v === bestV && score[i]! > score[best]!)) {
        bestV = v;
        best = i;
      }
    }
    return actionOf(input, moves[best >= 0 ? best : fallback]!);
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    actEach(this, inputs, out);
  }
}
