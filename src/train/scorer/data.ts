/**
 * Labelled positions for the action-scorer, stored compactly (only the rows of the actions the
 * softmax ranges over), and the games that produce them: an actor (the expert in round 0, the
 * student later) plays a deal while the expert names its move at every position visited (DAgger).
 */
import { deal } from "../../engine/deal.js";
import { applyMove, undoMove, MAX_MOVES } from "../../engine/moves.js";
import type { State } from "../../engine/state.js";
import type { GreedyAgent } from "../../agents/greedy.js";
import type { Rng } from "../rng.js";
import type { Rules } from "../../engine/rules.js";
import { PositionSet } from "../../agents/position-set.js";
import { LookaheadAgent } from "../../agents/lookahead.js";
import type { AgentInput } from "../../agents/agent.js";
import type { ActionCodec } from "../../env/actions.js";
import { tf } from "../backend.js";
import { ROW } from "./features.js";
import { ScorerView } from "./agent.js";
import type { JsScorer } from "./model.js";

export interface Sample {
  /** Action ids the softmax ranges over (the guarded mask). */
  ids: Uint16Array;
  /** Their feature rows, ids.length × ROW. */
  rows: Float32Array;
  /** The expert's action id. */
  label: number;
  /**
   * Rollout teacher: target probability of each entry of `ids` (uniform over the moves after which
   * greedy(tuned) goes on to win); replaces the one-hot label in the loss.
   */
  target?: Float32Array;
}

/** Rollout teacher settings: label a share of the visited positions by greedy continuations. */
export interface RolloutTeacher {
  greedy: GreedyAgent;
  rng: Rng;
  /** Probability that a visited position is rollout-labelled. */
  share: number;
  /** Move cap of one continuation. */
  maxSteps: number;
  /** Train on the rollout targets only (no expert labels). */
  only: boolean;
  /** Copies of each informative rollout sample in the data (it carries more signal than one label). */
  weight: number;
  /** Counters: positions rolled out, informative ones kept. */
  tried: number;
  kept: number;
}

/** Does greedy win from s (which is not changed)? */
function greedyWins(s: State, t: RolloutTeacher, codec: ActionCodec, mask: Uint8Array, am: Int32Array): boolean {
  const x = s.clone();
  t.greedy.reset(x);
  for (let step = 0; step < t.maxSteps && !x.isWon(); step++) {
    if (codec.fillMask(x, mask, am) === 0) return false;
    const a = t.greedy.act({ state: x, mask, codec, observation: EMPTY_OBS, actionMoves: am });
    applyMove(x, am[a]!);
  }
  return x.isWon();
}

/**
 * The rollout target of the current position (view already filled): for each candidate move,
 * does greedy(tuned) win after it? Returns the target over the candidates, or undefined when all
 * or none win (then every move is as good as the next, and the sample teaches nothing).
 */
function rolloutTarget(s: State, view: ScorerView, ids: Uint16Array, t: RolloutTeacher, codec: ActionCodec): Float32Array | undefined {
  const mask = new Uint8Array(codec.n);
  const am = new Int32Array(Math.max(codec.n, MAX_MOVES));
  const target = new Float32Array(ids.length);
  let wins = 0;
  const x = s.clone();
  for (let k = 0; k < ids.length; k++) {
    const m = view.actionMoves[ids[k]!]!;
    applyMove(x, m);
    if (greedyWins(x, t, codec, mask, am)) {
      target[k] = 1;
      wins++;
    }
    undoMove(x, m);
  }
  t.tried++;
  if (wins === 0 || wins === ids.length) return undefined;
  t.kept++;
  for (let k = 0; k < ids.length; k++) target[k] = target[k]! / wins;
  return target;
}

export interface GameStats {
  won: boolean;
  cardsHome: number;
  moves: number;
  /** Positions where the actor's move equals the expert's. */
  agree: number;
}

const EMPTY_OBS = new Float32Array(0);

/**
 * Plays one deal. The actor is the expert when `student` is undefined, else the student network;
 * the expert labels every position (its own seen-set follows the game, so its guard matches).
 */
