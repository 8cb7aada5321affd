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
 * pass), and with two builds the ratio b / a. `--profile N` adds, per build and set, the N
 * functions that execute the most instructions a pass (self, inlined callees included), the
 * compiled JavaScript ones named from V8's `--perf-basic-prof` map and, through the build's
 * source maps (`npm run build`; the package build has none), by their TypeScript name and line:
 *
 *   npx tsx scripts/instructions.ts --sets freecell --profile 15
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { UsageError } from "../src/errors.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";
import { SOLVER_SETS } from "../experiments/lib/solver-sets.js";

const OPTIONS = {
  a: {
    type: "string",
    default: ".",
    help: "root of a build (a directory with dist/src/solver/search.js)",
  },
  b: {
    type: "string",
    default: "",
    help: "root of a second build, counted the same way (optional)",
  },
  sets: { type: "list", default: ["freecell", "penguin"], choices: SOLVER_SETS, help: "deal sets" },
  deals: {
    type: "int",
    default: 300,
    min: 1,
    max: 10_000,
    help: "Microsoft deals 1…N of each set",
  },
  rounds: {
    type: "int",
    default: 5,
    min: 2,
    max: 50,
    help: "passes counted against a single pass",
  },
  profile: {
    type: "int",
    default: 0,
    min: 0,
    max: 200,
    help: "also list the N functions with the most instructions a pass (0: none)",
  },
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
  /** With a profile: instructions per function (self cost), by name. */
  functions?: Map<string, number>;
}

/**
 * Instructions (Valgrind's "I refs") and positions of one process making `rounds` passes; with
 * `dir`, also its instructions per function (callgrind's output and V8's map of compiled code go
 * there).
 */
