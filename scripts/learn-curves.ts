/**
 * Draws one learning-curve SVG from a CSV: one line per y column against an x column, with the
 * rows whose y cell is empty left out (evaluations happen only at some rows).
 *
 *   npx tsx scripts/learn-curves.ts FILE.csv X Y[,Y2…] OUT.svg "title" ["x title"]
 */
import { readFileSync } from "node:fs";
import type { TopLevelSpec } from "vega-lite";
import { renderSvg } from "../src/train/curve.js";
import { writeAtomic } from "../src/util/files.js";
import { parseCsvText } from "../src/util/csv.js";

const [file, x, ys, out, title, xTitle] = process.argv.slice(2);
if (!file || !x || !ys || !out) {
  console.error('usage: learn-curves.ts FILE.csv X Y[,Y2…] OUT.svg "title" ["x title"]');
  process.exit(2);
}
const table = parseCsvText(readFileSync(file, "utf8"), file).records.map((r) => r.fields);
const header = table[0]!;
const col = (name: string): number => {
  const i = header.indexOf(name);
  if (i < 0) {
    console.error(`learn-curves: ${file} has no column ${name} (it has ${header.join(", ")})`);
    process.exit(2);
  }
  return i;
};
const xi = col(x);
const points: { x: number; value: number; series: string }[] = [];
for (const y of ys.split(",")) {
  const yi = col(y);
  for (const r of table.slice(1))
    if (r[yi] !== undefined && r[yi] !== "" && r[xi] !== "")
      points.push({ x: Number(r[xi]), value: Number(r[yi]), series: y });
}
const spec = {
  $schema: "https://vega.github.io/schema/vega-lite/v5.json",
  title: title ?? "",
  width: 640,
  height: 260,
  data: { values: points },
  mark: { type: "line", point: true },
  encoding: {
    x: { field: "x", type: "quantitative", title: xTitle ?? x },
    y: { field: "value", type: "quantitative", title: null, scale: { zero: false } },
    color: { field: "series", type: "nominal", legend: { orient: "bottom" } },
  },
} as TopLevelSpec;
writeAtomic(out, await renderSvg(spec));
