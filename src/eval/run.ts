/**
 * `runEval`: an evaluation written to a resumable CSV, the whole of `penguin eval` but the flags.
 * Opens (or resumes) the file, plays only the deals it does not hold yet, appends their rows in
 * deal order, and returns the summary over all requested deals.
 */
import { rulesLabel } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import { createAgent } from "../agents/registry.js";
import { ResumableCsv, type CsvValue } from "./csv.js";
import { dealLabel, dealOrderKey, parseDealLabel } from "./deals.js";
import { agentLabel, evaluate, type EvalRow, type EvalSpec } from "./evaluate.js";
import { summarize, type GameOutcome, type Summary } from "./stats.js";

/** The CSV columns of `penguin eval`, in order. */
export const EVAL_COLUMNS = ["deal", "rules", "agent", "won", "cards_home", "moves", "ms"] as const;

export function evalRowValues(r: EvalRow): CsvValue[] {
  return [r.deal, r.rules, r.agent, r.won, r.cardsHome, r.moves, r.ms];
}

export interface RunEvalOptions extends EvalSpec {
  /** CSV path; omit to only compute the summary. */
  readonly out?: string;
  /** Called after each row is written (progress bars). */
  readonly onRow?: (row: EvalRow, done: number, total: number) => void;
}

export interface RunEvalResult {
  readonly summary: Summary;
  /** Agent label written in the rows. */
  readonly agent: string;
  readonly rules: string;
  /** Deals that were already in the file. */
  readonly skipped: number;
}

export async function runEval(o: RunEvalOptions): Promise<RunEvalResult> {
  // Build the agent here first: bad options fail before any file is touched, and its name is the fingerprint.
  const agent = agentLabel(await createAgent(o.agent, o.agentOptions ?? {}, o.rules), o.maxSteps);
  const rules = rulesLabel(o.rules);
  const wanted = new Set(o.deals.map(dealLabel));
  if (wanted.size !== o.deals.length) throw new UsageError("the deal list names a deal twice");
  const csv = o.out ? ResumableCsv.open({ path: o.out, columns: EVAL_COLUMNS, key: "deal", fixed: { rules, agent } }) : undefined;
  try {
    const outcomes: GameOutcome[] = [];
    let lastKey = -Infinity;
    for (const r of csv?.existing ?? []) {
      lastKey = Math.max(lastKey, dealOrderKey(parseDealLabel(r.deal!)));
      if (wanted.has(r.deal!)) outcomes.push({ won: r.won === "true", cardsHome: Number(r.cards_home), moves: Number(r.moves) });
    }
    const todo = o.deals.filter((d) => !csv?.keys.has(dealLabel(d)));
    const early = todo.find((d) => dealOrderKey(d) <= lastKey);
    if (early) throw new UsageError(`${o.out} already holds deals after ${dealLabel(early)}; adding it would break deal order: use another --out`);
    const t0 = performance.now();
    let played = 0;
    for await (const row of evaluate({ ...o, deals: todo })) {
      csv?.append([evalRowValues(row)]);
      outcomes.push(row);
      played++;
      o.onRow?.(row, outcomes.length, o.deals.length);
    }
    const seconds = (performance.now() - t0) / 1000;
    return { summary: summarize(outcomes, played, seconds), agent, rules, skipped: o.deals.length - todo.length };
  } finally {
    csv?.close();
  }
}
