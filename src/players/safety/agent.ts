/**
 * The `safety` agent (`penguin eval --agent safety [--agent-opt model=DIR]`, by default the shipped network): the network scores
 * every legal move from the position after it, and the agent plays among the moves it judges
 * safe (probability of losing ≤ `threshold`; when none is, the least risky ones). Among those it
 * plays greedy(tuned)'s best, except that with probability `shuffle` it plays a seeded random
 * one: a fixed tie-break tends to wander between the same positions, a little randomness does
 * not. The never-repeat guard of every agent applies first. No search: one network pass per
 * candidate move, no solver.
 */
import { applyMove, undoMove } from "../../engine/moves.js";
import type { Rules } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import type { State } from "../../engine/state.js";
import type { Agent, AgentInput, AgentOptions } from "../../agents/agent.js";
import { MoveScorer, weightsOf } from "../../agents/heuristic.js";
import { PositionSet } from "../../agents/repeat-guard.js";
import { ActionCodec } from "../../env/actions.js";
import { Rng } from "../../util/rng.js";
import { ScorerView } from "../scorer/view.js";
import { ROW } from "../scorer/features.js";
import { COLUMN_WIDTH, encodeCandidate, FLIPPER_WIDTH } from "./encode.js";
import { SafetyBatch, SafetyInputs } from "./batch.js";
import { safetyModel } from "./shipped.js";
import {
  featuresOf,
  squash,
  loadSafety,
  type SafetyFeatures,
  type SafetyWeights,
} from "./model.js";

export interface PlayPolicy {
  /** Moves with a predicted loss probability at most this count as safe. */
  readonly threshold: number;
  /** Share of decisions where a random safe move replaces greedy's choice. */
  readonly shuffle: number;
  /** When no move is safe: moves within this of the least risky one. */
  readonly margin: number;
  /** Among the moves judged safe, play greedy(tuned)'s best ("greedy", the default) or the network's ("net"). */
  readonly order?: "greedy" | "net";
}
export const DEFAULT_PLAY: PlayPolicy = { threshold: 0.5, shuffle: 0.2, margin: 0.05 };

/**
 * The network (or an ensemble: several whose outputs are averaged, their errors partly cancel)
 * with the input rows it reads: every SafetyView that shares one scores its candidates in the
 * same batched call.
 */
export class SafetyScorer {
  readonly inputs: SafetyInputs;
  readonly nets: SafetyBatch[];
  /** The inputs the network reads after the globals, from its checkpoint's config. */
  readonly features: SafetyFeatures;
  /** The network scores moves against each other (objective "choice") rather than giving each a loss probability. */
  readonly choice: boolean;
  /** Per row after score(): the mean over the networks of the loss probability (or squashed choice score). */
  value = new Float64Array(0);

  constructor(weights: SafetyWeights | readonly SafetyWeights[], columns: number) {
    const nets = Array.isArray(weights)
      ? (weights as readonly SafetyWeights[])
      : [weights as SafetyWeights];
    const w = nets[0]!;
    if (w.config.columns !== columns)
      throw new UsageError(
        `the safety network was trained for ${w.config.columns} columns; these rules have ${columns}`,
      );
    for (const n of nets)
      if (
        n.config.globalWidth !== w.config.globalWidth ||
        n.config.objective !== w.config.objective ||
        n.config.columns !== w.config.columns
      )
        throw new UsageError("the networks of an ensemble must share their inputs and objective");
    this.inputs = new SafetyInputs(w.config.columns, w.config.globalWidth);
    this.nets = nets.map((n) => new SafetyBatch(n));
    const rows = this.nets[0]!.rows;
    if (rows) this.inputs.writeInto(rows);
    this.features = featuresOf(w.config) ?? "basic";
    this.choice = w.config.objective === "choice";
  }

  /** Scores input rows 0 … n−1 into value[0 … n−1]. */
  score(n: number): Float64Array {
    if (this.value.length < n) this.value = new Float64Array(Math.max(n, 2 * this.value.length));
    this.value.fill(0, 0, n);
    for (const net of this.nets) {
      const z = net.forward(this.inputs, n);
      for (let r = 0; r < n; r++)
        this.value[r] = this.value[r]! + (this.choice ? squash(z[r]!) : 1 / (1 + Math.exp(-z[r]!)));
    }
    return this.value;
  }
}

/** Encodes the candidate moves of one position and gives their loss probabilities. */
export class SafetyView {
  readonly view: ScorerView;
  readonly risk: Float32Array;
  readonly scorer: SafetyScorer;
  readonly #flips = FLIPPER_WIDTH;
  /** The first input row of this position's candidates, and how many. */
  #row = 0;
  #rows = 0;
  #scratch: State | undefined;

