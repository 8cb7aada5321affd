/**
 * The trained network as an Agent (`penguin eval --agent policy --model DIR [--sample]`): argmax
 * over the legal actions by default, sampling with `sample`. Like playPolicy it applies the
 * never-repeat guard (option `guard`, default on): actions leading back to a position already
 * seen in the game are masked out, unless that leaves nothing, in which case the plain mask is used.
 *
 * Games are told apart without help from the caller: after choosing, the agent files the game's
 * seen-set under the position its move leads to, and picks it up when that position comes back
 * in the next call. So act(), and actBatch() over many games at once, both keep each game's
 * history, whatever order the caller interleaves them in.
 */
import { applyMove, MAX_MOVES } from "../engine/moves.js";
import { type Rules } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import { booleanValue } from "../util/flag.js";
import type { State } from "../engine/state.js";
import type { Agent, AgentInput, AgentOptions } from "../agents/agent.js";
import { ActionCodec } from "../env/actions.js";
import { PolicyFeatures } from "./features.js";
import { initBackend } from "./backend.js";
import { loadNet } from "./checkpoint.js";
import { chooseMasked } from "./masked.js";
import { inferBatch, type PolicyNet } from "./model.js";
import { guardMask, positionKey } from "./play.js";
import { Rng } from "./rng.js";

/** Games whose next position is expected; beyond this many we assume old games were abandoned. */
const MAX_TRACKED = 100_000;

export class PolicyAgent implements Agent {
  readonly name: string;
  /** The net's input is built from the position and mask (features.ts), not the env observation. */
  readonly needsObservation = false;
  private rng: Rng;
  private readonly encoder: PolicyFeatures;
  private readonly codec: ActionCodec;
  private readonly pending = new Map<number, Set<number>>();
  private obs = new Float32Array(0);
  private masks = new Uint8Array(0);
  private logits = new Float32Array(0);
  private readonly moves = new Int32Array(MAX_MOVES);

  constructor(readonly net: PolicyNet, readonly rules: Rules, readonly sample: boolean, readonly guard: boolean, model: string) {
    this.encoder = new PolicyFeatures(rules, net.config.features ?? "env");
    this.codec = new ActionCodec(rules);
    if (net.config.obsSize !== this.encoder.size || net.config.actions !== this.codec.n)
      throw new UsageError(
        `the policy in ${model} was trained for observations of ${net.config.obsSize} and ${net.config.actions} actions; these rules have ${this.encoder.size} and ${this.codec.n}`,
      );
    this.rng = new Rng(0);
    this.name = `policy(${model}${sample ? ",sample" : ""}${guard ? "" : ",-guard"})`;
  }

  reset(start: State, seed: number): void {
    this.rng = new Rng(seed);
    if (this.pending.size > MAX_TRACKED) this.pending.clear();
    this.pending.set(positionKey(start), new Set([positionKey(start)]));
  }

  act(input: AgentInput): number {
    const out = new Int32Array(1);
    this.actBatch([input], out);
    return out[0]!;
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    const n = inputs.length;
    const O = this.encoder.size;
    const A = this.codec.n;
    if (this.obs.length < n * O) {
      this.obs = new Float32Array(n * O);
      this.masks = new Uint8Array(n * A);
      this.logits = new Float32Array(n * A);
    }
    const histories: Set<number>[] = [];
    const moveRows: Int32Array[] = [];
    for (let i = 0; i < n; i++) {
      const input = inputs[i]!;
      const key = positionKey(input.state);
      const seen = this.pending.get(key) ?? new Set([key]);
      this.pending.delete(key);
      histories.push(seen);
      const mask = this.masks.subarray(i * A, (i + 1) * A);
      mask.set(input.mask.subarray(0, A));
      let moves = input.actionMoves;
      if (!moves) {
        this.codec.fillMask(input.state, new Uint8Array(A), this.moves);
        moves = this.moves.slice(0, Math.max(A, MAX_MOVES));
      }
      moveRows.push(moves);
      if (this.guard) {
        const s = input.state.clone();
        if (guardMask(s, this.masks, i * A, A, moves, seen) === 0) mask.set(input.mask.subarray(0, A));
      }
      this.encoder.encode(input.state, input.mask, 0, this.obs, i * O);
    }
    inferBatch(this.net, this.obs, n, this.logits);
    for (let i = 0; i < n; i++) {
      const a = chooseMasked(this.logits, i * A, A, this.masks, i * A, this.sample ? this.rng : undefined);
      if (a < 0) throw new Error("policy agent: no legal action in this position");
      out[i] = a;
      const next = inputs[i]!.state.clone();
      applyMove(next, moveRows[i]![a]!);
      const key = positionKey(next);
      histories[i]!.add(key);
      if (this.pending.size > MAX_TRACKED) this.pending.clear();
      this.pending.set(key, histories[i]!);
    }
  }
}

/** Agent factory for the registry (name "policy"): options `model` (run folder), `sample`, `guard`. */
export async function createPolicyAgent(options: AgentOptions, rules: Rules): Promise<Agent> {
  const model = options.model;
  if (typeof model !== "string" || model === "") throw new UsageError("the policy agent needs --model DIR (a run folder of penguin train)");
  const [sample, guard] = [booleanValue("sample", options.sample, false), booleanValue("guard", options.guard, true)];
  await initBackend();
  const net = await loadNet(model);
  return new PolicyAgent(net, rules, sample, guard, model);
}
