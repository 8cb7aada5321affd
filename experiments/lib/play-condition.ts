/**
 * The task module of the experiments: plays one deal under one condition. Agents are built from
 * the registry and played by src/eval's EpisodeRunner (the same loop as `penguin eval`, with the
 * same per-deal agent seed); the solver is called directly, because an experiment wants its
 * verdict (solved / unsolvable / unknown) and search effort, not a replay of its line.
 *
 * Everything is deterministic: agents are seeded per deal and the solver has a state budget, not
 * a clock, so a row never depends on the machine's speed or on which worker played it.
 */
import { RANKS } from "../../src/engine/card.js";
import { resolveRules, type Rules } from "../../src/engine/rules.js";
import { createAgent } from "../../src/agents/registry.js";
import { agentLabel } from "../../src/eval/evaluate.js";
import { EpisodeRunner } from "../../src/eval/game-loop.js";
import { agentSeed, dealState, type DealRef } from "../../src/eval/deals.js";
import { solve } from "../../src/solver/index.js";
import type { Condition, Outcome } from "./types.js";

interface Prepared {
  readonly rules: Rules;
  readonly runner?: EpisodeRunner;
  readonly label: string;
}

const cache = new Map<string, Promise<Prepared>>();

async function prepareOnce(c: Condition): Promise<Prepared> {
  const rules = resolveRules(c.preset, c.overrides);
  if (c.player.kind === "solver")
    return { rules, label: `solver(maxStates=${c.player.maxStates})` };
  const agent = await createAgent(c.player.agent, c.player.options, rules);
  return { rules, runner: new EpisodeRunner(rules, agent), label: agentLabel(agent, rules) };
}

function prepare(c: Condition): Promise<Prepared> {
  const key = JSON.stringify(c);
  let p = cache.get(key);
  if (!p) {
    p = prepareOnce(c);
    cache.set(key, p);
  }
  return p;
}

export async function describe(c: Condition): Promise<string> {
  return (await prepare(c)).label;
}

export async function play(c: Condition, deal: number, deck: "seed" | "ms"): Promise<Outcome> {
  const p = await prepare(c);
  const ref: DealRef = deck === "seed" ? { kind: "seed", seed: deal } : { kind: "ms", n: deal };
  const start = dealState(p.rules, ref);
  const base = RANKS[start.base]!;
  if (c.player.kind === "solver") {
    const r = solve(start, { maxStates: c.player.maxStates });
    // cards_home for the solver: 52 when it found a win, else the cards home at the deal.
    if (r.result === "solved")
      return { outcome: "won", base, cardsHome: 52, moves: r.moves.length, states: r.states };
    return {
      outcome: r.result === "unsolvable" ? "lost" : "unknown",
      base,
      cardsHome: start.cardsHome(),
      moves: 0,
      states: r.states,
    };
  }
  const o = p.runner!.play(start, agentSeed(ref));
  return {
    outcome: o.won ? "won" : "lost",
    base,
    cardsHome: o.cardsHome,
    moves: o.moves,
    states: 0,
  };
}