  constructor(
    readonly codec: ActionCodec,
    weights: SafetyWeights | readonly SafetyWeights[] | SafetyScorer,
  ) {
    this.view = new ScorerView(codec);
    this.risk = new Float32Array(codec.n);
    this.scorer =
      weights instanceof SafetyScorer ? weights : new SafetyScorer(weights, codec.columns);
  }

  /** Fills view (masks, rows) and risk[a] for every legal action; returns the number of legal moves. */
  look(s: State, seen: PositionSet): number {
    const n = this.encode(s, seen, 0);
    this.scorer.score(this.#rows);
    this.finish();
    return n;
  }

  /**
   * Fills view (masks, rows) and writes one input row per legal move from input row `row` on
   * (the scorer's rows must have room: SafetyInputs.ensure); returns the number of legal moves.
   */
  encode(s: State, seen: PositionSet, row: number): number {
    const n = this.view.look(s, seen);
    const inp = this.scorer.inputs;
    inp.ensure(row + n);
    let x = this.#scratch;
    if (!x || x.base !== s.base || x.rules !== s.rules) x = this.#scratch = s.clone();
    else x.copyFrom(s);
    const v = this.view;
    const C = inp.columns * COLUMN_WIDTH;
    const G = inp.globalWidth;
    let r = row;
    // Every legal move is scored, repeats too: when the only safe moves go back to a seen
    // position, going back beats a fresh move that loses.
    for (let a = 0; a < this.codec.n; a++) {
      if (v.mask[a] !== 1) continue;
      const m = v.actionMoves[a]!;
      applyMove(x, m);
      encodeCandidate(
        x,
        v.rows,
        a * ROW,
        inp.cols,
        r * C,
        inp.flips,
        r * this.#flips,
        inp.globals,
        r * G,
        this.scorer.features,
      );
      undoMove(x, m);
      r++;
    }
    this.#row = row;
    this.#rows = r - row;
    return n;
  }

  /** Reads risk[a] from the scorer's values of this position's rows (after SafetyScorer.score). */
  finish(): void {
    const v = this.view;
    const value = this.scorer.value;
    const nets = this.scorer.nets.length;
    let r = this.#row;
    for (let a = 0; a < this.codec.n; a++) if (v.mask[a] === 1) this.risk[a] = value[r++]! / nets;
    if (this.scorer.choice) {
      // A choice network's scores mean something only against each other: a move's risk is how far
      // its softmax weight falls below the best move's (0 for the best, towards 1 far below it).
      let top = -Infinity;
      for (let a = 0; a < this.codec.n; a++)
        if (v.mask[a] === 1 && this.risk[a]! > top) top = this.risk[a]!;
      for (let a = 0; a < this.codec.n; a++)
        if (v.mask[a] === 1) this.risk[a] = 1 - Math.exp(this.risk[a]! - top);
    }
  }
}

/**
 * Plays one game, or many side by side (EpisodeRunner.playMany): every candidate move of every
 * game asking for a move is scored in one batched network call. Each game keeps its own
 * positions and random stream, and a candidate's score does not depend on its batch, so a game
 * is the same whichever games it is played beside.
 */
export class SafetyAgent implements Agent {
  readonly name: string;
  readonly concurrentGames = true;
  /**
   * One game at a time unless asked: the network's arithmetic gains nothing from a batch (each
   * candidate's head runs alone), while its tables of column and card embeddings keep a game's
   * next position warm, and games side by side evict each other's rows (about 10 % more CPU at 32).
   */
  readonly defaultBatch = 1;
  readonly #scorer: SafetyScorer;
  readonly #codec: ActionCodec;
  /** Per game: the positions it has been through, and its random stream. */
  readonly #seen: PositionSet[] = [];
  readonly #rngs: Rng[] = [];
  /** Per batch slot: the view of the position it holds. */
  readonly #views: SafetyView[] = [];
  readonly #greedy = new MoveScorer(weightsOf({ preset: "tuned", without: [], weight: {} }));
  readonly #cand: number[] = [];
  readonly #moves = new Int32Array(512);
  readonly #score = new Float64Array(512);
  readonly #one = new Int32Array(1);
  #scratch: State | undefined;

  constructor(
    weights: SafetyWeights | readonly SafetyWeights[],
    rules: Rules,
    label: string,
    readonly play: PlayPolicy,
  ) {
    this.#codec = new ActionCodec(rules);
    this.#scorer = new SafetyScorer(weights, this.#codec.columns);
    this.name = `safety(${label},threshold=${play.threshold},shuffle=${play.shuffle}${play.order === "net" ? ",order=net" : ""})`;
  }

  /** Share of column and card embeddings reused rather than computed (for benchmarks). */
  hitRate(): number {
    return this.#scorer.nets[0]!.hitRate();
  }

