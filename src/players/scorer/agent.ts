/**
 * The action-scorer as an Agent (`penguin eval --agent scorer --agent-opt model=DIR`): argmax of
 * the network's logit over the legal actions, with the never-repeat guard and tie-break every
 * player shares (src/agents/repeat-guard.ts). No search: one network evaluation per legal action
 * per move.
 */
import type { Rules } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import type { State } from "../../engine/state.js";
import type { Agent, AgentInput, AgentOptions } from "../../agents/agent.js";
import { actEach } from "../../agents/agent.js";
import { PositionSet } from "../../agents/repeat-guard.js";
import { ActionCodec } from "../../env/actions.js";
import { JsScorer, readScorer, type ScorerWeights } from "./model.js";

// The decision buffers live in view.ts, free of TensorFlow.js, so the safety agent can share them.
export { ScorerView, type RowScorer } from "./view.js";
import { ScorerView, type RowScorer } from "./view.js";

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
function scorerAgent(net: ScorerWeights, rules: Rules, label: string): ScorerAgent {
  const codec = new ActionCodec(rules);
  if (net.config.actions !== codec.n)
    throw new UsageError(
      `the scorer ${label} was trained for ${net.config.actions} actions; these rules have ${codec.n}`,
    );
  return new ScorerAgent(new JsScorer(net), codec, `scorer(${label})`);
}

/** Agent factory for the registry (name "scorer"): option `model` = run folder or checkpoint folder. */
export function createScorerAgent(options: AgentOptions, rules: Rules): Agent {
  const model = options.model;
  if (typeof model !== "string" || model === "")
    throw new UsageError(
      "the scorer agent needs --agent-opt model=DIR (a run folder of the scorer trainer)",
    );
  return scorerAgent(readScorer(model), rules, model);
}