function count(root: string, preset: string, deals: number, rounds: number, dir?: string): Count {
  const url = pathToFileURL(`${resolve(root)}/`).href;
  const out = dir ? join(dir, `callgrind-${rounds}.out`) : "/dev/null";
  // (With the map, V8 also writes a log of its own: into `dir` too, not the working folder.)
  const mapFlags = dir
    ? ["--perf-basic-prof", `--logfile=${join(dir, "v8.log")}`, "--no-logfile-per-isolate"]
    : [];
  const node = [
    process.execPath,
    "--single-threaded",
    ...mapFlags,
    "--input-type=module",
    "-e",
    PASS,
    url,
    preset,
    String(deals),
    String(rounds),
  ];
  const r = spawnSync(
    "valgrind",
    ["--tool=callgrind", `--callgrind-out-file=${out}`, "--smc-check=all", ...node],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  if (r.error)
    throw new UsageError(
      `cannot run valgrind (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}); install it: apt-get install valgrind`,
    );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
  if (r.status !== 0 || !refs)
    throw new Error(
      `valgrind on ${root} (${preset}) failed: ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`,
    );
  const counted: Count = {
    instructions: Number(refs[1]!.replace(/,/g, "")),
    positions: Number(r.stdout.trim()),
  };
  if (dir) {
    // V8 writes its map of compiled code as /tmp/perf-<pid>.map; under Valgrind the pid is the child's.
    const map = `/tmp/perf-${r.pid}.map`;
    try {
      counted.functions = selfCosts(
        readFileSync(out, "utf8"),
        existsSync(map) ? readFileSync(map, "utf8") : "",
      );
    } finally {
      rmSync(map, { force: true });
      rmSync(out, { force: true });
    }
  }
  return counted;
}

/**
 * Self instructions per function from callgrind's output. Compiled JavaScript has no symbols, so
 * callgrind names it by address; those are looked up in V8's map (lines "start size name", hex),
 * and V8's tier marks (`*`, `^`, `~`, `+`) are dropped so that one function's tiers add up.
 */
function selfCosts(callgrind: string, perfMap: string): Map<string, number> {
  const code = perfMap
    .split("\n")
    .filter((l) => l)
    .map((l): [number, number, string] => {
      const [start, size, ...name] = l.split(" ");
      return [
        parseInt(start!, 16),
        parseInt(size!, 16),
        name.join(" ").replace(/^JS:[*^~+]/, "JS:"),
      ];
    })
    .sort((a, b) => a[0] - b[0]);
  const at = (address: number): string | undefined => {
    let lo = 0;
    let hi = code.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (code[mid]![0] <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    const c = code[hi];
    return c && address < c[0] + c[1] ? c[2] : undefined;
  };
  // Callgrind compresses names: "fn=(id) name" the first time, "fn=(id)" after; a cost line after
  // "calls=" is the call's inclusive cost, not the caller's own.
  const names = new Map<string, string>();
  const self = new Map<string, number>();
  let fn = "";
  let callCost = false;
  for (const line of callgrind.split("\n")) {
    const named = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (named) {
      if (named[2] !== undefined) names.set(named[1]!, named[2]);
      if (line.startsWith("fn=")) fn = named[1]!;
    } else if (line.startsWith("calls=")) callCost = true;
    else if (/^[+\-*\d]/.test(line)) {
      if (!callCost) self.set(fn, (self.get(fn) ?? 0) + Number(line.split(" ")[1] ?? 0));
      callCost = false;
    }
  }
  const byName = new Map<string, number>();
  for (const [id, n] of self) {
    let name = names.get(id) ?? id;
    if (/^0x[\da-f]+$/.test(name))
      name = original(at(parseInt(name, 16)) ?? "(compiled code not in V8's map)");
    byName.set(name, (byName.get(name) ?? 0) + n);
  }
  return byName;
}

const sourceMaps = new Map<string, SourceMap | null>();

/**
 * A compiled function's TypeScript name and place ("listRuns src/solver/manoeuvre.ts:182"), read
 * through the source map beside its built file; the name as V8 gave it where there is none.
 */
function original(v8Name: string): string {
  const m = /^JS:\S* (file:\/\/\S+\.js):(\d+):(\d+)$/.exec(v8Name);
  if (!m) return v8Name;
  const file = fileURLToPath(m[1]!);
  if (!sourceMaps.has(file))
    sourceMaps.set(
      file,
      existsSync(`${file}.map`)
        ? new SourceMap(
            JSON.parse(readFileSync(`${file}.map`, "utf8")) as ConstructorParameters<
              typeof SourceMap
            >[0],
          )
        : null,
    );
  const map = sourceMaps.get(file);
  const entry = map?.findEntry(Number(m[2]) - 1, Number(m[3]));
  if (!map || !entry || !("originalSource" in entry)) return v8Name;
  const source = resolve(dirname(file), entry.originalSource);
  const payload = map.payload;
  const text = payload.sourcesContent?.[payload.sources.indexOf(entry.originalSource)] ?? "";
  // V8 places a function at its parameter list (the name is just before the parenthesis) or at its name.
  const line = text.split("\n")[entry.originalLine] ?? "";
  const fn =
    /([#\w$]+)\s*(?:<[^>]*>)?\s*\(\s*$/.exec(line.slice(0, entry.originalColumn))?.[1] ??
    /^[#\w$]+/.exec(line.slice(entry.originalColumn))?.[0] ??
    "?";
  return `${fn} ${relative(process.cwd(), source)}:${entry.originalLine + 1}`;
}

interface PerPass {
  millions: number;
  positions: number;
  /** With a profile: the functions with the most instructions a pass, most first. */
  top?: { name: string; millions: number }[];
}

/** Millions of instructions and positions of one pass: `rounds` passes minus one, divided by rounds − 1. */
function perPass(
  root: string,
  preset: string,
  deals: number,
  rounds: number,
  profile: number,
): PerPass {
  const dir = profile > 0 ? mkdtempSync(join(tmpdir(), "instructions-")) : undefined;
  try {
    const one = count(root, preset, deals, 1, dir);
    const many = count(root, preset, deals, rounds, dir);
    const pass = (a: number, b: number): number => Math.round((b - a) / (rounds - 1) / 1e5) / 10;
    const result: PerPass = {
      millions: pass(one.instructions, many.instructions),
      positions: (many.positions - one.positions) / (rounds - 1),
    };
    if (one.functions && many.functions) {
      const names = new Set([...one.functions.keys(), ...many.functions.keys()]);
      result.top = [...names]
        .map((name) => ({
          name,
          millions: pass(one.functions!.get(name) ?? 0, many.functions!.get(name) ?? 0),
        }))
        .sort((a, b) => b.millions - a.millions)
        .slice(0, profile);
    }
    return result;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

await exitOnUsageError("instructions", async () => {
  const o = parseOptions("instructions", OPTIONS, process.argv.slice(2));
  if (o.help) {
    process.stdout.write(`${helpText("scripts/instructions", OPTIONS)}\n`);
    return;
  }
  const roots = o.b ? [o.a, o.b] : [o.a];
  for (const [i, root] of roots.entries())
    if (!existsSync(resolve(root, "dist/src/solver/search.js")))
      throw new UsageError(
        `--${i ? "b" : "a"}: ${root} has no dist/src/solver/search.js; run npm run build there`,
      );
  for (const preset of o.sets) {
    const figures = roots.map((root) => perPass(root, preset, o.deals, o.rounds, o.profile));
    roots.forEach((root, i) => {
      const f = figures[i]!;
      process.stdout.write(
        `${JSON.stringify({
          set: preset,
          deals: o.deals,
          build: root,
          millionInstructionsPerPass: f.millions,
          positionsPerPass: f.positions,
        })}\n`,
      );
      for (const t of f.top ?? [])
        process.stdout.write(
          `${JSON.stringify({
            set: preset,
            build: root,
            function: t.name,
            millionInstructionsPerPass: t.millions,
            share: Math.round((t.millions / f.millions) * 1000) / 1000,
          })}\n`,
        );
    });
    if (figures.length === 2)
      process.stdout.write(
        `${JSON.stringify({
          set: preset,
          ratio: Math.round((figures[1]!.millions / figures[0]!.millions) * 1000) / 1000,
        })}\n`,
      );
  }
});
