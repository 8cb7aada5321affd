/**
 * The action-scorer as an Agent (`penguin eval --agent scorer --agent-opt model=DIR`): argmax of
 * the network's logit over the legal actions, with greedy's never-loop guard (PositionSet of the
 * episode's positions): an action leading back to a position already seen is played only when
 * every legal action does. No search: one network evaluation per legal action per move.
 */
import { applyMove, undoMove, MAX_MOVES } from "../../engine/moves.js";
import { type Rules } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import type { State } from "../../engine/state.js";
import type { Agent, AgentInput, AgentOptions } from "../../agents/agent.js";
import { actEach } from "../../agents/agent.js";
import { PositionSet } from "../../agents/position-set.js";
import { ActionCodec } from "../../env/actions.js";
import { initBackend } from "../backend.js";
import { ActionFeatures, ROW } from "./features.js";
import { JsScorer, loadScorer, type ScorerNet } from "./model.js";

/**
 * One decision's worth of buffers: the legal mask, the guarded mask (legal and not a repeat,
 * or plain legal when every action repeats), each action's move, the feature block and logits.
 */
/** Anything that scores one action row: the network (JsScorer), or plain linear weights (ES). */
export interface RowScorer {
  logit(rows: Float32Array, offset: number): number;
}

export class ScorerView {
  readonly mask: Uint8Array;
  readonly guarded: Uint8Array;
  readonly actionMoves: Int32Array;
  readonly rows: Float32Array;
  readonly logits: Float32Array;
  private readonly features = new ActionFeatures();
  private scratch: State | undefined;

  constructor(readonly codec: ActionCodec) {
    const A = codec.n;
    this.mask = new Uint8Array(A);
    this.guarded = new Uint8Array(A);
    this.actionMoves = new Int32Array(Math.max(A, MAX_MOVES));
    this.rows = new Float32Array(A * ROW);
    this.logits = new Float32Array(A);
  }

  /** Fills masks and rows for `s` given the episode's positions; returns the number of legal actions. */
  look(s: State, seen: PositionSet): number {
    const A = this.codec.n;
    let x = this.scratch;
    if (!x || x.base !== s.base || x.rules !== s.rules) x = this.scratch = s.clone();
    else x.copyFrom(s);
    const n = this.codec.fillMask(x, this.mask, this.actionMoves);
    let fresh = 0;
    for (let a = 0; a < A; a++) {
      this.guarded[a] = 0;
      if (this.mask[a] !== 1) continue;
      const m = this.actionMoves[a]!;
      applyMove(x, m);
      if (!seen.has(x.hashLo, x.hashHi)) {
        this.guarded[a] = 1;
        fresh++;
      }
      undoMove(x, m);
    }
    if (fresh === 0) this.guarded.set(this.mask);
    this.features.fill(x, this.mask, this.actionMoves, A, this.rows, 0);
    return n;
  }

  /** Argmax of the logits over the guarded mask (lowest id on ties); -1 when nothing is legal. */
  choose(js: RowScorer): number {
    let best = -1;
    let bestV = -Infinity;
    for (let a = 0; a < this.codec.n; a++) {
      if (this.guarded[a] !== 1) continue;
      const v = js.logit(this.rows, a * ROW);
      this.logits[a] = v;
      if (v > bestV) {
        bestV = v;
        best = a;
      }
    }
    return best;
  }
}

export class ScorerAgent implements Agent {
  readonly name: string;
  private readonly seen = new PositionSet();
  private readonly view: ScorerView;
  private readonly js: JsScorer;

  constructor(readonly net: ScorerNet, rules: Rules, label: string) {
    const codec = new ActionCodec(rules);
    if (net.config.actions !== codec.n)
      throw new UsageError(`the scorer ${label} was trained for ${net.config.actions} actions; these rules have ${codec.n}`);
    this.view = new ScorerView(codec);
    this.js = new JsScorer(net);
    this.name = `scorer(${label})`;
  }

  reset(start: State): void {
    this.seen.clear();
    this.seen.add(start.hashLo, start.hashHi);
  }

  act(input: AgentInput): number {
    const s = input.state;
    this.seen.add(s.hashLo, s.hashHi);
    if (this.view.look(s, this.seen) === 0) throw new Error("scorer agent asked to act with no legal move");
    return this.view.choose(this.js);
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    actEach(this, inputs, out);
  }
}

/** Agent factory for the registry (name "scorer"): option `model` = run folder or checkpoint folder. */
export async function createScorerAgent(options: AgentOptions, rules: Rules): Promise<Agent> {
  const model = options.model;
  if (typeof model !== "string" || model === "") throw new UsageError("the scorer agent needs --agent-opt model=DIR (a run folder of src/train/scorer/main.ts)");
  await initBackend();
  return new ScorerAgent(await loadScorer(model), rules, model);
}
