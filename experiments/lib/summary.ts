/**
 * Per-condition win rates with 95% Wilson intervals, from the per-deal rows. For the solver a
 * deal whose search ran out of budget is "unknown": the solvable share then lies between
 * won/n and (won + unknown)/n, and both bounds are reported.
 */
import { wilson } from "../../src/util/wilson.js";

export interface SummaryRow {
  /** Values of the grouping columns, in order. */
  readonly group: Readonly<Record<string, string>>;
  readonly n: number;
  readonly won: number;
  readonly unknown: number;
  readonly rate: number;
  readonly lo: number;
  readonly hi: number;
  /** (won + unknown) / n: the solvable share if every unknown deal were solvable. */
  readonly upper: number;
  readonly meanCardsHome: number;
}

/** Aggregates rows one at a time, so a file of any size can be summarized in one pass. */
export class Summarizer {
  private readonly gi: number[];
  private readonly oi: number;
  private readonly hi: number;
  private readonly acc = new Map<
    string,
    { group: Record<string, string>; n: number; won: number; unknown: number; home: number }
  >();

  constructor(
    header: readonly string[],
    private readonly groupBy: readonly string[],
  ) {
    const at = (c: string): number => {
      const i = header.indexOf(c);
      if (i < 0) throw new Error(`no column ${c}`);
      return i;
    };
    this.gi = groupBy.map(at);
    this.oi = at("outcome");
    this.hi = at("cards_home");
  }

  add(r: readonly string[]): void {
    const key = this.gi.map((i) => r[i]).join("\u0001");
    let a = this.acc.get(key);
    if (!a) {
      a = {
        group: Object.fromEntries(this.groupBy.map((g, k) => [g, r[this.gi[k]!]!])),
        n: 0,
        won: 0,
        unknown: 0,
        home: 0,
      };
      this.acc.set(key, a);
    }
    a.n++;
    if (r[this.oi] === "won") a.won++;
    else if (r[this.oi] === "unknown") a.unknown++;
    a.home += Number(r[this.hi]);
  }

  /** One row per group, in order of first appearance. */
  rows(): SummaryRow[] {
    return [...this.acc.values()].map((a) => {
      const { low, high } = wilson(a.won, a.n);
      return {
        group: a.group,
        n: a.n,
        won: a.won,
        unknown: a.unknown,
        rate: a.won / a.n,
        lo: low,
        hi: high,
        upper: (a.won + a.unknown) / a.n,
        meanCardsHome: a.home / a.n,
      };
    });
  }
}

export function summarize(
  header: readonly string[],
  rows: Iterable<readonly string[]>,
  groupBy: readonly string[],
): SummaryRow[] {
  const s = new Summarizer(header, groupBy);
  for (const r of rows) s.add(r);
  return s.rows();
}

const pct = (x: number): string => (100 * x).toFixed(1);

export const SUMMARY_COLUMNS = [
  "n",
  "won",
  "unknown",
  "win_rate",
  "ci95_lo",
  "ci95_hi",
  "upper_if_unknown_won",
  "mean_cards_home",
];

export function summaryFields(s: SummaryRow): string[] {
  return [
    String(s.n),
    String(s.won),
    String(s.unknown),
    s.rate.toFixed(4),
    s.lo.toFixed(4),
    s.hi.toFixed(4),
    s.upper.toFixed(4),
    s.meanCardsHome.toFixed(2),
  ];
}

/** A plain-text table for the terminal. */
export function formatTable(groupBy: readonly string[], summary: readonly SummaryRow[]): string {
  const head = [...groupBy, "n", "win %", "95% interval", "unknown"];
  const body = summary.map((s) => [
    ...groupBy.map((g) => s.group[g] ?? ""),
    String(s.n),
    pct(s.rate),
    `${pct(s.lo)}–${pct(s.hi)}`,
    s.unknown ? String(s.unknown) : "",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (r: string[]): string =>
    r
      .map((c, i) => (i < groupBy.length ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ");
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
