/**
 * `evaluate(spec)`: plays a list of deals with a named agent and yields one row per deal, in deal
 * order, whatever the number of worker threads. Each deal is played independently (the agent is
 * reset with the deal's own seed), so a row never depends on which worker played it or on what
 * that worker played before: the rows are the same for any W.
 */
import { Worker } from "node:worker_threads";
import { rulesLabel, type Rules } from "../engine/rules.js";
import type { Agent, AgentOptions } from "../agents/agent.js";
import { createAgent } from "../agents/registry.js";
import { agentSeed, dealLabel, dealState, type DealList, type DealRef } from "./deals.js";
import { DEFAULT_MAX_STEPS, EpisodeRunner } from "./play.js";

export interface EvalSpec {
  /** Registry name: random, greedy, lookahead, solver, policy, … */
  readonly agent: string;
  readonly agentOptions?: AgentOptions;
  readonly rules: Rules;
  /** An array or a lazy range (seedRange, msRange): deals are taken one at a time. */
  readonly deals: DealList;
  /** Worker threads; 1 (default) plays in this thread. */
  readonly workers?: number;
  /** Moves before a game counts as lost (default DEFAULT_MAX_STEPS). */
  readonly maxSteps?: number;
  /** false: `ms` is 0 in every row, making the rows byte-identical between runs. */
  readonly timing?: boolean;
}

export interface EvalRow {
  /** Position of the deal in spec.deals. */
  readonly index: number;
  readonly deal: string;
  readonly rules: string;
  readonly agent: string;
  readonly won: boolean;
  readonly cardsHome: number;
  readonly moves: number;
  /** Wall-clock milliseconds for this deal (0 with timing off). */
  readonly ms: number;
}

/** The agent's name as written in rows: its own name, plus a step limit that is not the default. */
export function agentLabel(agent: Agent, maxSteps = DEFAULT_MAX_STEPS): string {
  if (maxSteps === DEFAULT_MAX_STEPS) return agent.name;
  const n = agent.name;
  return n.endsWith(")") ? `${n.slice(0, -1)},max-steps=${maxSteps})` : `${n}(max-steps=${maxSteps})`;
}

/** Plays deals[i] for i in `indices` with an already built agent. Used by both the thread and the workers. */
export class DealPlayer {
  private readonly runner: EpisodeRunner;
  private readonly label: string;
  private readonly rulesText: string;

  constructor(
    readonly agent: Agent,
    readonly rules: Rules,
    readonly maxSteps = DEFAULT_MAX_STEPS,
    readonly timing = true,
  ) {
    this.runner = new EpisodeRunner(rules, agent);
    this.label = agentLabel(agent, maxSteps);
    this.rulesText = rulesLabel(rules);
  }

  play(d: DealRef, index: number): EvalRow {
    const t0 = performance.now();
    const o = this.runner.play(dealState(this.rules, d), agentSeed(d), this.maxSteps);
    const ms = this.timing ? Math.round((performance.now() - t0) * 10) / 10 : 0;
    return { index, deal: dealLabel(d), rules: this.rulesText, agent: this.label, won: o.won, cardsHome: o.cardsHome, moves: o.moves, ms };
  }
}

export async function* evaluate(spec: EvalSpec): AsyncGenerator<EvalRow> {
  const workers = Math.max(1, Math.min(spec.workers ?? 1, spec.deals.length));
  if (spec.deals.length === 0) return;
  if (workers === 1) {
    const agent = await createAgent(spec.agent, spec.agentOptions ?? {}, spec.rules);
    const player = new DealPlayer(agent, spec.rules, spec.maxSteps, spec.timing ?? true);
    for (let i = 0; i < spec.deals.length; i++) {
      yield player.play(spec.deals.at(i)!, i);
      // Let timers (progress bar, signals) run between deals.
      if ((i & 15) === 15) await new Promise((r) => setImmediate(r));
    }
    return;
  }
  yield* evaluateInWorkers(spec, workers);
}

/** Messages between the pool and a worker (see worker.ts). */
export type ToWorker = { type: "init"; spec: Omit<EvalSpec, "deals" | "workers"> } | { type: "play"; start: number; deals: DealRef[] };
export type FromWorker = { type: "ready" } | { type: "rows"; rows: EvalRow[] } | { type: "error"; message: string; usage: boolean };

async function* evaluateInWorkers(spec: EvalSpec, n: number): AsyncGenerator<EvalRow> {
  const { deals } = spec;
  // Small chunks keep the workers evenly busy and rows flowing in order.
  const chunk = Math.max(1, Math.min(8, Math.ceil(deals.length / (n * 16))));
  let next = 0;
  const done = new Map<number, EvalRow>();
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const pool: Worker[] = [];
  // Rows wait in `done` until every earlier one is in; a window keeps a slow deal from letting
  // the others run (and buffer) arbitrarily far ahead.
  const window = n * chunk * 32;
  let consumed = 0;
  const idle: Worker[] = [];
  const feed = (w: Worker): void => {
    if (next >= deals.length) return;
    if (next - consumed >= window) {
      idle.push(w);
      return;
    }
    const start = next;
    next = Math.min(deals.length, next + chunk);
    const chunkDeals: DealRef[] = [];
    for (let i = start; i < next; i++) chunkDeals.push(deals.at(i)!);
    w.postMessage({ type: "play", start, deals: chunkDeals } satisfies ToWorker);
  };
  const init: ToWorker = { type: "init", spec: { agent: spec.agent, agentOptions: spec.agentOptions, rules: spec.rules, maxSteps: spec.maxSteps, timing: spec.timing } };
  for (let i = 0; i < n; i++) {
    const w = new Worker(new URL("./worker-boot.mjs", import.meta.url));
    pool.push(w);
    w.on("message", (m: FromWorker) => {
      if (m.type === "ready") feed(w);
      else if (m.type === "rows") {
        for (const r of m.rows) done.set(r.index, r);
        feed(w);
      } else {
        failure ??= m.usage ? Object.assign(new Error(m.message), { name: "UsageError" }) : new Error(m.message);
      }
      notify();
    });
    w.on("error", (e) => {
      failure ??= e;
      notify();
    });
    w.postMessage(init);
  }
  try {
    for (let i = 0; i < deals.length; i++) {
      while (!done.has(i)) {
        if (failure) throw await asUsage(failure);
        await new Promise<void>((r) => (wake = r));
      }
      const row = done.get(i)!;
      done.delete(i);
      consumed = i + 1;
      while (idle.length > 0 && next - consumed < window) feed(idle.pop()!);
      yield row;
    }
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/** Rethrows a worker's UsageError as the real class, so the CLI prints one line and exits 2. */
async function asUsage(e: Error): Promise<Error> {
  if (e.name !== "UsageError") return e;
  const { UsageError } = await import("../errors.js");
  return new UsageError(e.message);
}
