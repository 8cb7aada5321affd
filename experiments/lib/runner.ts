/**
 * The shared body of every experiment script: options, conditions × deals as tasks, the
 * resumable CSV, the worker pool, then the summary table, summary CSV and SVG plot.
 *
 * Row order is deal-major (deal k under every condition, then deal k+1), which is what makes a
 * shard (a contiguous deal block) a contiguous piece of the unsharded file.
 */
import { resolveRules, rulesLabel, type Rules } from "../../src/engine/rules.js";
import { basename } from "node:path";
import { existsSync } from "node:fs";
import { UsageError } from "../../src/errors.js";
import { printable } from "../../src/util/text.js";
import { writeOutput } from "../../src/util/output.js";
import { exitWithWrappers } from "../../src/util/parent.js";
import { progressReporter } from "../../src/cli/progress.js";
import { writeSidecar } from "../../src/env/provenance.js";
import type { TopLevelSpec } from "vega-lite";
import {
  COMMON_OPTIONS,
  helpText,
  parseOptions,
  type OptionSpecs,
  type Parsed,
} from "./options.js";
import { shardLabel, shardRange, type Shard } from "./shard.js";
import { csvLine } from "../../src/eval/csv.js";
import { TaskPool, workerModule } from "../../src/util/pool.js";
import { openStore } from "./store.js";
import {
  formatTable,
  Summarizer,
  summaryFields,
  SUMMARY_COLUMNS,
  type SummaryRow,
} from "./summary.js";
import { writeSvg } from "./plot.js";
import {
  failedTask,
  type Condition,
  type Outcome,
  type PlayInit,
  type Task,
  type TaskModule,
} from "./types.js";

export type Options<S extends OptionSpecs> = Parsed<typeof COMMON_OPTIONS & S>;

export interface Experiment<S extends OptionSpecs> {
  readonly name: string;
  readonly options: S;
  /** The experiment's own columns, each a key of every condition's labels. */
  readonly labelColumns: readonly string[];
  conditions(o: Options<S>): Condition[];
  /** Columns the summary groups by (default: label columns and player). */
  readonly groupBy?: readonly string[];
  /** Orders summary rows for the table and plot (default: first appearance). */
  sortSummary?(rows: SummaryRow[]): SummaryRow[];
  plot(summary: readonly SummaryRow[], o: Options<S>): TopLevelSpec;
  /** Task module URL (default: experiments/lib/play-condition.ts); tests pass a fake. */
  readonly moduleUrl?: string;
}

export interface ExperimentResult {
  readonly out: string;
  readonly header: string[];
  /** Rows in the file when the run ended. */
  readonly rows: number;
  readonly summary: SummaryRow[];
  readonly complete: boolean;
  readonly played: number;
}

export const OUTCOME_COLUMNS = ["base", "outcome", "cards_home", "moves", "states"];

