/**
 * Machine instructions the solver executes per pass over a deal set, counted by Valgrind
 * (callgrind) instead of timed. On this shared machine CPU time lands 3-5 % apart between runs
 * even over 41 paired rounds, more than most changes to the solver; an instruction count repeats
 * to within about 1 % (Penguin MS 1-300: 318.2 to 322 million a pass over five counts). It does
 * not see cache misses or mispredicted branches, so a change it calls cheaper still wants a
 * timing (`scripts/ab-builds.ts`); but one it calls no cheaper is no cheaper.
 *
 * Each build's `dist/` runs in its own Node process under Valgrind, V8 compiling on the main
 * thread (`--single-threaded`) so that what it compiles, and when, is the same from run to run.
 * The count of one pass is taken from that of `--rounds` passes minus that of a single pass:
 * start-up, dealing and most of the compiling fall in the first. Each count takes 20-60 s.
 *
 *   apt-get install valgrind
 *   npm run build && npx tsx scripts/instructions.ts --sets penguin,freecell
 *   npx tsx scripts/instructions.ts --a ../old --b . --sets freecell --deals 300
 *
 * Prints one JSON line per build and set (millions of instructions a pass, positions stored a
 * pass), and with two builds the ratio b / a.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "../src/errors.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";

const SETS = ["freecell", "bakers-game", "eight-off", "seahaven-towers", "penguin"] as const;
const OPTIONS = {
  a: { type: "string", default: ".", help: "root of a build (a directory with dist/src/solver/search.js)" },
  b: { type: "string", default: "", help: "root of a second build, counted the same way (optional)" },
  sets: { type: "list", default: ["freecell", "penguin"], choices: SETS, help: "deal sets" },
  deals: { type: "int", default: 300, min: 1, max: 10_000, help: "Microsoft deals 1…N of each set" },
  rounds: { type: "int", default: 5, min: 2, max: 50, help: "passes counted against a single pass" },
} as const;

/** One process's work: solve MS deals 1…n of a set `rounds` times with the build at `root`; prints the positions stored. */
const PASS = `
const [root, preset, n, rounds] = process.argv.slice(1);
const dist = (p) => new URL(p, root).href;
const { solve } = await import(dist("dist/src/solver/search.js"));
const { dealMs } = await import(dist("dist/src/engine/deal.js"));
const { resolveRules } = await import(dist("dist/src/engine/rules.js"));
const rules = resolveRules(preset);
const deals = Array.from({ length: +n }, (_, i) => dealMs(rules, i + 1));
let positions = 0;
for (let r = 0; r < +rounds; r++) for (const d of deals) positions += solve(d).states;
console.log(positions);
`;

interface Count {
  instructions: number;
  positions: number;
}

/** Instructions (Valgrind's "I refs") and positions of one process making `rounds` passes. */
function count(root: string, preset: string, deals: number, rounds: number): Count {
  const url = pathToFileURL(resolve(root) + "/").href;
  const args = ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--smc-check=all", process.execPath, "--single-threaded", "--input-type=module", "-e", PASS, url, preset, String(deals), String(rounds)];
  const r = spawnSync("valgrind", args, { encoding: "utf8", maxBuffer: 1 << 24 });
  if (r.error) throw new UsageError(`cannot run valgrind (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}); install it: apt-get install valgrind`);
  const refs = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
  if (r.status !== 0 || !refs) throw new Error(`valgrind on ${root} (${preset}) failed: ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  return { instructions: Number(refs[1]!.replace(/,/g, "")), positions: Number(r.stdout.trim()) };
}

/** Millions of instructions and positions of one pass: `rounds` passes minus one, divided by rounds − 1. */
function perPass(root: string, preset: string, deals: number, rounds: number): { millions: number; positions: number } {
  const one = count(root, preset, deals, 1);
  const many = count(root, preset, deals, rounds);
  return { millions: Math.round((many.instructions - one.instructions) / (rounds - 1) / 1e5) / 10, positions: (many.positions - one.positions) / (rounds - 1) };
}

await exitOnUsageError("instructions", async () => {
  const o = parseOptions("instructions", OPTIONS, process.argv.slice(2));
  if (o.help) {
    process.stdout.write(helpText("scripts/instructions", OPTIONS) + "\n");
    return;
  }
  const roots = o.b ? [o.a, o.b] : [o.a];
  for (const [i, root] of roots.entries())
    if (!existsSync(resolve(root, "dist/src/solver/search.js"))) throw new UsageError(`--${i ? "b" : "a"}: ${root} has no dist/src/solver/search.js; run npm run build there`);
  for (const preset of o.sets) {
    const figures = roots.map((root) => perPass(root, preset, o.deals, o.rounds));
    roots.forEach((root, i) => process.stdout.write(JSON.stringify({ set: preset, deals: o.deals, build: root, millionInstructionsPerPass: figures[i]!.millions, positionsPerPass: figures[i]!.positions }) + "\n"));
    if (figures.length === 2) process.stdout.write(JSON.stringify({ set: preset, ratio: Math.round((figures[1]!.millions / figures[0]!.millions) * 1000) / 1000 }) + "\n");
  }
});
