/**
 * The action-scorer as an Agent (`penguin eval --agent scorer --agent-opt model=DIR`): argmax of
 * the network's logit over the legal actions, with the never-repeat guard and tie-break every
 * player shares (src/agents/repeat-guard.ts). No search: one network evaluation per legal action
 * per move.
 */
import { MAX_MOVES } from "../../engine/moves.js";
import type { Rules } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import type { State } from "../../engine/state.js";
import type { Agent, AgentInput, AgentOptions } from "../../agents/agent.js";
import { actEach } from "../../agents/agent.js";
import { bestAllowed, guardActions, PositionSet } from "../../agents/repeat-guard.js";
import { ActionCodec } from "../../env/actions.js";
import { initBackend } from "../backend.js";
import { ActionFeatures, ROW } from "./features.js";
import { JsScorer, loadScorer, type ScorerNet } from "./model.js";

/** Anything that scores one action row: the network (JsScorer), or plain linear weights (ES). */
export interface RowScorer {
  logit(rows: Float32Array, offset: number): number;
}

/**
 * One decision's worth of buffers: the legal mask, the guarded mask (the never-repeat guard of
 * src/agents/repeat-guard.ts), each action's move, the legal ids in engine move order, the
 * feature block and logits.
 */
export class ScorerView {
  readonly mask: Uint8Array;
  readonly guarded: Uint8Array;
  readonly actionMoves: Int32Array;
  /** Legal action ids in the engine's move order (the tie-break order); `legal` of them. */
  readonly order: Int32Array;
  legal = 0;
  readonly rows: Float32Array;
  readonly logits: Float32Array;
  readonly #features = new ActionFeatures();
  #scratch: State | undefined;

  constructor(readonly codec: ActionCodec) {
    const A = codec.n;
    this.mask = new Uint8Array(A);
    this.guarded = new Uint8Array(A);
    this.actionMoves = new Int32Array(Math.max(A, MAX_MOVES));
    this.order = new Int32Array(MAX_MOVES);
    this.rows = new Float32Array(A * ROW);
    this.logits = new Float32Array(A);
  }

  /** Fills masks and rows for `s` given the episode's positions; returns the number of legal actions. */
  look(s: State, seen: PositionSet): number {
    const A = this.codec.n;
    let x = this.#scratch;
    if (!x || x.base !== s.base || x.rules !== s.rules) x = this.#scratch = s.clone();
    else x.copyFrom(s);
    const n = (this.legal = this.codec.fillMask(x, this.mask, this.actionMoves, this.order));
    guardActions(x, this.mask, 0, A, this.actionMoves, seen, this.guarded, 0);
    this.#features.fill(x, this.mask, this.actionMoves, A, this.rows, 0);
    return n;
  }

  /** The best-scored guarded action (the one tie-break: first in engine move order); -1 when nothing is legal. */
  choose(js: RowScorer): number {
    for (let k = 0; k < this.legal; k++) {
      const a = this.order[k]!;
      if (this.guarded[a] === 1) this.logits[a] = js.logit(this.rows, a * ROW);
    }
    return bestAllowed(this.logits, this.guarded, this.legal, this.order);
  }
}

/** Plays the best-scored legal action by any RowScorer: the trained network, or ES's linear weights. */
export class ScorerAgent implements Agent {
  readonly #seen = new PositionSet();
  readonly #view: ScorerView;

  constructor(
    readonly scorer: RowScorer,
    codec: ActionCodec,
    readonly name: string,
  ) {
    this.#view = new ScorerView(codec);
  }

  reset(start: State): void {
    this.#seen.clear();
    this.#seen.add(start.hashLo, start.hashHi);
  }

  act(input: AgentInput): number {
    const s = input.state;
    this.#seen.add(s.hashLo, s.hashHi);
    if (this.#view.look(s, this.#seen) === 0)
      throw new Error(`${this.name} asked to act with no legal move`);
    return this.#view.choose(this.scorer);
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    actEach(this, inputs, out);
  }
}

/** The trained network as a ScorerAgent (checks that it was trained for these rules). */
function scorerAgent(net: ScorerNet, rules: Rules, label: string): ScorerAgent {
  const codec = new ActionCodec(rules);
  if (net.config.actions !== codec.n)
    throw new UsageError(
      `the scorer ${label} was trained for ${net.config.actions} actions; these rules have ${codec.n}`,
    );
  return new ScorerAgent(new JsScorer(net), codec, `scorer(${label})`);
}

/** Agent factory for the registry (name "scorer"): option `model` = run folder or checkpoint folder. */
export async function createScorerAgent(options: AgentOptions, rules: Rules): Promise<Agent> {
  const model = options.model;
  if (typeof model !== "string" || model === "")
    throw new UsageError(
      "the scorer agent needs --agent-opt model=DIR (a run folder of src/train/scorer/main.ts)",
    );
  await initBackend();
  return scorerAgent(await loadScorer(model), rules, model);
}
