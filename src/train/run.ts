/**
 * The run folder of every `penguin train` algorithm: config.json (options, rules, backend,
 * provenance), deals.json (the deal split), metrics.csv (one row per update or generation, the
 * algorithm's own columns), train.log, curve.svg (learning curve), checkpoint/ (the model a
 * player loads) and resume/ (the state a resume continues from, src/train/checkpoint.ts). Every file is written to a
 * temporary name and renamed, so a kill never leaves half a file.
 */
import { CheckpointError } from "./checkpoint.js";
import { splitsRecord } from "./splits.js";
import { UsageError } from "../errors.js";
import { existsSync, appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { TopLevelSpec } from "vega-lite";
import { rulesLabel, type Rules } from "../engine/rules.js";
import { provenance } from "../env/provenance.js";
import { backendInfo } from "./backend.js";
import { renderSvg } from "./curve.js";
import { writeAtomic } from "../util/files.js";
import { MAX_RUN_FILE_BYTES, readTextFile } from "../util/read.js";
import { writeFailure } from "../util/output.js";

/** A run's own file, refused when it is not a regular file or is implausibly large. */
const readRunFile = (p: string, what: string): string =>
  readTextFile(p, { maxBytes: MAX_RUN_FILE_BYTES, what });

export const METRIC_COLUMNS = [
  "phase",
  "update",
  "env_steps",
  "samples",
  "loss",
  "policy_loss",
  "value_loss",
  "entropy",
  "approx_kl",
  "clip_frac",
  "mean_reward",
  "episodes",
  "rollout_win_rate",
  "eval_win_rate",
  "eval_cards_home",
  "lr",
  "env_steps_per_s",
  "samples_per_s",
  "wall_s",
  "cpu_s",
] as const;
export type MetricName = (typeof METRIC_COLUMNS)[number];
export type MetricRow = Partial<Record<MetricName, number | string>>;
/** Columns that depend on the machine's speed, not on the computation (left out of resume checks). */
export const TIMING_COLUMNS: readonly MetricName[] = [
  "env_steps_per_s",
  "samples_per_s",
  "wall_s",
  "cpu_s",
];

function cell(v: number | string | undefined): string {
  if (v === undefined) return "";
  if (typeof v === "string") return v;
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : v.toPrecision(6);
}

export class RunFolder<C extends string = MetricName> {
  rows: Partial<Record<C, number | string>>[] = [];
  /** Log to train.log only, not to stdout (tests). */
  quiet = false;
  /** `columns`: the algorithm's metrics.csv header (default: PPO's). */
  constructor(
    readonly dir: string,
    readonly columns: readonly C[] = METRIC_COLUMNS as unknown as readonly C[],
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** config.json: the algorithm, its options and rules, the backend, the time and the provenance. */
  writeConfig(algo: string, rules: Rules, fields: object): void {
    this.writeJson("config.json", {
      algo,
      ...fields,
      splits: splitsRecord(),
      rulesLabel: rulesLabel(rules),
      ...backendInfo(),
      created: new Date().toISOString(),
      provenance: provenance([rules.preset]),
    });
  }

  /** The numeric rows of metrics.csv as written (on resume). */
  readMetrics(): Partial<Record<C, number>>[] {
    const p = join(this.dir, "metrics.csv");
    if (!existsSync(p)) return [];
    const [head, ...lines] = readRunFile(p, "metrics file").trim().split("\n");
    const cols = (head ?? "").split(",");
    return lines.map((line) => {
      const cells = line.split(",");
      const r: Partial<Record<C, number>> = {};
      cols.forEach((c, i) => {
        if (cells[i] !== undefined && cells[i] !== "") r[c as C] = Number(cells[i]);
      });
      return r;
    });
  }

  get checkpointDir(): string {
    return join(this.dir, "checkpoint");
  }

  log(line: string): void {
    const text = `${new Date().toISOString().slice(11, 19)} ${line}`;
    if (!this.quiet) console.log(text);
    try {
      appendFileSync(join(this.dir, "train.log"), `${text}\n`);
    } catch (e) {
      throw writeFailure(join(this.dir, "train.log"), e, "the last checkpoint is kept");
    }
  }

  writeJson(name: string, value: unknown): void {
    writeAtomic(join(this.dir, name), `${JSON.stringify(value, null, 2)}\n`);
  }

  readJson<T>(name: string): T | undefined {
    const p = join(this.dir, name);
    if (!existsSync(p)) return undefined;
    try {
      return JSON.parse(readRunFile(p, name)) as T;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new CheckpointError(`${p} is damaged (not valid JSON); restore it or start a new run`);
    }
  }

  addRow(row: Partial<Record<C, number | string>>): void {
    this.rows.push(row);
    this.writeMetrics();
  }

  /** Keeps the first n rows (on resume: the rows the checkpoint had seen). */
  truncate(n: number, rows: Partial<Record<C, number | string>>[]): void {
    this.rows = rows.slice(0, n);
    this.writeMetrics();
  }

  writeMetrics(): void {
    const lines = [this.columns.join(",")];
    for (const r of this.rows) lines.push(this.columns.map((c) => cell(r[c])).join(","));
    writeAtomic(join(this.dir, "metrics.csv"), `${lines.join("\n")}\n`);
  }

  /** Learning curve: evaluation win rate and training loss against wall time, as SVG. */
  async writeCurve(title: string): Promise<void> {
    const values: { wall_s: number; value: number; series: string }[] = [];
    for (const r of this.rows as MetricRow[]) {
      const w = Number(r.wall_s);
      if (r.eval_win_rate !== undefined && r.eval_win_rate !== "")
        values.push({ wall_s: w, value: Number(r.eval_win_rate), series: "eval win rate" });
      const val = (r as { val_win_rate?: number | string }).val_win_rate;
      if (val !== undefined && val !== "")
        values.push({ wall_s: w, value: Number(val), series: "validation win rate" });
      if (r.rollout_win_rate !== undefined && r.rollout_win_rate !== "")
        values.push({ wall_s: w, value: Number(r.rollout_win_rate), series: "rollout win rate" });
      if (r.loss !== undefined && r.loss !== "")
        values.push({ wall_s: w, value: Number(r.loss), series: "loss" });
    }
    const spec: TopLevelSpec = {
      $schema: "https://vega.github.io/schema/vega-lite/v5.json",
      title,
      width: 640,
      height: 200,
      data: { values },
      facet: { row: { field: "panel", type: "nominal", title: null } },
      spec: {
        width: 640,
        height: 200,
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "wall_s", type: "quantitative", title: "wall time (s)" },
          y: { field: "value", type: "quantitative", title: null },
          color: { field: "series", type: "nominal" },
        },
      },
      transform: [{ calculate: "datum.series === 'loss' ? 'loss' : 'rates'", as: "panel" }],
      resolve: { scale: { y: "independent" } },
    } as TopLevelSpec;
    writeAtomic(join(this.dir, "curve.svg"), await renderSvg(spec));
  }
}
