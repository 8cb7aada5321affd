/**
 * Kinds of lost Penguin deals, by what would have saved them: each deal the atlas proved lost
 * is solved again with one thing loosened at a time, and filed under the first that wins it:
 *
 *   - "the buried beak": winnable had the beak (deepest in column 1, under 6 cards, and the only
 *     way its suit's foundation starts) begun on its foundation, all else the same;
 *   - "one more flipper": winnable with 8 flippers instead of 7;
 *   - "any card into an empty column": winnable when any card may fill an empty column (relaxed
 *     Penguin), not only a card one rank below the base;
 *   - "both needed": winnable only with 8 flippers and any card into empty columns;
 *   - "neither": lost even then.
 *
 *   npx tsx scripts/atlas/lost-kinds.ts [results/atlas/deals/penguin-7.txt] [--max-states 1000000]
 */
import { readFileSync } from "node:fs";
import { resolveRules, type RuleOverrides } from "../../src/engine/rules.js";
import { dealState } from "../../src/eval/deals.js";
import { solve } from "../../src/solver/index.js";
import { suitOf } from "../../src/engine/card.js";
import { State } from "../../src/engine/state.js";
import { parseDealsFile } from "../../experiments/lib/atlas-deals.js";

const file = process.argv[2] ?? "results/atlas/deals/penguin-7.txt";
const maxStates = 1_000_000;
const { lost } = parseDealsFile(readFileSync(file, "utf8"), file);

const verdict = (seed: number, overrides: RuleOverrides): string =>
  solve(dealState(resolveRules("penguin", overrides), { kind: "seed", seed }), { maxStates })
    .result;

/** The deal with its beak already on its foundation: the 6 cards over it stay in column 1. */
function beakHome(seed: number): string {
  const rules = resolveRules("penguin");
  const s = dealState(rules, { kind: "seed", seed });
  const t = new State(rules, s.base);
  const cols = Array.from({ length: rules.columns }, (_, c) => s.column(c));
  t.found.set(s.found);
  t.found[suitOf(cols[0]![0]!)] = 1;
  cols.forEach((col, c) => col.forEach((card, i) => (c > 0 || i > 0) && t.push(c, card)));
  t.rehash();
  return solve(t, { maxStates }).result;
}

const kinds = new Map<string, number[]>();
let checked = 0;
for (const seed of lost) {
  // The atlas's verdict first: still lost under Penguin's own rules (the file is re-checked).
  if (verdict(seed, {}) !== "unsolvable") throw new Error(`deal ${seed} is not lost under penguin`);
  if (beakHome(seed) === "solved") {
    const k = "the buried beak: won had it started home";
    kinds.set(k, [...(kinds.get(k) ?? []), seed]);
    checked++;
    continue;
  }
  const flipper = verdict(seed, { cells: 8 }) === "solved";
  const column = verdict(seed, { emptyColumn: "any" }) === "solved";
  const kind =
    flipper && column
      ? "one more flipper, or any card into an empty column"
      : flipper
        ? "one more flipper only"
        : column
          ? "any card into an empty column only"
          : verdict(seed, { cells: 8, emptyColumn: "any" }) === "solved"
            ? "both needed together"
            : "neither";
  kinds.set(kind, [...(kinds.get(kind) ?? []), seed]);
  checked++;
}
process.stdout.write(`${checked} lost deals in ${file}\n`);
for (const [k, seeds] of [...kinds].sort((a, b) => b[1].length - a[1].length))
  process.stdout.write(
    `${String(seeds.length).padStart(6)}  ${k}  (e.g. ${seeds.slice(0, 5).join(", ")})\n`,
  );
