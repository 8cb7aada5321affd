/**
 * `npm run bench`: runs every bench/*.bench.ts section and prints one JSON object keyed by
 * preset, merging the figures each section measures ({"penguin": {"moveGenPerSec": …}, …}).
 * Sections export `default async function(): Promise<Record<string, Record<string, number|string>>>`.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

type Figures = Record<string, Record<string, number | string>>;
const here = dirname(fileURLToPath(import.meta.url));
// Words pick sections; flags (--full, …) are left to the sections themselves.
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const out: Figures = {};
for (const f of readdirSync(here).filter((f) => f.endsWith(".bench.ts")).sort()) {
  if (only.length && !only.some((o) => f.startsWith(o))) continue;
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { default: () => Promise<Figures> };
  const figures = await mod.default();
  for (const [k, v] of Object.entries(figures)) out[k] = { ...(out[k] ?? {}), ...v };
}
console.log(JSON.stringify(out, null, 2));
