/**
 * Consistency of everything in results/: (1) no agent ever won a deal that the solver proved
 * lost under the same rules; (2) the same deal, rules and player give the same outcome in every
 * file (a difference means a file was made by another version of an agent or the solver, and
 * should be rerun); (3) where `<dir>/atlas/` covers a deal and its rules, every solver verdict
 * of the studies is the atlas's and no agent won a deal the atlas lists as lost. Exit code 1
 * when any check fails.
 *
 *   npx tsx experiments/crosscheck.ts [--dir results]
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { openStoreReader } from "./lib/read.js";
import { UsageError } from "../src/errors.js";
import { exitOnUsageError, helpText, parseOptions } from "./lib/options.js";
import { parseDealsFile } from "./lib/atlas-deals.js";
import { MiB, readTextFile } from "../src/util/read.js";

/** One atlas row's verdicts: 0 won, 1 lost, 2 unknown, for deals first … first + length − 1. */
interface AtlasRow {
  row: string;
  first: number;
  verdicts: Uint8Array;
}
const VERDICT = ["won", "lost", "unknown"] as const;

/** The atlas's rows under `dir` (summary.csv and deals/), keyed by deck and rules; none if absent. */
function readAtlas(dir: string): Map<string, AtlasRow> {
  const atlas = new Map<string, AtlasRow>();
  const summary = join(dir, "summary.csv");
  if (!existsSync(summary)) return atlas;
  openStoreReader(summary, (r) => {
    const first = Number(r.first_deal);
    const last = Number(r.last_deal);
    if (!(Number.isSafeInteger(first) && Number.isSafeInteger(last) && first >= 1 && last >= first))
      throw new UsageError(`${summary}: row ${r.row} has deals ${r.first_deal}-${r.last_deal}`);
    const file = join(dir, "deals", `${r.row}.txt`);
    // The largest lists (bitsets of a million deals) are about 170 kB.
    const lists = parseDealsFile(
      readTextFile(file, { maxBytes: 16 * MiB, what: "atlas deals file" }),
      file,
    );
    const verdicts = new Uint8Array(last - first + 1);
    for (const d of lists.lost) verdicts[d - first] = 1;
    for (const d of lists.unknown) verdicts[d - first] = 2;
    atlas.set(`${r.deck}|${r.rules}`, { row: r.row!, first, verdicts });
  });
  return atlas;
}

const options = {
  dir: { type: "string", default: "results", help: "folder of experiment CSVs" },
} as const;

await exitOnUsageError("crosscheck", async () => {
  const o = parseOptions("crosscheck", options, process.argv.slice(2));
  if (o.help) {
    process.stdout.write(`${helpText("crosscheck", options)}\n`);
    return;
  }
  const verdict = new Map<string, string>();
  const agentWins: string[] = [];
  const seen = new Map<string, { outcome: string; file: string }>();
  const clashes: string[] = [];
  let rows = 0;
  let names: string[];
  try {
    names = readdirSync(o.dir);
  } catch (e) {
    throw new UsageError(
      `cannot read the folder --dir ${o.dir}: ${(e as { code?: string }).code ?? String(e)}`,
    );
  }
  const files = names.filter((f) => f.endsWith(".csv") && !f.endsWith(".summary.csv"));
  const atlas = readAtlas(join(o.dir, "atlas"));
  const atlasClashes: string[] = [];
  let atlasVerdicts = 0;
  let atlasWins = 0;
  for (const f of files) {
    openStoreReader(join(o.dir, f), (r) => {
      rows++;
      const a = atlas.get(`${r.deck}|${r.rules}`);
      const v = a?.verdicts[Number(r.deal) - a.first];
      if (a && v !== undefined) {
        const solver = r.player!.startsWith("solver");
        if (solver && r.outcome !== "unknown" && VERDICT[v] !== "unknown") {
          atlasVerdicts++;
          if (VERDICT[v] !== r.outcome)
            atlasClashes.push(
              `${r.rules} deal ${r.deal}: ${r.outcome} in ${f}, ${VERDICT[v]} in the atlas (${a.row})`,
            );
        } else if (!solver && r.outcome === "won") {
          atlasWins++;
          if (VERDICT[v] === "lost")
            atlasClashes.push(
              `${r.rules} deal ${r.deal}: won by ${r.player} in ${f}, lost in the atlas (${a.row})`,
            );
        }
      }
      const deal = `${r.deal}|${r.rules}`;
      const key = `${deal}|${r.player}`;
      const prev = seen.get(key);
      if (prev && prev.outcome !== r.outcome)
        clashes.push(`${key}: ${prev.outcome} in ${prev.file}, ${r.outcome} in ${f}`);
      else if (!prev) seen.set(key, { outcome: r.outcome!, file: f });
      if (r.player!.startsWith("solver")) {
        if (r.outcome !== "unknown") verdict.set(deal, r.outcome!);
      } else if (r.outcome === "won") agentWins.push(deal);
    });
  }
  const contradictions = agentWins.filter((d) => verdict.get(d) === "lost");
  const checked = agentWins.filter((d) => verdict.has(d)).length;
  process.stdout.write(`${files.length} files, ${rows} rows, ${verdict.size} solver verdicts\n`);
  process.stdout.write(
    `agent wins on deals with a solver verdict: ${checked}; on deals the solver proved lost: ${contradictions.length}\n`,
  );
  process.stdout.write(
    `same deal, rules and player with different outcomes across files: ${clashes.length}\n`,
  );
  if (atlas.size)
    process.stdout.write(
      `against the atlas (${atlas.size} rows): ${atlasVerdicts} solver verdicts and ${atlasWins} agent wins on its deals; disagreements: ${atlasClashes.length}\n`,
    );
  for (const c of [
    ...contradictions.map((d) => `won but proved lost: ${d}`),
    ...clashes,
    ...atlasClashes,
  ].slice(0, 20))
    process.stdout.write(`  ${c}\n`);
  if (contradictions.length || clashes.length || atlasClashes.length) process.exitCode = 1;
});
