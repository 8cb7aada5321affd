/**
 * Exact move-safety labels. A player plays a training deal; at every position each legal move is
 * labelled by solving the position after it: winnable (1), lost (0) or unknown within the
 * solver's budget (-1). A solved position also gives the length of the solver's line, an upper
 * bound on the distance to a win.
 *
 * Two shortcuts keep the solver calls down without changing a label: the move that starts a
 * known winning line leads to a winnable position (the rest of the line proves it), and a
 * position met again in the same game keeps its verdict. A game stops once the move played
 * loses: every position after it is lost, so it teaches nothing about choosing moves.
 */
import { deal } from "../../engine/deal.js";
import { applyMove, undoMove, type Move } from "../../engine/moves.js";
import type { Rules } from "../../engine/rules.js";
import type { State } from "../../engine/state.js";
import { ActionCodec } from "../../env/actions.js";
import type { Agent, AgentInput } from "../../agents/agent.js";
import { MoveScorer, weightsOf } from "../../agents/heuristic.js";
import { PositionSet } from "../../agents/repeat-guard.js";
import { LookaheadAgent } from "../../agents/lookahead.js";
import { solve } from "../../solver/index.js";
import { Rng } from "../../util/rng.js";
import { packState, PACK_STRIDE } from "./pack.js";

const WINNABLE = 1;
const LOST = 0;
const UNKNOWN = -1;

/** Growable columns of one shard (JS arrays while filling, typed arrays when written). */
export interface LabelBlock {
  /** Per decision (position where the player chose): packed position, deal seed, ply, player index. */
  before: number[];
  deal: number[];
  ply: number[];
  player: number[];
  /** Per legal move of a decision. */
  after: number[];
  decision: number[];
  move: number[];
  action: number[];
  label: number[];
  dist: number[];
  played: number[];
  states: number[];
  /** Games and how they ended. */
  games: number;
  gamesWon: number;
  gamesLost: number;
}

export function emptyBlock(): LabelBlock {
  return {
    before: [],
    deal: [],
    ply: [],
    player: [],
    after: [],
    decision: [],
    move: [],
    action: [],
    label: [],
    dist: [],
    played: [],
    states: [],
    games: 0,
    gamesWon: 0,
    gamesLost: 0,
  };
}

/** The oracle player `safe`: greedy(tuned)'s best move among those labelled winnable, a seeded random winnable one with probability `shuffle`. */
export interface SafePlayer {
  readonly kind: "safe";
  readonly shuffle: number;
  /**
   * Go back to a seen position when only such moves are winnable (the default). With false it
   * keeps every player's never-repeat guard and plays a fresh losing move instead: the bound for
   * a network that knew every label and played by the guard.
   */
  readonly back: boolean;
  /**
   * Which of the allowed moves it plays: greedy(tuned)'s best, or the best by lookahead's search
   * (the target of `--choice-target lookahead`, played with exact labels).
   */
  readonly order?: "greedy" | "lookahead";
}
export type LabelPlayer = SafePlayer | { readonly kind: "agent"; readonly agent: Agent };

export interface LabelOptions {
  readonly maxStates: number;
  readonly maxSteps: number;
}

const packBuf = new Uint8Array(PACK_STRIDE);
function pushPacked(s: State, into: number[]): void {
  packState(s, packBuf, 0);
  for (let i = 0; i < PACK_STRIDE; i++) into.push(packBuf[i]!);
}

/** A move's verdict, with the solver's winning line from the position after it when it has one. */
interface Verdict {
  readonly label: number;
  readonly line: Move[] | undefined;
}

/** The labels of one game's positions: the scratch arrays, and every verdict the game has met. */
class GameLabels {
  readonly codec: ActionCodec;
  readonly mask: Uint8Array;
  readonly actionMoves: Int32Array;
  /** Per action of the position just labelled: its verdict's label and winning line. */
  readonly labels: Int8Array;
  readonly lines: (Move[] | undefined)[];
  /** The position after each move, reached on a scratch copy. */
  readonly x: State;
  /** Verdicts by position hash: a position met again in the game keeps its verdict. */
  readonly #verdicts = new Map<string, Verdict>();

  constructor(
    rules: Rules,
    readonly s: State,
    readonly o: LabelOptions,
    readonly out: LabelBlock,
  ) {
    this.codec = new ActionCodec(rules);
    const A = this.codec.n;
    this.mask = new Uint8Array(A);
    this.actionMoves = new Int32Array(A);
    this.labels = new Int8Array(A);
    this.lines = new Array<Move[] | undefined>(A);
    this.x = s.clone();
  }

  /**
   * Appends the position s (a decision of the game) and a label for each of its legal moves to
   * `out`; returns the index in `out` of its first move. `line`: the winning line from s, when
   * known (its first move needs no solve). The mask must be filled.
   */
  decision(seed: number, ply: number, playerIndex: number, line: Move[] | undefined): number {
    const { out, x, mask, actionMoves } = this;
    const d = out.deal.length;
    pushPacked(this.s, out.before);
    out.deal.push(seed);
    out.ply.push(ply);
    out.player.push(playerIndex);
    const first = out.label.length;
    x.copyFrom(this.s);
    for (let a = 0; a < mask.length; a++) {
      if (mask[a] !== 1) continue;
      const m = actionMoves[a]!;
      applyMove(x, m);
      const { v, states } = this.#verdict(m, line);
      this.labels[a] = v.label;
      this.lines[a] = v.line;
      pushPacked(x, out.after);
      out.decision.push(d);
      out.move.push(m);
      out.action.push(a);
      out.label.push(v.label);
      out.dist.push(v.line ? v.line.length : -1);
      out.played.push(0);
      out.states.push(states);
      undoMove(x, m);
    }
    return first;
  }

