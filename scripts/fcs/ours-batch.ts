/**
 * This package's solver as scripts/fcs/fcs-batch.c runs Freecell Solver: one fresh process
 * that solves MS deals 1…N of a rule set `passes` times at the default plan and budget, and
 * prints the same lines (scripts/fcs/batch.ts reads both), so the side-by-side treats the two
 * solvers alike: the same passes in a fresh process each, cold and warm told apart.
 *
 *   npx tsx scripts/fcs/ours-batch.ts '{"preset":"penguin","deals":1000,"passes":6}'
 *   npx tsx scripts/fcs/ours-batch.ts '{"preset":"eight-off","overrides":{"cells":3},"deals":500,"passes":2}'
 *
 * Each board's time is the CPU time of its `solve()` call alone (`process.cpuUsage`, every
 * thread of the process, so V8's compiling counts where it happens), as fcs-batch times its
 * solve-and-recycle calls alone; dealing the boards is left out, as fcs-batch leaves out parsing
 * them. With `"wrap": true`, a `wrap DEAL` line names each deal of the first pass whose line plays
 * the card below the base onto the base card (a Penguin move that Freecell Solver's relabelled
 * kings-only game cannot make), checked after the timed passes.
 */
import { readFileSync } from "node:fs";
import { rankOf, suitOf } from "../../src/engine/card.js";
import { dealMs } from "../../src/engine/deal.js";
import {
  applyMove,
  CELL0,
  moveCard,
  moveTo,
  moveToEmpty,
  type Move,
} from "../../src/engine/moves.js";
import { resolveRules, type RuleOverrides } from "../../src/engine/rules.js";
import type { State } from "../../src/engine/state.js";
import { solve } from "../../src/solver/search.js";

interface Spec {
  preset: string;
  overrides?: RuleOverrides;
  deals: number;
  passes: number;
  wrap?: boolean;
}

/** Whether a line plays the card below the base onto the base card of its suit. */
export function usesWrapOntoBase(start: State, moves: readonly Move[]): boolean {
  const s = start.clone();
  for (const m of moves) {
    const to = moveTo(m);
    if (to < CELL0 && !moveToEmpty(m)) {
      const under = s.top(to);
      const card = moveCard(m);
      if (
        rankOf(under) === s.base &&
        suitOf(under) === suitOf(card) &&
        rankOf(card) === (s.base + 12) % 13
      )
        return true;
    }
    applyMove(s, m);
  }
  return false;
}

function fail(why: string): never {
  process.stderr.write(`ours-batch: ${why}\n`);
  process.exit(2);
}

function readSpec(arg: string | undefined): Spec {
  if (arg === undefined)
    fail('give the run as one JSON argument: {"preset":"penguin","deals":1000,"passes":6}');
  let spec: Spec;
  try {
    spec = JSON.parse(arg) as Spec;
  } catch {
    fail(`the argument is not JSON: ${arg.slice(0, 80)}`);
  }
  const count = (x: unknown, max: number): boolean =>
    Number.isInteger(x) && (x as number) >= 1 && (x as number) <= max;
  if (!count(spec.deals, 1_000_000)) fail("deals must be an integer from 1 to 1000000");
  if (!count(spec.passes, 100)) fail("passes must be an integer from 1 to 100");
  return spec;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const spec = readSpec(process.argv[2]);
let rules: ReturnType<typeof resolveRules>;
try {
  rules = resolveRules(spec.preset, spec.overrides ?? {});
} catch (e) {
  fail((e as Error).message);
}
const starts = Array.from({ length: spec.deals }, (_, i) => dealMs(rules, i + 1));
const out: string[] = [];
const lines = new Map<number, Move[]>();
const counts = { solved: 0, unsolvable: 0, unknown: 0 };
let positions = 0;
for (let pass = 1; pass <= spec.passes; pass++)
  for (let d = 1; d <= spec.deals; d++) {
    const t = cpuMs();
    const r = solve(starts[d - 1]!);
    const ms = cpuMs() - t;
    out.push(`board\t${pass}\t${d}\t${r.result}\t${r.states}\t${ms.toFixed(3)}`);
    if (pass > 1) continue;
    counts[r.result]++;
    positions += r.states;
    if (spec.wrap && r.result === "solved") lines.set(d, r.moves);
  }
for (const [d, moves] of lines) if (usesWrapOntoBase(starts[d - 1]!, moves)) out.push(`wrap\t${d}`);
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};
out.push(
  [
    "total",
    `boards=${spec.deals}`,
    `passes=${spec.passes}`,
    `solved=${counts.solved}`,
    `unsolvable=${counts.unsolvable}`,
    `unknown=${counts.unknown}`,
    `positions=${positions}`,
    `peak_rss_mb=${Math.round(process.resourceUsage().maxRSS / 1024)}`,
    `version=penguin-gym ${pkg.version}, Node ${process.versions.node}`,
  ].join("\t"),
);
process.stdout.write(`${out.join("\n")}\n`);
