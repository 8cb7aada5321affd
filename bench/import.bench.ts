/**
 * Import cost of the two entry points, each measured in a fresh Node process (plain node and the
 * built dist/, as a user's project loads the package), keyed by the import specifier: `importMs` is the wall time of the
 * import() and `importCpuMs` its CPU time (user + system), the median of five runs. The main
 * entry must not load TensorFlow.js or vega; "penguin-gym/train" does.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { median } from "../experiments/lib/median.js";

const ENTRIES = {
  "penguin-gym": "../dist/src/index.js",
  "penguin-gym/train": "../dist/src/train/index.js",
} as const;
const RUNS = 5;

/** One fresh process: [wall ms, cpu ms] of importing `url`. */
function measure(url: string): [number, number] {
  const code = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(url)}); const u = process.cpuUsage(c); console.log(JSON.stringify([performance.now() - t, (u.user + u.system) / 1000]));`;
  return JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" }),
  ) as [number, number];
}

export default async function importBench(): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [name, rel] of Object.entries(ENTRIES)) {
    const url = new URL(rel, import.meta.url);
    if (!existsSync(url))
      throw new Error(`${fileURLToPath(url)} is missing: run \`npm run build\``);
    const runs = Array.from({ length: RUNS }, () => measure(url.href));
    out[name] = {
      importMs: Math.round(median(runs.map((r) => r[0]))),
      importCpuMs: Math.round(median(runs.map((r) => r[1]))),
    };
  }
  return out;
}
