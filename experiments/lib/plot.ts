/**
 * Plots: a vega-lite spec compiled to vega and rendered to SVG in Node (no browser, no canvas).
 * Every chart shows win rates with their 95% Wilson intervals as error bars.
 */
import type { TopLevelSpec } from "vega-lite";
import { writeOutput } from "../../src/util/output.js";
import type { SummaryRow } from "./summary.js";

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // Loaded here, not at the top: only a plot needs vega, and it takes a while to load.
  const [{ parse, View }, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  const vg = compile(spec).spec;
  const view = new View(parse(vg), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

export async function writeSvg(path: string, spec: TopLevelSpec): Promise<void> {
  writeOutput(path, await renderSvg(spec));
}

type Datum = Record<string, string | number>;

/** Summary rows as plot data: group columns plus rate/lo/hi in percent. */
export function plotData(summary: readonly SummaryRow[]): Datum[] {
  return summary.map((s) => ({
    ...s.group,
    rate: +(100 * s.rate).toFixed(2),
    lo: +(100 * s.lo).toFixed(2),
    hi: +(100 * s.hi).toFixed(2),
    n: s.n,
  }));
}

export interface ChartOptions {
  title: string;
  /** Field on the x axis and its type ("quantitative" for flipper counts, "ordinal" for labels). */
  x: {
    field: string;
    title: string;
    type: "quantitative" | "ordinal" | "nominal";
    sort?: string[];
  };
  color?: { field: string; title: string };
  /** Small multiples, one panel per value. */
  column?: { field: string; title: string; sort?: string[] };
  /** "line" joins the points (ordered x); "point" for unordered categories. */
  mark: "line" | "point";
  yTitle?: string;
  /** Fit the y axis to the data (small differences) instead of 0–100 %. */
  yFit?: boolean;
}

/** Win rate (%) against x, coloured by series, with 95% interval bars; optional facets. */
export function rateChart(data: Datum[], o: ChartOptions): TopLevelSpec {
  const x = {
    field: o.x.field,
    type: o.x.type,
    title: o.x.title,
    ...(o.x.sort ? { sort: o.x.sort } : {}),
    axis: { labelAngle: o.x.type === "quantitative" ? 0 : -30, labelLimit: 200 },
  };
  const color = o.color
    ? {
        color: {
          field: o.color.field,
          type: "nominal" as const,
          title: o.color.title,
          legend: { labelLimit: 400 },
        },
      }
    : {};
  // Categories on x: series side by side within each category, not on top of each other.
  const offset =
    o.mark === "point" && o.color
      ? { xOffset: { field: o.color.field, type: "nominal" as const } }
      : {};
  const y = {
    field: "rate",
    type: "quantitative" as const,
    title: o.yTitle ?? "win rate (%)",
    scale: o.yFit ? { zero: false } : { domain: [0, 100] },
  };
  const layer = {
    layer: [
      {
        mark:
          o.mark === "line"
            ? { type: "line" as const, point: true }
            : { type: "point" as const, filled: true, size: 60 },
        encoding: {
          x,
          y,
          ...color,
          ...offset,
          tooltip: [{ field: "n", type: "quantitative" as const }],
        },
      },
      {
        mark: { type: "errorbar" as const, ticks: { size: 6 } },
        encoding: {
          x,
          y: { field: "lo", type: "quantitative" as const, title: "" },
          y2: { field: "hi" },
          ...color,
          ...offset,
        },
      },
    ],
  };
  const base = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: o.title,
    data: { values: data },
    config: { font: "sans-serif" },
  };
  if (o.column)
    return {
      ...base,
      facet: {
        column: {
          field: o.column.field,
          type: "nominal",
          title: o.column.title,
          ...(o.column.sort ? { sort: o.column.sort } : {}),
        },
      },
      spec: { width: 180, height: 220, ...layer },
    } as TopLevelSpec;
  return { ...base, width: 420, height: 260, ...layer } as TopLevelSpec;
}
