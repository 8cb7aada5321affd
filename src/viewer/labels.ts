/**
 * Reading a results row back into what played it: the `rules` label (`penguin`,
 * `penguin[cells=3,emptyColumn=any]`, as rulesLabel writes it) and the `agent` label
 * (`greedy(tuned,-mobility,build-in-suit=2)`, `lookahead(tuned,depth=3,width=3)`,
 * `random(agent-seed=5)`, `solver(max-states=100000)`, `…,max-steps=500)`), so a CSV row replays.
 */
import { optionValue } from "../agents/agent.js";
import { FEATURE_NAMES } from "../agents/move-features.js";
import { UsageError } from "../errors.js";
import { resolveRules, type RuleOverrides, type Rules } from "../engine/rules.js";

const RULE_KEYS = ["cells", "emptyColumn", "groupMove", "build", "base", "deal"] as const;

export function parseRulesLabel(label: string): Rules {
  const m = /^([a-z-]+)(?:\[(.*)\])?$/.exec(label.trim());
  if (!m)
    throw new UsageError(
      `cannot read the rules label "${label}": expected preset or preset[key=value,…]`,
    );
  const o: Record<string, string | number> = {};
  for (const part of m[2] ? m[2].split(",") : []) {
    const kv = /^([A-Za-z]+)=(.+)$/.exec(part);
    if (!kv || !(RULE_KEYS as readonly string[]).includes(kv[1]!))
      throw new UsageError(
        `cannot read "${part}" in the rules label "${label}": keys are ${RULE_KEYS.join(", ")}`,
      );
    o[kv[1]!] = kv[1] === "cells" ? Number(kv[2]) : kv[2]!;
  }
  return resolveRules(m[1]!, o as RuleOverrides);
}

export interface AgentSpec {
  readonly agent: string;
  readonly options: Record<string, string | number | boolean>;
  /** The label's max-steps; absent when the game had its rules' default limit. */
  readonly maxSteps?: number;
}

/** Splits `name(a,b,c)` and turns the parts back into the options that built the agent. */
export function parseAgentLabel(label: string): AgentSpec {
  const m = /^([a-z][\w-]*)(?:\((.*)\))?$/.exec(label.trim());
  if (!m) throw new UsageError(`cannot read the agent label "${label}"`);
  const agent = m[1]!;
  const parts = m[2] ? m[2].split(",") : [];
  const options: Record<string, string | number | boolean> = {};
  const without: string[] = [];
  const weight: string[] = [];
  let maxSteps: number | undefined;
  parts.forEach((p, i) => {
    const kv = /^([a-z][\w-]*)=(.*)$/.exec(p);
    if (kv && kv[1] === "max-steps") maxSteps = Number(kv[2]);
    else if (agent === "greedy" || agent === "lookahead") {
      if (i === 0 && !kv) options.heuristic = p;
      else if (p.startsWith("-")) without.push(p.slice(1));
      else if (kv && FEATURE_NAMES.includes(kv[1]!)) weight.push(p);
      else if (kv) options[kv[1]!] = optionValue(kv[1]!, kv[2]!);
      else throw new UsageError(`cannot read "${p}" in the agent label "${label}"`);
    } else if (agent === "policy" && i === 0 && !kv) options.model = p;
    else if (agent === "policy" && p === "sample") options.sample = "true";
    else if (agent === "policy" && p === "-guard") options.guard = "false";
    else if (agent === "scorer" && i === 0 && !kv) options.model = p;
    else if (kv) options[kv[1]!] = kv[2]!;
    else
      throw new UsageError(
        `cannot rebuild the agent "${label}" from its label: replay it with --agent and its options`,
      );
  });
  if (without.length) options.without = without.join(",");
  if (weight.length) options.weight = weight.join(",");
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1))
    throw new UsageError(`bad max-steps in the agent label "${label}"`);
  return { agent, options, maxSteps };
}