export async function runExperiment<S extends OptionSpecs>(
  def: Experiment<S>,
  argv: readonly string[],
): Promise<ExperimentResult | undefined> {
  const specs = { ...COMMON_OPTIONS, ...def.options };
  const o = parseOptions(def.name, specs, argv) as unknown as Options<S> & { help: boolean };
  if (o.help) {
    process.stdout.write(`${helpText(def.name, specs)}\n`);
    return undefined;
  }
  const conditions = def.conditions(o);
  const rules: Rules[] = conditions.map((c) => resolveRules(c.preset, c.overrides));
  const moduleUrl = def.moduleUrl ?? workerModule("./play-condition.js", import.meta.url).href;
  const mod = (await import(moduleUrl)) as TaskModule;
  const players = await Promise.all(conditions.map((c) => mod.describe(c)));
  const { start, end } = shardRange(o.deals, o.shard);
  // Task i is deal start + floor(i / C) under condition i mod C: computed, never listed, so a
  // million-deal run holds no task array.
  const C = conditions.length;
  const total = (end - start) * C;
  const taskAt = (i: number): Task => ({
    deal: o.seed + start + Math.floor(i / C),
    condition: i % C,
  });
  const deck = "seed" as const;
  const out = outFile(def.name, o.out, o.shard);
  const header = ["deal", "deck", ...def.labelColumns, "rules", "player", ...OUTCOME_COLUMNS];
  const keyOf = (t: Task): string[] => {
    const c = conditions[t.condition]!;
    return [
      String(t.deal),
      deck,
      ...def.labelColumns.map((l) => String(c.labels[l] ?? "")),
      rulesLabel(rules[t.condition]!),
      players[t.condition]!,
    ];
  };
  const groupBy = def.groupBy ?? [...def.labelColumns, "player"];
  const summarizer = new Summarizer(header, groupBy);
  // --report reads a study that exists: a missing file is a mistake, and nothing is created.
  if (o.report && !existsSync(out))
    throw new UsageError(
      `--report summarizes an existing CSV, and ${printable(out)} does not exist: run the study first (without --report), or name its file with --out`,
    );
  const store = openStore(
    out,
    header,
    header.length - OUTCOME_COLUMNS.length,
    total,
    (i) => keyOf(taskAt(i)),
    (f) => summarizer.add(f),
  );
  writeExperimentSidecar(out, def.name, o, conditions, rules);
  const done = store.rows;
  let rows = done;
  const todo = o.report ? 0 : total - done;
  // A bar on a terminal; in a log or a job array, a line every 10 s.
  const progress =
    !o.quiet && todo > 0
      ? progressReporter({ label: def.name, unit: "games", wins: false })
      : undefined;
  const t0 = Date.now();
  let buffer: string[][] = [];
  let lastFlush = t0;
  const flush = (): void => {
    store.append(buffer);
    buffer = [];
    lastFlush = Date.now();
  };
  // A polite stop (Ctrl-C, SLURM preemption, Kubernetes eviction) keeps the rows finished so far.
  const stop = (sig: NodeJS.Signals): void => {
    flush();
    store.close();
    const why = sig === "SIGHUP" ? "the end of its npx/npm/tsx wrapper" : sig;
    process.stderr.write(
      `\n${def.name}: stopped by ${why} after ${rows} of ${total} games; rerun the same command to resume\n`,
    );
    process.exit(sig === "SIGINT" ? 130 : sig === "SIGHUP" ? 129 : 143);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // Killed wrappers (npx, npm, tsx) cannot pass a signal on: stop the same way when they are gone.
  const unwatch = exitWithWrappers(() => stop("SIGHUP"));
  try {
    let i = 0;
    const init: PlayInit = { moduleUrl, conditions, deck };
    for await (const r of playInOrder(mod, init, todo, (k) => taskAt(done + k), o.workers)) {
      const fields = [
        ...keyOf(taskAt(done + i)),
        r.base,
        r.outcome,
        String(r.cardsHome),
        String(r.moves),
        String(r.states),
      ];
      summarizer.add(fields);
      rows++;
      i++;
      buffer.push(fields);
      progress?.(false, rows, total);
      if (buffer.length >= 256 || Date.now() - lastFlush > 1000) flush();
    }
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    unwatch();
    progress?.stop();
    // Rows finished before an error are kept; the failing task is retried on the next run.
    flush();
    store.close();
  }
  const complete = rows === total;
  let summary = summarizer.rows();
  if (def.sortSummary) summary = def.sortSummary(summary);
  const secs = (Date.now() - t0) / 1000;
  if (!o.quiet) {
    const where = o.shard
      ? ` (shard ${o.shard.index}/${o.shard.count}: deals ${o.seed + start}…${o.seed + end - 1})`
      : "";
    process.stdout.write(
      `${def.name}: ${rows}/${total} games in ${out}${where}; played ${todo} now in ${secs.toFixed(1)} s\n`,
    );
    process.stdout.write(`${formatTable(groupBy, summary)}\n`);
    if (!complete)
      process.stdout.write(
        `incomplete: ${total - rows} games to go (rerun without --report to resume)\n`,
      );
    else if (todo === 0 && !o.report)
      process.stdout.write(
        `nothing to play: ${out} was already complete (delete it or pass another --out to play afresh)\n`,
      );
  }
  // Plots and summaries describe a whole study; a shard waits for `penguin merge` + --report.
  if (!o.shard && rows > 0) {
    const stem = out.replace(/\.csv$/, "");
    writeOutput(
      `${stem}.summary.csv`,
      [
        csvLine([...groupBy, ...SUMMARY_COLUMNS]),
        ...summary.map((s) => csvLine([...groupBy.map((g) => s.group[g]!), ...summaryFields(s)])),
      ].join(""),
    );
    await writeSvg(`${stem}.svg`, def.plot(summary, o));
  }
  return { out, header, rows, summary, complete, played: todo };
}

/**
 * The outcomes of tasks 0 … count−1 in task order, played in this thread (workers ≤ 1) or on the
 * project's worker pool. Each task is seeded by its deal, so which thread plays it never changes
 * its outcome, and the file is the same byte for byte for any number of workers.
 */
async function* playInOrder(
  mod: TaskModule,
  init: PlayInit,
  count: number,
  taskAt: (i: number) => Task,
  workers: number,
): AsyncGenerator<Outcome> {
  if (count === 0) return;
  if (workers <= 1) {
    for (let i = 0; i < count; i++) {
      const t = taskAt(i);
      try {
        yield await mod.play(init.conditions[t.condition]!, t.deal, init.deck);
      } catch (e) {
        throw failedTask(e, t, init.conditions);
      }
      // Let signals and timers in between games (mod.play may never yield to the event loop).
      if ((i & 15) === 15) await new Promise((r) => setImmediate(r));
    }
    return;
  }
  const n = Math.min(workers, count);
  const pool = new TaskPool<PlayInit, Task, Outcome>(
    workerModule("./experiment-worker.js", import.meta.url),
    init,
    n,
    "experiment",
  );
  try {
    // A window keeps a slow game from letting the others run (and buffer) arbitrarily far ahead.
    yield* pool.ordered(count, taskAt, n * 32);
  } finally {
    await pool.close();
  }
}

/**
 * The per-deal CSV of a run: `--out X.csv`, by default runs/<name>.csv (untracked, so a small
 * exploratory run never meets the tracked results/ files). A shard writes X.shard-i-of-n.csv beside
 * it, so one `--out` serves every task of a job array; a name that already says its shard is kept.
 */
export function outFile(name: string, given: string, shard?: Shard): string {
  const base = given || `runs/${name}.csv`;
  if (!shard) return base;
  const label = shardLabel(shard);
  if (base.includes(`.${label}.`) || base.endsWith(`.${label}`)) return base;
  return base.endsWith(".csv") ? `${base.slice(0, -4)}.${label}.csv` : `${base}.${label}`;
}

/**
 * X.meta.json beside X.csv (and X.summary.csv): the experiment, its options and conditions, and
 * the provenance (package version, git commit, env ids) of each run that wrote to the file.
 */
function writeExperimentSidecar(
  out: string,
  name: string,
  options: object,
  conditions: readonly Condition[],
  rules: readonly Rules[],
): void {
  const about = {
    experiment: name,
    csv: basename(out),
    options,
    conditions: conditions.map((c, i) => ({ ...c, rules: rulesLabel(rules[i]!) })),
  };
  writeSidecar(out, about, new Set(conditions.map((c) => c.preset)));
}