  /** The verdict of the position x that move m reached, and the solver's states spent on it (0 when known). */
  #verdict(m: Move, line: Move[] | undefined): { v: Verdict; states: number } {
    const key = `${this.x.hashLo}:${this.x.hashHi}`;
    let v = this.#verdicts.get(key);
    let states = 0;
    // The move that starts a known winning line leads to a winnable position: the rest of the line proves it.
    if (!v && line && line[0] === m) v = { label: WINNABLE, line: line.slice(1) };
    if (!v) {
      const r = solve(this.x.clone(), { maxStates: this.o.maxStates });
      states = r.states;
      v =
        r.result === "solved"
          ? { label: WINNABLE, line: r.moves }
          : { label: r.result === "unsolvable" ? LOST : UNKNOWN, line: undefined };
    }
    this.#verdicts.set(key, v);
    return { v, states };
  }
}

/** Plays deal `seed` with `player` (index `playerIndex` in the dataset's list) and appends its labelled decisions to `out`. */
export function labelGame(
  rules: Rules,
  seed: number,
  player: LabelPlayer,
  playerIndex: number,
  o: LabelOptions,
  out: LabelBlock,
): void {
  const s = deal(rules, seed);
  const g = new GameLabels(rules, s, o, out);
  const { codec, mask, actionMoves } = g;
  const seen = new PositionSet();
  seen.add(s.hashLo, s.hashHi);
  const choose = chooser(player, g, seen, seed);
  let line: Move[] | undefined;
  out.games++;
  for (let ply = 0; ply < o.maxSteps && !s.isWon(); ply++) {
    if (codec.fillMask(s, mask, actionMoves) === 0) break;
    const first = g.decision(seed, ply, playerIndex, line);
    const a = choose();
    if (!(a >= 0 && a < codec.n && mask[a] === 1))
      throw new Error(`player ${playerIndex} chose illegal action ${a} in deal ${seed}`);
    for (let k = first; k < out.action.length; k++) if (out.action[k] === a) out.played[k] = 1;
    applyMove(s, actionMoves[a]!);
    seen.add(s.hashLo, s.hashHi);
    line = g.lines[a];
    // Every position after a losing move is lost: it teaches nothing about choosing moves.
    if (g.labels[a] === LOST) break;
  }
  if (s.isWon()) out.gamesWon++;
  else out.gamesLost++;
}

/** The player's choice in the position just labelled: an agent's act, or the safe player's pick by the labels. */
function chooser(
  player: LabelPlayer,
  g: GameLabels,
  seen: PositionSet,
  seed: number,
): () => number {
  const { s, x, mask, actionMoves, labels } = g;
  if (player.kind === "agent") {
    player.agent.reset(s.clone(), seed);
    const input: AgentInput = {
      state: s,
      mask,
      observation: new Float32Array(0),
      codec: g.codec,
      actionMoves,
    };
    return () => player.agent.act(input);
  }
  const rng = new Rng(`safe-player:${seed}`);
  const greedy = new MoveScorer(weightsOf({ preset: "tuned", without: [], weight: {} }));
  const teacher = player.order === "lookahead" ? new LookaheadAgent({}) : undefined;
  teacher?.reset(s.clone());
  return () =>
    safeChoice(
      s,
      x,
      mask,
      actionMoves,
      labels,
      seen,
      greedy,
      teacher,
      rng,
      player.shuffle,
      player.back,
    );
}

/** Greedy (or lookahead) among the fresh winnable moves (then the other winnable, then fresh unknown, then fresh lost, then any), a random one of them with probability `shuffle`. */
function safeChoice(
  s: State,
  x: State,
  mask: Uint8Array,
  actionMoves: Int32Array,
  labels: Int8Array,
  seen: PositionSet,
  greedy: MoveScorer,
  teacher: LookaheadAgent | undefined,
  rng: Rng,
  shuffle: number,
  back: boolean,
): number {
  const A = mask.length;
  const cand: number[] = [];
  // Fresh winnable moves, then winnable moves back to a seen position (the only way on may be
  // back), then fresh unknown, then fresh lost ones.
  for (const [want, fresh] of [
    [WINNABLE, true],
    [WINNABLE, false],
    [UNKNOWN, true],
    [LOST, true],
  ] as const) {
    x.copyFrom(s);
    for (let a = 0; a < A; a++) {
      if (mask[a] !== 1 || labels[a] !== want || (!fresh && !back)) continue;
      applyMove(x, actionMoves[a]!);
      if (!fresh || !seen.has(x.hashLo, x.hashHi)) cand.push(a);
      undoMove(x, actionMoves[a]!);
    }
    if (cand.length) break;
  }
  if (!cand.length) for (let a = 0; a < A; a++) if (mask[a] === 1) cand.push(a);
  const moves = Int32Array.from(cand, (a) => actionMoves[a]!);
  const score = new Float64Array(cand.length);
  x.copyFrom(s);
  // Lookahead's values first, greedy's score breaking ties (as the lookahead agent does). The
  // teacher sees every position of the game, shuffled turns too, as it would playing itself.
  const value = teacher ? new Float64Array(cand.length) : score;
  teacher?.valuesAt(x, moves, cand.length, value);
  const roll = rng.next();
  if (roll < shuffle) return cand[rng.int(cand.length)]!;
  greedy.scoreMoves(x, moves, cand.length, score);
  let best = 0;
  for (let i = 1; i < cand.length; i++)
    if (value[i]! > value[best]! || (value[i] === value[best] && score[i]! > score[best]!))
      best = i;
  return cand[best]!;
}
