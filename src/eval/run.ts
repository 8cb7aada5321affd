/**
 * `runEval`: an evaluation written to a resumable CSV, the whole of `penguin eval` but the flags.
 * Opens (or resumes) the file, checks every row already in it, plays only the deals it does not
 * hold yet, appends their rows in deal order, and returns the summary over all requested deals.
 * Memory does not grow with the number of deals: they come from a lazy range and the summary
 * is built one row at a time.
 */
import { rulesLabel } from "../engine/rules.js";
import { UsageError } from "../errors.js";
import { createAgent } from "../agents/registry.js";
import { basename } from "node:path";
import { writeSidecar } from "../env/provenance.js";
import { ResumableCsv, type CsvValue } from "./csv.js";
import {
  DealRange,
  dealLabel,
  dealOrderKey,
  parseDealLabel,
  type DealList,
  type DealRef,
} from "./deals.js";
import { agentLabel, evaluate, type EvalRow, type EvalSpec } from "./evaluate.js";
import { defaultMaxSteps } from "../env/registry.js";
import { SummaryBuilder, type Summary } from "./stats.js";

/** The CSV columns of `penguin eval`, in order. */
export const EVAL_COLUMNS = ["deal", "rules", "agent", "won", "cards_home", "moves", "ms"] as const;

/**
 * A row's values in column order. Timed rows write milliseconds with one decimal ("3.0"),
 * untimed rows "0", so a resume can tell the two apart and refuse to mix them.
 */
function evalRowValues(r: EvalRow, timing = true): CsvValue[] {
  return [r.deal, r.rules, r.agent, r.won, r.cardsHome, r.moves, timing ? r.ms.toFixed(1) : "0"];
}

export interface RunEvalOptions extends EvalSpec {
  /** CSV path; omit to only compute the summary. */
  readonly out?: string;
  /** Called after each row is written (progress bars). */
  readonly onRow?: (row: EvalRow, done: number, total: number) => void;
  /** Called once the file is open: rows it already holds (all of them, requested or not). */
  readonly onOpen?: (rowsInFile: number) => void;
}

export interface RunEvalResult {
  readonly summary: Summary;
  /** Agent label written in the rows. */
  readonly agent: string;
  readonly rules: string;
  /** Deals that were already in the file. */
  readonly skipped: number;
}

/** Position of a deal in the requested list, or -1. Ranges answer in O(1); arrays use a map. */
function positionIn(deals: DealList): (d: DealRef) => number {
  if (deals instanceof DealRange) {
    return (d) => {
      const v = d.kind === "seed" ? d.seed : d.n;
      return d.kind === deals.kind && v >= deals.first && v < deals.first + deals.length
        ? v - deals.first
        : -1;
    };
  }
  const at = new Map<string, number>();
  for (let i = 0; i < deals.length; i++) {
    const label = dealLabel(deals.at(i)!);
    if (at.has(label)) throw new UsageError("the deal list names a deal twice");
    at.set(label, i);
  }
  return (d) => at.get(dealLabel(d)) ?? -1;
}

const INT = /^(0|[1-9]\d{0,8})$/;

/** Checks one existing row's own content; returns why it is wrong, or undefined. */
function rowProblem(
  r: Readonly<Record<string, string>>,
  maxSteps: number,
  timing: boolean,
): string | undefined {
  if (r.won !== "true" && r.won !== "false")
    return `won is ${JSON.stringify(r.won)}, expected true or false`;
  if (!INT.test(r.cards_home!) || Number(r.cards_home) > 52)
    return `cards_home is ${JSON.stringify(r.cards_home)}, expected an integer from 0 to 52`;
  if ((r.won === "true") !== (r.cards_home === "52"))
    return `won is ${r.won} with ${r.cards_home} cards home (a game is won exactly when all 52 are home)`;
  if (!INT.test(r.moves!) || Number(r.moves) > maxSteps)
    return `moves is ${JSON.stringify(r.moves)}, expected an integer from 0 to ${maxSteps}`;
  if (timing && !/^\d{1,9}\.\d$/.test(r.ms!))
    return `ms is ${JSON.stringify(r.ms)}: the file was written with --no-timing (or by another tool), this run is timed`;
  if (!timing && r.ms !== "0")
    return `ms is ${JSON.stringify(r.ms)}: the file holds timed rows, this run has --no-timing`;
  return undefined;
}

