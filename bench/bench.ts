/**
 * `npm run bench`: runs every bench/*.bench.ts section and prints one JSON object keyed by
 * preset (the import section keys by entry point, "penguin-gym" and "penguin-gym/train"), merging the figures each section measures ({"penguin": {"moveGenPerSec": …}, …}).
 * Sections export `default async function(): Promise<Record<string, Record<string, number|string>>>`.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";
import { heartbeat } from "../src/cli/progress.js";

type Figures = Record<string, Record<string, number | string>>;
const here = dirname(fileURLToPath(import.meta.url));
// Words pick sections; flags (--full, …) are left to the sections themselves.
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const out: Figures = {};
for (const f of readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .sort()) {
  if (only.length && !only.some((o) => f.startsWith(o))) continue;
  const name = f.replace(/\.bench\.ts$/, "");
  // Sections run tight synchronous loops for seconds to minutes: one line on stderr as each
  // starts and ends tells a log (CI, a job array) that the run is alive; stdout stays pure JSON.
  process.stderr.write(`bench: ${name} ...\n`);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // A line every 10 s while the section loads and runs (from its own thread: the loops do not
  // yield, and loading TensorFlow.js alone can take seconds).
  const quiet = heartbeat(`bench: ${name}`);
  const figures = await import(pathToFileURL(join(here, f)).href)
    .then((mod: { default: () => Promise<Figures> }) => mod.default())
    .finally(quiet);
  const c = process.cpuUsage(c0);
  process.stderr.write(
    `bench: ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s (${((c.user + c.system) / 1e6).toFixed(1)} s CPU)\n`,
  );
  for (const [k, v] of Object.entries(figures)) out[k] = { ...(out[k] ?? {}), ...v };
}
console.log(JSON.stringify(out, null, 2));
