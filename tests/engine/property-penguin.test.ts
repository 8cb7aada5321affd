/**
 * Property tests, Penguin family: thousands of seeded random games per preset, every position
 * checked against the independent reference model (see playouts.ts for the list of checks).
 */
import type { RuleOverrides } from "../../src/engine/index.js";
import { describeRandomPlay } from "./property-suite.js";

const PRESETS = ["penguin", "penguin-relaxed", "opus", "penguin-beak-home"] as const;
// Overrides that exercise every other option against a beak base and wrapped building.
const VARIANTS: [string, RuleOverrides][] = [
  ["penguin", { groupMove: "supermove", emptyColumn: "any", cells: 2 }],
  ["penguin", { groupMove: "supermove", cells: 3 }],
  ["penguin", { groupMove: "single" }],
  ["penguin", { emptyColumn: "none" }],
  ["penguin", { cells: 0 }],
  ["penguin", { build: "alternate-color" }],
  ["penguin-beak-home", { groupMove: "free-cells", cells: 3 }],
];

describeRandomPlay(
  "random play agrees with the reference model (Penguin family)",
  PRESETS,
  VARIANTS,
  11,
);
