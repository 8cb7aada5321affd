/**
 * A rule set is data, not a subclass: every option of docs/rules.md is a field, and the
 * named presets are plain objects. `resolveRules("penguin", { cells: 3 })` is how every entry
 * point (CLI, env, experiments) builds one, so validation lives in exactly one place.
 */
import { describeValue, InvalidArgumentError, UsageError } from "../errors.js";
export type EmptyColumnRule = "below-base" | "any" | "none";
export type GroupMoveRule = "unlimited" | "supermove" | "free-cells" | "single";
export type BuildRule = "suit" | "alternate-color" | "none";
export type BaseRule = "beak" | "ace";
/** `suit`: one foundation per suit, built in suit. `rank`: four foundations built by rank in any suit. */
export type FoundationRule = "suit" | "rank";
export type DealLayout =
  | "penguin"
  | "penguin-beak-home"
  | "freecell"
  | "eight-off"
  | "seahaven"
  | "stalactites";

export type PresetName =
  | "penguin"
  | "penguin-relaxed"
  | "opus"
  | "penguin-beak-home"
  | "bakers-game"
  | "kings-only-bakers-game"
  | "freecell"
  | "eight-off"
  | "seahaven-towers"
  | "stalactites";

export interface Rules {
  /** Preset this rule set started from (overrides are listed by `rulesLabel`). */
  readonly preset: PresetName;
  /** Free cells ("flippers"), 0..8. */
  readonly cells: number;
  readonly emptyColumn: EmptyColumnRule;
  readonly groupMove: GroupMoveRule;
  readonly build: BuildRule;
  readonly base: BaseRule;
  /**
   * `suit`: foundation i is suit i's (C D H S), built up in suit from the base rank. `rank`: four
   * foundations built up by rank regardless of suit, wrapping K→A, 13 cards each; each one's
   * first card sets its own base rank (an empty one takes a card of the rule set's base rank).
   */
  readonly foundations: FoundationRule;
  readonly deal: DealLayout;
  /** Tableau columns; fixed by the deal layout (7, 8 or 10). */
  readonly columns: number;
}

export type RuleOverrides = Partial<Omit<Rules, "preset">>;

export const EMPTY_COLUMN_RULES: readonly EmptyColumnRule[] = ["below-base", "any", "none"];
export const GROUP_MOVE_RULES: readonly GroupMoveRule[] = [
  "unlimited",
  "supermove",
  "free-cells",
  "single",
];
export const BUILD_RULES: readonly BuildRule[] = ["suit", "alternate-color", "none"];
export const BASE_RULES: readonly BaseRule[] = ["beak", "ace"];
export const FOUNDATION_RULES: readonly FoundationRule[] = ["suit", "rank"];
export const DEAL_LAYOUTS: readonly DealLayout[] = [
  "penguin",
  "penguin-beak-home",
  "freecell",
  "eight-off",
  "seahaven",
  "stalactites",
];

/** Columns each layout deals into; the rules' `columns` must match. */
const LAYOUT_COLUMNS: Readonly<Record<DealLayout, number>> = {
  penguin: 7,
  "penguin-beak-home": 7,
  freecell: 8,
  "eight-off": 8,
  seahaven: 10,
  stalactites: 8,
};
/** Cards a layout deals straight into cells, so it needs at least this many. */
const LAYOUT_CELL_CARDS: Readonly<Record<DealLayout, number>> = {
  penguin: 0,
  "penguin-beak-home": 0,
  freecell: 0,
  "eight-off": 4,
  seahaven: 2,
  stalactites: 0,
};

const penguin = {
  cells: 7,
  emptyColumn: "below-base",
  groupMove: "unlimited",
  build: "suit",
  base: "beak",
  foundations: "suit",
  deal: "penguin",
  columns: 7,
} as const;
const bakers = {
  cells: 4,
  emptyColumn: "any",
  groupMove: "supermove",
  build: "suit",
  base: "ace",
  foundations: "suit",
  deal: "freecell",
  columns: 8,
} as const;

export const PRESETS: Readonly<Record<PresetName, Rules>> = {
  penguin: { preset: "penguin", ...penguin },
  "penguin-relaxed": { preset: "penguin-relaxed", ...penguin, emptyColumn: "any" },
  opus: { preset: "opus", ...penguin, cells: 5 },
  "penguin-beak-home": { preset: "penguin-beak-home", ...penguin, deal: "penguin-beak-home" },
  "bakers-game": { preset: "bakers-game", ...bakers },
  "kings-only-bakers-game": {
    preset: "kings-only-bakers-game",
    ...bakers,
    emptyColumn: "below-base",
  },
  freecell: { preset: "freecell", ...bakers, build: "alternate-color" },
  "eight-off": {
    preset: "eight-off",
    ...bakers,
    cells: 8,
    emptyColumn: "below-base",
    groupMove: "free-cells",
    deal: "eight-off",
  },
  "seahaven-towers": {
    preset: "seahaven-towers",
    ...bakers,
    emptyColumn: "below-base",
    groupMove: "free-cells",
    deal: "seahaven",
    columns: 10,
  },
  // PySolFC's Stalactites: no building at all; a column's last card goes to a cell or home.
  stalactites: {
    preset: "stalactites",
    cells: 2,
    emptyColumn: "none",
    groupMove: "single",
    build: "none",
    base: "ace",
    foundations: "rank",
    deal: "stalactites",
    columns: 8,
  },
};
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

