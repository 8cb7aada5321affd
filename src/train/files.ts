/** Crash-safe file output (every file is written to a temporary name and renamed into place), and the runs' log. */
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../util/output.js";

export function writeAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, data);
}

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A run's logger: each line gets a UTC time stamp, goes to stdout (unless quiet) and is appended to dir/train.log. */
export function runLog(dir: string, quiet: boolean): (line: string) => void {
  return (line: string): void => {
    const text = `${new Date().toISOString().slice(11, 19)} ${line}`;
    if (!quiet) console.log(text);
    appendFileSync(join(dir, "train.log"), text + "\n");
  };
}

/** Writes a metrics CSV atomically: a header of `columns`, one line per row; integers as they are, other numbers to `digits` significant digits, missing cells empty. */
export function writeMetricsCsv<C extends string>(path: string, columns: readonly C[], rows: readonly Partial<Record<C, number>>[], digits: number): void {
  const cell = (v: number | undefined): string => (v === undefined ? "" : Number.isInteger(v) ? String(v) : v.toPrecision(digits));
  writeAtomic(path, [columns.join(","), ...rows.map((r) => columns.map((c) => cell(r[c])).join(","))].join("\n") + "\n");
}
