/**
 * Property tests, FreeCell family (ace base): thousands of seeded random games per preset, every
 * position checked against the independent reference model (see playouts.ts for the checks).
 */
import type { RuleOverrides } from "../../src/engine/index.js";
import { describeRandomPlay } from "./property-suite.js";

const PRESETS = [
  "bakers-game",
  "kings-only-bakers-game",
  "freecell",
  "eight-off",
  "seahaven-towers",
  "stalactites",
] as const;
const VARIANTS: [string, RuleOverrides][] = [
  ["freecell", { groupMove: "unlimited" }],
  ["freecell", { groupMove: "single", cells: 2 }],
  ["freecell", { emptyColumn: "below-base", cells: 1 }],
  ["bakers-game", { cells: 0 }],
  ["seahaven-towers", { emptyColumn: "any" }],
  ["kings-only-bakers-game", { groupMove: "free-cells" }],
  ["stalactites", { cells: 4, emptyColumn: "any" }],
  ["freecell", { foundations: "rank", build: "none" }],
];

describeRandomPlay(
  "random play agrees with the reference model (FreeCell family)",
  PRESETS,
  VARIANTS,
  21,
);
