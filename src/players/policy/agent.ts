/**
 * The trained network as an Agent (`penguin eval --agent policy --model DIR [--sample]`): argmax
 * over the legal actions by default, sampling with `sample`, under the never-repeat guard every
 * player shares (option `guard`, default on; src/agents/repeat-guard.ts). A run of the after-state
 * policy (PPO's default, afterstate.ts) plays its best-scored move, always under the guard.
 *
 * It plays many games at once (`concurrentGames`): EpisodeRunner.playMany asks it about every
 * running game in one actBatch call, which is one forward pass of the network, and each game
 * keeps its own positions and its own sampling generator (seeded by the deal), so a game plays
 * the same moves alone or in a batch.
 */
import { MAX_MOVES } from "../../engine/moves.js";
import type { Rules } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import { booleanValue } from "../../util/flag.js";
import { copyInto, type State } from "../../engine/state.js";
import type { Agent, AgentInput, AgentOptions } from "../../agents/agent.js";
import { bestAllowed, guardActions, PositionSet } from "../../agents/repeat-guard.js";
import { ActionCodec } from "../../env/actions.js";
import { PolicyFeatures } from "./features.js";
import { chooseMasked } from "./choose.js";
import { JsPolicy, readPolicy, type NetConfig } from "./model.js";
import { readAfterstate, type AfterstateConfig } from "./afterstate.js";
import { ScorerAgent } from "../scorer/agent.js";
import { checkpointPath, readState } from "../checkpoint.js";
import { join } from "node:path";

/** Runs the network on a batch of inputs: plain JavaScript in play, TensorFlow.js while training. */
export interface PolicyInference {
  readonly config: NetConfig;
  infer(obs: Float32Array, batch: number, logitsOut: Float32Array): void;
}
import { Rng } from "../../util/rng.js";

export class PolicyAgent implements Agent {
  readonly name: string;
  /** The net's input is built from the position and mask (features.ts), not the env observation. */
  readonly needsObservation = false;
  readonly concurrentGames = true;
  readonly #encoder: PolicyFeatures;
  readonly #codec: ActionCodec;
  readonly #seen: PositionSet[] = [];
  readonly #rngs: Rng[] = [];
  #obs = new Float32Array(0);
  #masks = new Uint8Array(0);
  #logits = new Float32Array(0);
  readonly #mask = new Uint8Array(0);
  readonly #moves = new Int32Array(MAX_MOVES);
  #scratch: State | undefined;

  constructor(
    readonly net: PolicyInference,
    readonly rules: Rules,
    readonly sample: boolean,
    readonly guard: boolean,
    model: string,
  ) {
    this.#encoder = new PolicyFeatures(rules, net.config.features ?? "env");
    this.#codec = new ActionCodec(rules);
    if (net.config.obsSize !== this.#encoder.size || net.config.actions !== this.#codec.n)
      throw new UsageError(
        `the policy in ${model} was trained for observations of ${net.config.obsSize} and ${net.config.actions} actions; these rules have ${this.#encoder.size} and ${this.#codec.n}`,
      );
    this.#mask = new Uint8Array(this.#codec.n);
    this.name = `policy(${model}${sample ? ",sample" : ""}${guard ? "" : ",-guard"})`;
  }

  reset(_start: State, seed: number, game = 0): void {
    while (this.#seen.length <= game) this.#seen.push(new PositionSet());
    this.#seen[game]!.clear();
    this.#rngs[game] = new Rng(seed);
  }

  act(input: AgentInput): number {
    const out = new Int32Array(1);
    this.actBatch([input], out);
    return out[0]!;
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    const n = inputs.length;
    const O = this.#encoder.size;
    const A = this.#codec.n;
    if (this.#obs.length < n * O) {
      this.#obs = new Float32Array(n * O);
      this.#masks = new Uint8Array(n * A);
      this.#logits = new Float32Array(n * A);
    }
    for (let i = 0; i < n; i++) {
      const input = inputs[i]!;
      const game = input.game ?? 0;
      if (!this.#seen[game]) this.reset(input.state, 0, game);
      const seen = this.#seen[game]!;
      seen.addState(input.state);
      let moves = input.actionMoves;
      if (!moves) {
        this.#codec.fillMask(input.state, this.#mask, this.#moves);
        moves = this.#moves;
      }
      this.#masks.set(input.mask.subarray(0, A), i * A);
      // The net sees the plain legal mask; the guard only narrows its choice.
      if (this.guard)
        guardActions(
          (this.#scratch = copyInto(this.#scratch, input.state)),
          input.mask,
          0,
          A,
          moves,
          seen,
          this.#masks,
          i * A,
        );
      this.#encoder.encode(input.state, input.mask, 0, this.#obs, i * O);
    }
    this.net.infer(this.#obs, n, this.#logits);
    for (let i = 0; i < n; i++) {
      const input = inputs[i]!;
      const game = input.game ?? 0;
      // Argmax with the shared tie-break (engine move order) when the caller gives the order.
      const a =
        !this.sample && input.order && input.legal !== undefined
          ? bestAllowed(this.#logits, this.#masks, input.legal, input.order, i * A)
          : chooseMasked(
              this.#logits,
              i * A,
              A,
              this.#masks,
              i * A,
              this.sample ? this.#rngs[game] : undefined,
            );
      if (a < 0) throw new Error("policy agent: no legal action in this position");
      out[i] = a;
    }
  }
}

/**
 * An after-state policy (the default of `penguin train ppo`) plays as a ScorerAgent: argmax of its
 * score over the legal moves, with the shared guard and tie-break.
 */
function afterstateAgent(
  model: string,
  rules: Rules,
  sample: boolean,
  guard: boolean,
): Agent | undefined {
  const dir = checkpointPath(join(model, "checkpoint")) ?? checkpointPath(model);
  if (!dir) return undefined;
  const state = readState<{
    sha256?: Record<string, string>;
    state?: { afterstate?: AfterstateConfig };
  }>(dir);
  if (!state.state?.afterstate || !state.sha256) return undefined;
  const net = readAfterstate(dir, { sha256: state.sha256, state: state.state });
  const codec = new ActionCodec(rules);
  if (net.config.actions !== codec.n)
    throw new UsageError(
      `the policy in ${model} was trained for ${net.config.actions} actions; these rules have ${codec.n}`,
    );
  if (sample)
    throw new UsageError(
      `the policy in ${model} scores moves from their after-states and plays its best move: sample is not available for it`,
    );
  if (!guard)
    throw new UsageError(
      `the policy in ${model} always plays under the never-repeat guard: guard=false is not available for it`,
    );
  return new ScorerAgent(net, codec, `policy(${model})`);
}

/** Agent factory for the registry (name "policy"): options `model` (run folder), `sample`, `guard`. */
export async function createPolicyAgent(options: AgentOptions, rules: Rules): Promise<Agent> {
  const model = options.model;
  if (typeof model !== "string" || model === "")
    throw new UsageError("the policy agent needs --model DIR (a run folder of penguin train)");
  const [sample, guard] = [
    booleanValue("sample", options.sample, false),
    booleanValue("guard", options.guard, true),
  ];
  return (
    afterstateAgent(model, rules, sample, guard) ??
    new PolicyAgent(new JsPolicy(readPolicy(model)), rules, sample, guard, model)
  );
}
