/**
 * Brings shard files written before verdict versions (stamped with the source hash of the build
 * that played them, and without a `code` column) to today's format, so that their rows grow and
 * merge instead of being played again. Only builds named in `--builds` are taken: a build earns
 * its place there when today's version probe (experiments/lib/atlas-version.ts), run on that
 * build's engine and solver, gives today's version for every row it played (docs/atlas.md,
 * "Verdict versions"). Each file is checked again here, with today's code: its rules and player
 * must be today's, and up to `--check` of its lost or unknown deals and as many of its won deals
 * (solver files) must get the verdict the file gives them. A file that fails is left as it was.
 *
 *   npx tsx scripts/atlas/restamp.ts --out /work/runs/atlas --builds 0.1.0+2ecccc974028[,…] [--check 20]
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { playerSpec, type PlayerName } from "../../experiments/atlas.js";
import { atlasRow } from "../../experiments/lib/atlas-rows.js";
import { condition } from "../../experiments/lib/atlas-play.js";
import { parseRanges, SHARD_COLUMNS } from "../../experiments/lib/atlas-shard.js";
import { verdictVersion } from "../../experiments/lib/atlas-version.js";
import { exitOnUsageError, isMain, parseOptions } from "../../experiments/lib/options.js";
import { describe, play } from "../../experiments/lib/play-condition.js";
import { resolveRules, rulesLabel } from "../../src/engine/rules.js";
import { UsageError } from "../../src/errors.js";
import { csvLine } from "../../src/eval/csv.js";
import { readCsvFile } from "../../src/util/csv.js";
import { writeFileAtomic } from "../../src/util/output.js";

/** The columns before `code` was added: the old format. */
const OLD_COLUMNS = SHARD_COLUMNS.filter((c) => c !== "code");

const OPTIONS = {
  out: { type: "string", default: "", help: "the atlas folder whose shards/ to convert" },
  builds: {
    type: "string",
    default: "",
    help: "builds (old version stamps, comma-separated) checked to search as today's",
  },
  check: { type: "int", default: 20, min: 0, help: "deals of each kind re-solved per solver file" },
} as const;

function playerOf(label: string): { name: PlayerName; maxStates: number } {
  const solver = /^solver\(maxStates=(\d+)\)$/.exec(label);
  if (solver) return { name: "solver", maxStates: Number(solver[1]) };
  const name = label.replace(/\(.*$/, "");
  if (!["random", "greedy", "lookahead", "safety"].includes(name))
    throw new UsageError(`player ${JSON.stringify(label)} is not one of the atlas's`);
  return { name: name as PlayerName, maxStates: 0 };
}

async function restamp(path: string, builds: readonly string[], check: number): Promise<string> {
  const lines: string[][] = [];
  let header = "";
  readCsvFile(path, "shard file", ({ fields, raw }, i) => {
    if (i === 0) header = raw;
    else lines.push(fields);
  });
  if (header === SHARD_COLUMNS.join(",")) return "already in today's format";
  if (header !== OLD_COLUMNS.join(",")) throw new UsageError(`${path} is not an atlas shard file`);
  if (lines.length === 0) throw new UsageError(`${path} holds no block: delete it`);
  const col = (name: string): number => OLD_COLUMNS.indexOf(name as (typeof OLD_COLUMNS)[number]);
  const first = lines[0]!;
  const build = first[col("version")]!;
  if (lines.some((l) => l.length !== OLD_COLUMNS.length || l[col("version")] !== build))
    throw new UsageError(`${path}: its lines differ in length or build: left as it was`);
  if (!builds.includes(build)) return `left as it was: build ${build} is not among --builds`;
  const row = atlasRow(first[col("row")]!);
  const rules = rulesLabel(resolveRules(row.preset, row.overrides));
  const { name, maxStates } = playerOf(first[col("player")]!);
  const spec = playerSpec(name, maxStates);
  const label = await describe(condition(row.name, spec));
  if (
    first[col("rules")] !== rules ||
    first[col("deck")] !== row.deck ||
    first[col("player")] !== label
  )
    throw new UsageError(
      `${path}: rules ${first[col("rules")]}, deck ${first[col("deck")]}, player ${first[col("player")]} are not today's ${rules}, ${row.deck}, ${label}: left as it was`,
    );
  if (name === "solver") {
    // Today's verdicts on a sample of the file's deals: its first lost or unknown ones and its first won ones.
    const lost = new Set(lines.flatMap((l) => parseRanges(l[col("lost_deals")]!, path)));
    const unknown = new Set(lines.flatMap((l) => parseRanges(l[col("unknown_deals")]!, path)));
    const notWon = [...lost, ...unknown].slice(0, check);
    const won: number[] = [];
    for (let d = Number(first[col("from")]); won.length < check; d++) {
      if (d >= Number(lines[lines.length - 1]![col("to")])) break;
      if (!lost.has(d) && !unknown.has(d)) won.push(d);
    }
    for (const d of [...notWon, ...won]) {
      const now = (await play(condition(row.name, spec), d, row.deck)).outcome;
      const then = lost.has(d) ? "lost" : unknown.has(d) ? "unknown" : "won";
      if (now !== then)
        throw new UsageError(
          `${path}: deal ${d} was ${then}, today's solver says ${now}: left as it was`,
        );
    }
  }
  const version = await verdictVersion(row.name, name, spec);
  const text = [
    csvLine(SHARD_COLUMNS),
    ...lines.map((l) => csvLine([...l.map((v, j) => (j === col("version") ? version : v)), build])),
  ].join("");
  writeFileAtomic(path, text);
  return `${build} → ${version}`;
}

/** Converts every old-format shard file under `<out>/shards/`; returns a line per file. */
export async function restampFolder(
  out: string,
  builds: readonly string[],
  check: number,
): Promise<string[]> {
  const root = join(out, "shards");
  const said: string[] = [];
  for (const r of readdirSync(root).sort()) {
    if (!statSync(join(root, r)).isDirectory()) continue;
    for (const f of readdirSync(join(root, r)).sort()) {
      if (!f.endsWith(".csv")) continue;
      const path = join(root, r, f);
      said.push(`${path}: ${await restamp(path, builds, check)}`);
    }
  }
  return said;
}

if (isMain(import.meta.url))
  await exitOnUsageError("restamp", async () => {
    const o = parseOptions("scripts/atlas/restamp", OPTIONS, process.argv.slice(2));
    if (!o.out) throw new UsageError("--out is needed: the atlas folder whose shards/ to convert");
    const builds = o.builds.split(",").filter((b) => b !== "");
    for (const line of await restampFolder(o.out, builds, o.check))
      process.stdout.write(`${line}\n`);
  });
