/**
 * Consistency of everything in results/: (1) no agent ever won a deal that the solver proved
 * lost under the same rules; (2) the same deal, rules and player give the same outcome in every
 * file (a difference means a file was made by another version of an agent or the solver, and
 * should be rerun). Exit code 1 when either check fails.
 *
 *   npx tsx experiments/crosscheck.ts [--dir results]
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { openStoreReader } from "./lib/read.js";
import { UsageError } from "../src/errors.js";
import { exitOnUsageError, helpText, parseOptions } from "./lib/options.js";

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
  for (const f of files) {
    openStoreReader(join(o.dir, f), (r) => {
      rows++;
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
  for (const c of [...contradictions.map((d) => `won but proved lost: ${d}`), ...clashes].slice(
    0,
    20,
  ))
    process.stdout.write(`  ${c}\n`);
  if (contradictions.length || clashes.length) process.exitCode = 1;
});