export function playLabelled(
  rules: Rules,
  codec: ActionCodec,
  seed: number,
  expert: LookaheadAgent | undefined,
  student: JsScorer | undefined,
  maxSteps: number,
  out: Sample[] | undefined,
  view: ScorerView = new ScorerView(codec),
  rollout?: RolloutTeacher,
): GameStats {
  const s = deal(rules, seed);
  const seen = new PositionSet();
  seen.add(s.hashLo, s.hashHi);
  expert?.reset(s);
  let moves = 0;
  let agree = 0;
  while (!s.isWon() && moves < maxSteps) {
    if (view.look(s, seen) === 0) break;
    let label = -1;
    if (expert) {
      const input: AgentInput = { state: s, mask: view.mask, codec, observation: EMPTY_OBS, actionMoves: view.actionMoves };
      label = expert.act(input);
    }
    const a = student ? view.choose(student) : label;
    if (a === label) agree++;
    if (out && label >= 0 && view.guarded[label] === 1) {
      let k = 0;
      for (let i = 0; i < codec.n; i++) k += view.guarded[i]!;
      const ids = new Uint16Array(k);
      const rows = new Float32Array(k * ROW);
      k = 0;
      for (let i = 0; i < codec.n; i++)
        if (view.guarded[i] === 1) {
          ids[k] = i;
          rows.set(view.rows.subarray(i * ROW, (i + 1) * ROW), k * ROW);
          k++;
        }
      if (!rollout?.only) out.push({ ids, rows, label });
      if (rollout && ids.length > 1 && rollout.rng.next() < rollout.share) {
        const target = rolloutTarget(s, view, ids, rollout, codec);
        if (target) for (let w = 0; w < rollout.weight; w++) out.push({ ids, rows, label, target });
      }
    }
    applyMove(s, view.actionMoves[a]!);
    seen.add(s.hashLo, s.hashHi);
    moves++;
  }
  return { won: s.isWon(), cardsHome: s.cardsHome(), moves, agree };
}

/**
 * Tensors of a minibatch holding only each position's candidate rows, padded to the batch's
 * largest count k: rows [B, k, ROW], mask [B, k], one-hot label [B, k]. The per-row network gives
 * these rows the same logits as in the full [B, actions, ROW] block, so the masked softmax and its
 * loss are the same, at a fraction of the cost. Caller disposes.
 */
export function batchTensors(samples: readonly Sample[], order: Uint32Array, from: number, to: number): { rows: tf.Tensor3D; mask: tf.Tensor2D; oneHot: tf.Tensor2D } {
  const B = to - from;
  let K = 1;
  for (let b = 0; b < B; b++) K = Math.max(K, samples[order[from + b]!]!.ids.length);
  const rows = new Float32Array(B * K * ROW);
  const mask = new Float32Array(B * K);
  const oneHot = new Float32Array(B * K);
  for (let b = 0; b < B; b++) {
    const smp = samples[order[from + b]!]!;
    rows.set(smp.rows, b * K * ROW);
    for (let k = 0; k < smp.ids.length; k++) {
      mask[b * K + k] = 1;
      if (smp.target) oneHot[b * K + k] = smp.target[k]!;
      else if (smp.ids[k] === smp.label) oneHot[b * K + k] = 1;
    }
  }
  return { rows: tf.tensor3d(rows, [B, K, ROW]), mask: tf.tensor2d(mask, [B, K]), oneHot: tf.tensor2d(oneHot, [B, K]) };
}

/** Share of samples whose expert action is the student's argmax (JS forward, lowest id on ties). */
export function agreement(samples: readonly Sample[], js: JsScorer): number {
  if (samples.length === 0) return 0;
  let hit = 0;
  for (const smp of samples) {
    let best = -1;
    let bestV = -Infinity;
    for (let k = 0; k < smp.ids.length; k++) {
      const v = js.logit(smp.rows, k * ROW);
      if (v > bestV) {
        bestV = v;
        best = smp.ids[k]!;
      }
    }
    if (best === smp.label) hit++;
  }
  return hit / samples.length;
}