  reset(start: State, seed: number, game = 0): void {
    while (this.#seen.length <= game) this.#seen.push(new PositionSet());
    const seen = this.#seen[game]!;
    seen.clear();
    seen.add(start.hashLo, start.hashHi);
    this.#rngs[game] = new Rng(`safety-agent:${seed}`);
  }

  act(input: AgentInput): number {
    this.actBatch([input], this.#one);
    return this.#one[0]!;
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    let row = 0;
    for (let i = 0; i < inputs.length; i++) {
      const s = inputs[i]!.state;
      const game = inputs[i]!.game ?? 0;
      if (!this.#seen[game]) this.reset(s, 0, game);
      const seen = this.#seen[game]!;
      seen.add(s.hashLo, s.hashHi);
      while (this.#views.length <= i) this.#views.push(new SafetyView(this.#codec, this.#scorer));
      const view = this.#views[i]!;
      if (view.encode(s, seen, row) === 0)
        throw new Error("safety agent asked to act with no legal move");
      row += view.view.legal;
    }
    this.#scorer.score(row);
    for (let i = 0; i < inputs.length; i++) {
      const view = this.#views[i]!;
      view.finish();
      out[i] = this.#choose(inputs[i]!.state, view, this.#rngs[inputs[i]!.game ?? 0]!);
    }
  }

  /** The choice rule, on the risks the view holds. */
  #choose(s: State, sv: SafetyView, rng: Rng): number {
    const { guarded, actionMoves } = sv.view;
    const risk = sv.risk;
    const A = guarded.length;
    const cand = this.#cand;
    cand.length = 0;
    // Only fresh moves (the guard): letting the network go back to a seen position when it judges
    // every fresh move risky made it wander between the same positions (9 % instead of 40 % on
    // validation deals), although the same rule helps a player that knows the exact labels.
    let least = Infinity;
    for (let a = 0; a < A; a++) if (guarded[a] === 1) least = Math.min(least, risk[a]!);
    const cut = Math.max(this.play.threshold, least + this.play.margin);
    for (let a = 0; a < A; a++) if (guarded[a] === 1 && risk[a]! <= cut) cand.push(a);
    // Draw every decision, so the random stream does not depend on how many moves were safe.
    const roll = rng.next();
    const pick = rng.next();
    if (cand.length === 1) return cand[0]!;
    if (roll < this.play.shuffle) return cand[Math.floor(pick * cand.length)]!;
    if (this.play.order === "net") {
      let top = 0;
      for (let i = 1; i < cand.length; i++) if (risk[cand[i]!]! < risk[cand[top]!]!) top = i;
      return cand[top]!;
    }
    for (let i = 0; i < cand.length; i++) this.#moves[i] = actionMoves[cand[i]!]!;
    const x = (this.#scratch =
      this.#scratch && this.#scratch.base === s.base && this.#scratch.rules === s.rules
        ? this.#scratch
        : s.clone());
    x.copyFrom(s);
    this.#greedy.scoreMoves(x, this.#moves, cand.length, this.#score);
    let best = 0;
    for (let i = 1; i < cand.length; i++) if (this.#score[i]! > this.#score[best]!) best = i;
    return cand[best]!;
  }
}

function orderOf(v: unknown): "greedy" | "net" {
  if (v === undefined || v === "greedy") return "greedy";
  if (v === "net") return "net";
  throw new UsageError(`--agent-opt order must be greedy or net, got ${String(v)}`);
}

function num(options: AgentOptions, key: string, dflt: number, lo: number, hi: number): number {
  const v = options[key];
  if (v === undefined) return dflt;
  const x = Number(v);
  if (!(x >= lo && x <= hi))
    throw new UsageError(
      `--agent-opt ${key} must be a number from ${lo} to ${hi}, got ${String(v)}`,
    );
  return x;
}

/** Registry factory: model=DIR (default: the shipped network), and optionally threshold, shuffle, margin (defaults: the checkpoint's operating point). */
export function createSafetyAgent(options: AgentOptions, rules: Rules): Agent {
  const model = safetyModel(options.model);
  if (typeof model !== "string" || model === "")
    throw new UsageError(
      "the safety agent's model is a folder (a run of penguin train safety) or default (the shipped network)",
    );
  // model=A+B+…: an ensemble, with the first network's operating point.
  const loaded = model.split("+").map((m) => loadSafety(safetyModel(m) as string));
  const meta = loaded[0]!.meta;
  const weights = loaded.map((l) => l.weights);
  const saved = (meta.play ?? {}) as Partial<PlayPolicy>;
  const play: PlayPolicy = {
    threshold: num(options, "threshold", saved.threshold ?? DEFAULT_PLAY.threshold, 0, 1),
    shuffle: num(options, "shuffle", saved.shuffle ?? DEFAULT_PLAY.shuffle, 0, 1),
    margin: num(options, "margin", saved.margin ?? DEFAULT_PLAY.margin, 0, 1),
    order: orderOf(options.order ?? saved.order),
  };
  return new SafetyAgent(weights, rules, options.model === undefined ? "shipped" : model, play);
}
