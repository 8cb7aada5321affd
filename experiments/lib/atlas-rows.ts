/**
 * The rows of the difficulty atlas: every rule set it measures, in the order it plays them
 * (priority rows first), with the deals each row targets and where it sits in the plots.
 *
 * Targets: 1,000,000 deals where the solver manages at least 300 deals a CPU-second, 100,000
 * elsewhere. A row with the `empty`/`group` coordinates below is a point of the flipper plots.
 */
import type { RuleOverrides } from "../../src/engine/rules.js";

export interface AtlasRow {
  /** The row's name: file names, `--rows`, and the summary's first column. */
  readonly name: string;
  readonly preset: string;
  readonly overrides: RuleOverrides;
  /** "ms": Microsoft's deal numbers (FreeCell), "seed": this project's seeded deals. */
  readonly deck: "seed" | "ms";
  /** Deals the atlas aims at for this row. */
  readonly target: number;
  /** Deals a worker plays per task (and per checkpoint line): a few seconds of work. */
  readonly block: number;
  /** Deals the solver's version probe plays (atlas-version.ts), where its default would take long. */
  readonly probe?: number;
  /** Coordinates in the flipper plots (Penguin rows only). */
  readonly plot?: { readonly flippers: number; readonly empty: string; readonly group: string };
}

const M = 1_000_000;
const K100 = 100_000;

function penguin(
  name: string,
  flippers: number,
  empty: "below-base" | "any" | "none",
  group: "unlimited" | "supermove" | "free-cells",
  target: number,
): AtlasRow {
  const overrides: RuleOverrides = {
    ...(flippers !== 7 ? { cells: flippers } : {}),
    ...(empty !== "below-base" ? { emptyColumn: empty } : {}),
    ...(group !== "unlimited" ? { groupMove: group } : {}),
  };
  return {
    name,
    preset: "penguin",
    overrides,
    deck: "seed",
    target,
    block: 1000,
    plot: { flippers, empty, group },
  };
}

function family(name: string, preset: string, target: number, block = 1000): AtlasRow {
  return { name, preset, overrides: {}, deck: "seed", target, block };
}

export const ATLAS_ROWS: readonly AtlasRow[] = [
  penguin("penguin-7", 7, "below-base", "unlimited", M),
  penguin("penguin-5", 5, "below-base", "unlimited", M),
  penguin("penguin-3", 3, "below-base", "unlimited", M),
  family("bakers-game", "bakers-game", M),
  family("freecell", "freecell", M),
  { ...family("freecell-ms", "freecell", M), deck: "ms" },
  penguin("penguin-6", 6, "below-base", "unlimited", M),
  penguin("penguin-4", 4, "below-base", "unlimited", M),
  penguin("penguin-2", 2, "below-base", "unlimited", M),
  penguin("penguin-1", 1, "below-base", "unlimited", M),
  penguin("penguin-0", 0, "below-base", "unlimited", M),
  // Relaxed Penguin is Penguin with empty-column `any`: the 7-flipper point of that rule.
  {
    ...family("penguin-relaxed", "penguin-relaxed", M),
    plot: { flippers: 7, empty: "any", group: "unlimited" },
  },
  penguin("penguin-any-5", 5, "any", "unlimited", M),
  penguin("penguin-none-7", 7, "none", "unlimited", K100),
  penguin("penguin-none-5", 5, "none", "unlimited", K100),
  penguin("penguin-supermove-7", 7, "below-base", "supermove", M),
  penguin("penguin-supermove-5", 5, "below-base", "supermove", M),
  penguin("penguin-free-cells-7", 7, "below-base", "free-cells", M),
  penguin("penguin-free-cells-5", 5, "below-base", "free-cells", M),
  family("penguin-beak-home", "penguin-beak-home", M),
  family("kings-only-bakers-game", "kings-only-bakers-game", M),
  family("eight-off", "eight-off", M),
  family("seahaven-towers", "seahaven-towers", M),
  { ...family("stalactites", "stalactites", K100, 50), probe: 20 },
];

export const ROW_NAMES = ATLAS_ROWS.map((r) => r.name);

export function atlasRow(name: string): AtlasRow {
  const r = ATLAS_ROWS.find((x) => x.name === name);
  if (!r) throw new Error(`no atlas row ${name}`);
  return r;
}