function oneOf<T extends string>(what: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value))
    return value as T;
  throw new UsageError(`unknown ${what} ${JSON.stringify(value)}; allowed: ${allowed.join(", ")}`);
}

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}

/** Builds and validates a rule set; every error is one line naming what is allowed. */
export function resolveRules(name: string = "penguin", overrides: RuleOverrides = {}): Rules {
  if (typeof name !== "string" || !isPresetName(name))
    throw new UsageError(
      `unknown rules ${JSON.stringify(name)}; known: ${PRESET_NAMES.join(", ")}`,
    );
  if (typeof overrides !== "object" || overrides === null || Array.isArray(overrides))
    throw new InvalidArgumentError(
      `rule overrides must be an object such as { cells: 3 }, got ${describeValue(overrides)}`,
    );
  const merged: Record<string, unknown> = { ...PRESETS[name] };
  for (const [k, v] of Object.entries(overrides)) {
    if (!(RULE_OPTION_KEYS as readonly string[]).includes(k) && k !== "columns")
      throw new InvalidArgumentError(
        `unknown rule option ${JSON.stringify(k)}; allowed: ${RULE_OPTION_KEYS.join(", ")}`,
      );
    if (v !== undefined) merged[k] = v;
  }
  const deal = oneOf("deal layout", merged.deal, DEAL_LAYOUTS);
  // A layout change moves the column count with it unless the caller set columns explicitly.
  if (overrides.deal !== undefined && overrides.columns === undefined)
    merged.columns = LAYOUT_COLUMNS[deal];
  const cells = merged.cells;
  if (typeof cells !== "number" || !Number.isInteger(cells) || cells < 0 || cells > 8)
    throw new UsageError(`cells must be an integer from 0 to 8, got ${JSON.stringify(cells)}`);
  if (cells < LAYOUT_CELL_CARDS[deal])
    throw new UsageError(
      `the ${deal} deal puts ${LAYOUT_CELL_CARDS[deal]} cards in cells, so cells must be at least ${LAYOUT_CELL_CARDS[deal]} (got ${cells})`,
    );
  if (merged.columns !== LAYOUT_COLUMNS[deal])
    throw new UsageError(
      `the ${deal} deal uses ${LAYOUT_COLUMNS[deal]} columns, got ${JSON.stringify(merged.columns)}`,
    );
  const base = oneOf("base", merged.base, BASE_RULES);
  if (base === "beak" && deal !== "penguin" && deal !== "penguin-beak-home")
    throw new UsageError(
      `base "beak" needs a penguin deal (penguin, penguin-beak-home), got deal "${deal}"; use base "ace"`,
    );
  const foundations = oneOf("foundation rule", merged.foundations, FOUNDATION_RULES);
  // The beak's foundations wait for the beak and wrap with it, which is a per-suit notion; the
  // stalactites deal puts four arbitrary cards on the foundations.
  if (foundations === "rank" && base === "beak")
    throw new UsageError(
      `foundations "rank" needs base "ace" (each rank foundation takes its base from its first card)`,
    );
  if (foundations === "suit" && deal === "stalactites")
    throw new UsageError(
      `the stalactites deal starts the foundations with any four cards, so it needs foundations "rank"`,
    );
  return {
    preset: name,
    cells,
    emptyColumn: oneOf("empty-column rule", merged.emptyColumn, EMPTY_COLUMN_RULES),
    groupMove: oneOf("group-move rule", merged.groupMove, GROUP_MOVE_RULES),
    build: oneOf("build rule", merged.build, BUILD_RULES),
    base,
    foundations,
    deal,
    columns: LAYOUT_COLUMNS[deal],
  };
}

/** Every option a rule set has besides its preset and its (derived) column count. */
export const RULE_OPTION_KEYS = [
  "cells",
  "emptyColumn",
  "groupMove",
  "build",
  "base",
  "foundations",
  "deal",
] as const;

/** `penguin` or `penguin[cells=3,emptyColumn=any]`: the preset plus what differs from it. */
export function rulesLabel(r: Rules): string {
  const p: Rules = PRESETS[r.preset];
  const diffs: string[] = [];
  for (const k of RULE_OPTION_KEYS) if (r[k] !== p[k]) diffs.push(`${k}=${r[k]}`);
  return diffs.length ? `${r.preset}[${diffs.join(",")}]` : r.preset;
}

/** Each preset's name as a title: what a page or message calls the game. */
export const PRESET_TITLES: Readonly<Record<PresetName, string>> = {
  penguin: "Penguin",
  "penguin-relaxed": "Relaxed Penguin",
  opus: "Opus",
  "penguin-beak-home": "Penguin (beak home)",
  "bakers-game": "Baker's Game",
  "kings-only-bakers-game": "Kings-only Baker's Game",
  freecell: "FreeCell",
  "eight-off": "Eight Off",
  "seahaven-towers": "Seahaven Towers",
  stalactites: "Stalactites",
};

/**
 * What the rule set calls its free cells: "flippers" under Penguin's deal (Parlett's word), "free
 * cells" in the rest of the family. Help, messages and pages use it so FreeCell is not told about
 * flippers.
 */
export function cellWord(r: Rules, count = 2): string {
  const penguin = r.deal === "penguin" || r.deal === "penguin-beak-home";
  return penguin
    ? count === 1
      ? "flipper"
      : "flippers"
    : count === 1
      ? "free cell"
      : "free cells";
}
