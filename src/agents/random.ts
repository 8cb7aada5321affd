/**
 * `random`: uniform over the legal actions, from the project's seeded generator (`Rng`, sfc32)
 * reseeded per episode, so the same deal and seed give the same game on every machine.
 */
import { UsageError } from "../errors.js";
import type { Agent, AgentInput, AgentOptions } from "./agent.js";
import { Rng } from "../util/rng.js";
import { actEach } from "./agent.js";

export class RandomAgent implements Agent {
  readonly name: string;
  readonly #rng = new Rng();
  readonly #salt: number;

  constructor(options: AgentOptions = {}) {
    const salt = Number(options["agent-seed"] ?? 0);
    if (!Number.isInteger(salt))
      throw new UsageError(`--agent-seed must be an integer, got ${String(options["agent-seed"])}`);
    this.#salt = salt | 0;
    this.name = this.#salt ? `random(agent-seed=${this.#salt})` : "random";
  }

  reset(_start: unknown, seed: number): void {
    // Mix the episode seed with the agent's own seed option so both matter.
    this.#rng.reseed(Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(this.#salt, 0x85ebca6b));
  }

  act(input: AgentInput): number {
    const mask = input.mask;
    let n = 0;
    for (let a = 0; a < mask.length; a++) n += mask[a]!;
    if (n === 0) throw new Error("random agent asked to act with no legal action");
    let k = this.#rng.int(n);
    for (let a = 0; a < mask.length; a++) if (mask[a] === 1 && k-- === 0) return a;
    throw new Error("unreachable: legal action count changed");
  }

  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    actEach(this, inputs, out);
  }
}
