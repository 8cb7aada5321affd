/**
 * Learning-curve SVGs of the training runs (vega-lite rendered headless, no canvas needed).
 */
import { join } from "node:path";
import type { TopLevelSpec } from "vega-lite";
import { writeAtomic } from "../util/files.js";

/** Renders a vega-lite spec to SVG text. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // Loaded here, not at the top: only a plot needs vega, and it takes a while to load.
  const [vega, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

export interface CurvePoint {
  x: number;
  value: number;
  series: string;
}

/** Writes dir/curve.svg: one line per series against x; `yDomain` fixes the y axis (else it fits the data). */
export async function writeLineCurve(
  dir: string,
  title: string,
  xTitle: string,
  points: readonly CurvePoint[],
  yDomain?: [number, number],
): Promise<void> {
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title,
    width: 640,
    height: 260,
    data: { values: points },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "x", type: "quantitative", title: xTitle },
      y: {
        field: "value",
        type: "quantitative",
        title: null,
        scale: yDomain ? { domain: yDomain } : { zero: false },
      },
      color: {
        field: "series",
        type: "nominal",
        legend: { labelLimit: 400, orient: "bottom", direction: "vertical" },
      },
    },
  } as TopLevelSpec;
  writeAtomic(join(dir, "curve.svg"), await renderSvg(spec));
}
