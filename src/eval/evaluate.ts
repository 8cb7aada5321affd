/**
 * `evaluate(spec)`: plays a list of deals with a named agent and yields one row per deal, in deal
 * order, whatever the number of worker threads. Each deal is played independently (the agent is
 * reset with the deal's own seed), so a row never depends on which worker played it or on what
 * that worker played before: the rows are the same for any W.
 */
import { rulesLabel, type Rules } from "../engine/rules.js";
import type { Agent, AgentOptions } from "../agents/agent.js";
import { createAgent } from "../agents/registry.js";
import { agentSeed, dealLabel, dealState, type DealList, type DealRef } from "./deals.js";
import { defaultMaxSteps } from "../env/registry.js";
import { EpisodeRunner } from "./game-loop.js";
import type { GameOutcome } from "./stats.js";
import { TaskPool, workerModule } from "../util/pool.js";

export interface EvalSpec {
  /** Registry name: random, greedy, lookahead, solver, policy, … */
  readonly agent: string;
  readonly agentOptions?: AgentOptions;
  readonly rules: Rules;
  /** An array or a lazy range (seedRange, msRange): deals are taken one at a time. */
  readonly deals: DealList;
  /** Worker threads; 1 (default) plays in this thread. */
  readonly workers?: number;
  /** Moves before a game counts as lost (default: defaultMaxSteps(rules)). */
  readonly maxSteps?: number;
  /** false: `ms` is 0 in every row, making the rows byte-identical between runs. */
  readonly timing?: boolean;
  /**
   * Games played side by side (in lockstep) by an agent that can (`concurrentGames`: the network
   * players), each step one batched call for all of them; default the agent's defaultBatch, else
   * DEFAULT_BATCH. The rows are the same for any value.
   */
  readonly batch?: number;
}

/** Games in lockstep by default: enough to fill a forward pass, few enough to keep rows flowing. */
export const DEFAULT_BATCH = 32;

export interface EvalRow {
  /** Position of the deal in spec.deals. */
  readonly index: number;
  readonly deal: string;
  readonly rules: string;
  readonly agent: string;
  readonly won: boolean;
  readonly cardsHome: number;
  readonly moves: number;
  /** Wall-clock milliseconds for this deal (0 with timing off; games played in lockstep share their chunk's time evenly). */
  readonly ms: number;
}

/** The agent's name as written in rows: its own name, plus a step limit that is not the rules' default. */
export function agentLabel(agent: Agent, rules: Rules, maxSteps = defaultMaxSteps(rules)): string {
  if (maxSteps === defaultMaxSteps(rules)) return agent.name;
  const n = agent.name;
  return n.endsWith(")")
    ? `${n.slice(0, -1)},max-steps=${maxSteps})`
    : `${n}(max-steps=${maxSteps})`;
}

/** Plays deals[i] for i in `indices` with an already built agent. Used by both the thread and the workers. */
export class DealPlayer {
  readonly #runner: EpisodeRunner;
  readonly #label: string;
  readonly #rulesText: string;

  constructor(
    readonly agent: Agent,
    readonly rules: Rules,
    readonly maxSteps = defaultMaxSteps(rules),
    readonly timing = true,
  ) {
    this.#runner = new EpisodeRunner(rules, agent);
    this.#label = agentLabel(agent, rules, maxSteps);
    this.#rulesText = rulesLabel(rules);
  }

  play(d: DealRef, index: number): EvalRow {
    const t0 = performance.now();
    const o = this.#runner.play(dealState(this.rules, d), agentSeed(d), this.maxSteps);
    const ms = this.timing ? Math.round((performance.now() - t0) * 10) / 10 : 0;
    return this.#row(d, index, o, ms);
  }

  /**
   * Plays deals[0 …] (at indices start …): side by side in one lockstep batch when the agent can
   * play concurrent games, else one after another. The outcomes are the same either way.
   */
  async playChunk(deals: readonly DealRef[], start: number): Promise<EvalRow[]> {
    if (!this.agent.concurrentGames || deals.length === 1)
      return deals.map((d, i) => this.play(d, start + i));
    const t0 = performance.now();
    const games = await this.#runner.playMany(
      deals.map((d) => dealState(this.rules, d)),
      deals.map((d) => agentSeed(d)),
      { maxSteps: this.maxSteps, batch: deals.length },
    );
    const ms = this.timing ? Math.round(((performance.now() - t0) / deals.length) * 10) / 10 : 0;
    return games.map((o, i) => this.#row(deals[i]!, start + i, o, ms));
  }

  #row(d: DealRef, index: number, o: GameOutcome, ms: number): EvalRow {
    return {
      index,
      deal: dealLabel(d),
      rules: this.#rulesText,
      agent: this.#label,
      won: o.won,
      cardsHome: o.cardsHome,
      moves: o.moves,
      ms,
    };
  }
}

export async function* evaluate(spec: EvalSpec): AsyncGenerator<EvalRow> {
  const workers = Math.max(1, Math.min(spec.workers ?? 1, spec.deals.length));
  if (spec.deals.length === 0) return;
  if (workers === 1) {
    const agent = await createAgent(spec.agent, spec.agentOptions ?? {}, spec.rules);
    const player = new DealPlayer(agent, spec.rules, spec.maxSteps, spec.timing ?? true);
    const batch = agent.concurrentGames
      ? Math.max(1, spec.batch ?? agent.defaultBatch ?? DEFAULT_BATCH)
      : 1;
    for (let i = 0; i < spec.deals.length; i += batch) {
      const chunk: DealRef[] = [];
      for (let j = i; j < Math.min(spec.deals.length, i + batch); j++)
        chunk.push(spec.deals.at(j)!);
      yield* await player.playChunk(chunk, i);
      // Let timers (progress bar, signals) run between deals.
      if (batch > 1 || (i & 15) === 15) await new Promise((r) => setImmediate(r));
    }
    return;
  }
  yield* evaluateInWorkers(spec, workers);
}

/** What a worker is set up with, and one task: a chunk of deals from index `start` (see worker.ts). */
export type WorkerSpec = Omit<EvalSpec, "deals" | "workers">;
export interface ChunkTask {
  readonly start: number;
  readonly deals: DealRef[];
}

async function* evaluateInWorkers(spec: EvalSpec, n: number): AsyncGenerator<EvalRow> {
  const { deals } = spec;
  // Small chunks keep the workers evenly busy and rows flowing in order; a chunk is played in
  // lockstep by an agent that can, so the batch size bounds it too.
  const chunk = Math.max(
    1,
    Math.min(spec.batch ?? DEFAULT_BATCH, 8, Math.ceil(deals.length / (n * 16))),
  );
  const tasks = Math.ceil(deals.length / chunk);
  const init: WorkerSpec = {
    agent: spec.agent,
    agentOptions: spec.agentOptions,
    rules: spec.rules,
    maxSteps: spec.maxSteps,
    timing: spec.timing,
  };
  const pool = new TaskPool<WorkerSpec, ChunkTask, EvalRow[]>(
    workerModule("./evaluate-worker.js", import.meta.url),
    init,
    n,
    "eval",
  );
  const taskAt = (t: number): ChunkTask => {
    const start = t * chunk;
    const list: DealRef[] = [];
    for (let i = start; i < Math.min(deals.length, start + chunk); i++) list.push(deals.at(i)!);
    return { start, deals: list };
  };
  try {
    // A window keeps a slow deal from letting the others run (and buffer) arbitrarily far ahead.
    for await (const rows of pool.ordered(tasks, taskAt, n * 32)) yield* rows;
  } finally {
    await pool.close();
  }
}