export async function runEval(o: RunEvalOptions): Promise<RunEvalResult> {
  // Build the agent here first: bad options fail before any file is touched, and its name is the fingerprint.
  const agent = agentLabel(
    await createAgent(o.agent, o.agentOptions ?? {}, o.rules),
    o.rules,
    o.maxSteps,
  );
  const rules = rulesLabel(o.rules);
  const timing = o.timing ?? true;
  const maxSteps = o.maxSteps ?? defaultMaxSteps(o.rules);
  const deals = o.deals;
  const position = positionIn(deals);
  const kind = deals.at(0)?.kind;
  const summary = new SummaryBuilder();
  let inRange = 0;
  let lastInRange = -1;
  let lastKey = -Infinity;
  let lastLabel = "";
  const csv = o.out
    ? ResumableCsv.open({
        path: o.out,
        columns: EVAL_COLUMNS,
        fixed: { rules, agent },
        onRow: (r, line) => {
          const bad = (why: string): UsageError =>
            new UsageError(`${o.out} line ${line}: ${why}; use another --out`);
          let d: DealRef;
          try {
            d = parseDealLabel(r.deal!);
          } catch {
            throw bad(`deal is ${JSON.stringify(r.deal)}, expected a seed or ms:N`);
          }
          if (kind !== undefined && d.kind !== kind)
            throw bad(
              `deal ${r.deal} is ${d.kind === "ms" ? "a Microsoft deal" : "a seeded deal"} and this run plays ${kind === "ms" ? "Microsoft deals (--ms-from)" : "seeded deals (--deals)"}: one kind per file`,
            );
          const key = dealOrderKey(d);
          if (key <= lastKey)
            throw bad(
              `deal ${r.deal} comes after deal ${lastLabel}: rows are out of deal order or repeated`,
            );
          const problem = rowProblem(r, maxSteps, timing);
          if (problem) throw bad(problem);
          lastKey = key;
          lastLabel = r.deal!;
          const i = position(d);
          if (i >= 0) {
            inRange++;
            lastInRange = i;
            summary.add({
              won: r.won === "true",
              cardsHome: Number(r.cards_home),
              moves: Number(r.moves),
            });
          }
        },
      })
    : undefined;
  try {
    // X.meta.json beside the CSV: what it holds and the provenance of each run that wrote to it.
    if (o.out)
      writeSidecar(
        o.out,
        {
          csv: basename(o.out),
          columns: EVAL_COLUMNS,
          rules,
          agent,
          agentOptions: o.agentOptions ?? {},
        },
        [o.rules.preset],
      );
    o.onOpen?.(csv?.rows ?? 0);
    // The requested deals already in the file must be its first `inRange` ones, and every deal
    // still to play must come after the file's last row: rows stay in deal order.
    const first = deals.at(inRange);
    if (lastInRange !== inRange - 1 || (first && dealOrderKey(first) <= lastKey))
      throw new UsageError(
        `${o.out} already holds deals after ${dealLabel(first ?? deals.at(lastInRange)!)}; adding it would break deal order: use another --out`,
      );
    const todo: DealList = { length: deals.length - inRange, at: (i) => deals.at(inRange + i) };
    const t0 = performance.now();
    let played = 0;
    for await (const row of evaluate({ ...o, deals: todo })) {
      csv?.append([evalRowValues(row, timing)]);
      summary.add(row);
      played++;
      o.onRow?.(row, inRange + played, deals.length);
    }
    const seconds = (performance.now() - t0) / 1000;
    return { summary: summary.summary(played, seconds), agent, rules, skipped: inRange };
  } finally {
    csv?.close();
  }
}
