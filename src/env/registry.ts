/**
 * Versioned environment ids, one per rule preset, and the options every id accepts. An id's
 * version changes whenever the behaviour behind it changes (rules, observation, action layout,
 * rewards, episode end), so a result tagged `Penguin-v3` always means the same game and tensors.
 * Every id moves together (env.ts's Version History): v3 differs from v2 only in its move
 * limit, which each version declares once below. The previous version stays registered, as
 * Gymnasium keeps older ids, so a result recorded under `-v2` can be played again.
 */
import { MS_MAX } from "../engine/deal.js";
import {
  BASE_RULES,
  BUILD_RULES,
  DEAL_LAYOUTS,
  EMPTY_COLUMN_RULES,
  FOUNDATION_RULES,
  GROUP_MOVE_RULES,
  PRESETS,
  resolveRules,
  type PresetName,
  type RuleOverrides,
  type Rules,
} from "../engine/rules.js";
import { UsageError } from "../errors.js";

export type RewardMode = "win" | "cards";
/** Where deals come from: `seedrandom` shuffles (any integer seed) or Microsoft deal numbers. */
export type ShuffleSource = "seedrandom" | "microsoft";

/** Env settings (everything that is not a rule). */
export interface EnvSettings {
  /** `cards` (default): 1/52 per card reaching a foundation. `win`: 1 on the winning step, else 0. */
  readonly reward: RewardMode;
  /** Episodes are truncated after this many steps (default: the id's registered maxSteps). */
  readonly maxSteps: number;
  /** Truncate as soon as a position repeats within the episode (default false). */
  readonly truncateOnRepeat: boolean;
  /** Deal source (default `seedrandom`); `microsoft` reads the seed as an MS deal number. */
  readonly shuffle: ShuffleSource;
}

/** The settings' defaults but the move limit, which each id declares (EnvSpec.maxSteps). */
export const DEFAULT_SETTINGS: Omit<EnvSettings, "maxSteps"> = {
  reward: "cards",
  truncateOnRepeat: false,
  shuffle: "seedrandom",
};

/** Rule overrides (cells, emptyColumn, groupMove, build, base, foundations, deal) plus env settings. */
export type EnvOptions = Omit<RuleOverrides, "columns"> & Partial<EnvSettings>;

/** Each environment's name, without its version, and the rule preset it plays. */
const PRESET_OF_NAME = {
  Penguin: "penguin",
  PenguinRelaxed: "penguin-relaxed",
  Opus: "opus",
  PenguinBeakHome: "penguin-beak-home",
  BakersGame: "bakers-game",
  KingsOnlyBakersGame: "kings-only-bakers-game",
  FreeCell: "freecell",
  EightOff: "eight-off",
  SeahavenTowers: "seahaven-towers",
  Stalactites: "stalactites",
} as const satisfies Record<string, PresetName>;
type EnvName = keyof typeof PRESET_OF_NAME;
const NAMES = Object.keys(PRESET_OF_NAME) as EnvName[];

/**
 * Moves before a game counts as lost, declared here once per version (as Gymnasium registers
 * max_episode_steps): the env truncates its episodes there, and `penguin eval`, the
 * experiments, the viewer, training and `penguin dataset` end their games at the current
 * version's limit unless told otherwise (see defaultMaxSteps). Won Penguin games take about
 * 100-250 moves and the FreeCell family's solver lines fewer; 1000 leaves room for long
 * flipper manoeuvres in every game, and is the limit every published evaluation of this project
 * was played under. v2 stopped at 500.
 */
const MAX_STEPS_OF_VERSION = { 2: 500, 3: 1000 } as const;
/** The current version: the one `envIdForPreset` names and ENV_IDS lists. */
export const ENV_VERSION = 3;

/** A registered id: any name at a registered version. */
export type EnvId = `${EnvName}-v${keyof typeof MAX_STEPS_OF_VERSION}`;

/** The current ids (`Penguin-v3`, …), one per preset. */
export const ENV_IDS: readonly EnvId[] = NAMES.map((n): EnvId => `${n}-v${ENV_VERSION}`);
/** The previous version's ids (`Penguin-v2`, …): still registered, with their 500-move limit. */
export const PREVIOUS_ENV_IDS: readonly EnvId[] = NAMES.map((n): EnvId => `${n}-v2`);

export interface EnvSpec {
  readonly id: EnvId;
  readonly preset: PresetName;
  readonly version: number;
  /** Moves before an episode is truncated (MAX_STEPS_OF_VERSION, read everywhere through here). */
  readonly maxSteps: number;
}

export const ENV_SPECS: Readonly<Record<EnvId, EnvSpec>> = Object.fromEntries(
  NAMES.flatMap((name) =>
    Object.entries(MAX_STEPS_OF_VERSION).map(([version, maxSteps]) => {
      const id = `${name}-v${version}` as EnvId;
      return [id, { id, preset: PRESET_OF_NAME[name], version: Number(version), maxSteps }];
    }),
  ),
) as Record<EnvId, EnvSpec>;

export function isEnvId(id: string): id is EnvId {
  return Object.hasOwn(ENV_SPECS, id);
}

export function envSpec(id: string): EnvSpec {
  if (!isEnvId(id))
    throw new UsageError(
      `unknown env id ${JSON.stringify(id)}; known: ${ENV_IDS.join(", ")} (and the previous version, -v2)`,
    );
  return ENV_SPECS[id];
}

/** The current id of a preset's environment (`penguin` → `Penguin-v3`). */
export function envIdForPreset(preset: string): EnvId {
  const id = ENV_IDS.find((i) => ENV_SPECS[i].preset === preset);
  if (!id)
    throw new UsageError(
      `unknown rules ${JSON.stringify(preset)}; known: ${Object.keys(PRESETS).join(", ")}`,
    );
  return id;
}

/**
 * The move limit of a game under `rules` (any overrides): its preset's current env id's
 * registered maxSteps. Every default move limit in the project is read here.
 */
export function defaultMaxSteps(rules: { readonly preset: string }): number {
  return ENV_SPECS[envIdForPreset(rules.preset)].maxSteps;
}

const RULE_KEYS = [
  "cells",
  "emptyColumn",
  "groupMove",
  "build",
  "base",
  "foundations",
  "deal",
] as const;
const SETTING_KEYS = ["reward", "maxSteps", "truncateOnRepeat", "shuffle"] as const;
const ENV_OPTION_KEYS: readonly string[] = [...RULE_KEYS, ...SETTING_KEYS];
const ALLOWED_VALUES: Readonly<Record<string, string>> = {
  cells: "an integer 0..8",
  emptyColumn: EMPTY_COLUMN_RULES.join(" | "),
  groupMove: GROUP_MOVE_RULES.join(" | "),
  build: BUILD_RULES.join(" | "),
  base: BASE_RULES.join(" | "),
  foundations: FOUNDATION_RULES.join(" | "),
  deal: DEAL_LAYOUTS.join(" | "),
};

/** Splits and validates options; every error is one line naming what is allowed. */
export function resolveEnvOptions(
  id: string,
  options: EnvOptions = {},
): { spec: EnvSpec; rules: Rules; settings: EnvSettings } {
  const spec = envSpec(id);
  if (options === null || typeof options !== "object")
    throw new UsageError(`env options must be an object with keys: ${ENV_OPTION_KEYS.join(", ")}`);
  for (const k of Object.keys(options))
    if (!ENV_OPTION_KEYS.includes(k))
      throw new UsageError(
        `unknown env option ${JSON.stringify(k)}; allowed: ${ENV_OPTION_KEYS.join(", ")}`,
      );
  const overrides: Record<string, unknown> = {};
  for (const k of RULE_KEYS) if (options[k] !== undefined) overrides[k] = options[k];
  let rules: Rules;
  try {
    rules = resolveRules(spec.preset, overrides as RuleOverrides);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(
      `bad rule option (${Object.keys(overrides)
        .map((k) => `${k}: ${ALLOWED_VALUES[k]}`)
        .join("; ")}): ${(e as Error).message}`,
    );
  }
  const o = options as Partial<EnvSettings>;
  const reward = o.reward ?? DEFAULT_SETTINGS.reward;
  if (reward !== "win" && reward !== "cards")
    throw new UsageError(`unknown reward ${JSON.stringify(reward)}; allowed: cards, win`);
  const maxSteps = o.maxSteps ?? spec.maxSteps;
  if (
    typeof maxSteps !== "number" ||
    !Number.isInteger(maxSteps) ||
    maxSteps < 1 ||
    maxSteps > 1_000_000
  )
    throw new UsageError(
      `maxSteps must be an integer from 1 to 1000000, got ${JSON.stringify(maxSteps)}`,
    );
  const truncateOnRepeat = o.truncateOnRepeat ?? DEFAULT_SETTINGS.truncateOnRepeat;
  if (typeof truncateOnRepeat !== "boolean")
    throw new UsageError(
      `truncateOnRepeat must be true or false, got ${JSON.stringify(truncateOnRepeat)}`,
    );
  const shuffle = o.shuffle ?? DEFAULT_SETTINGS.shuffle;
  if (shuffle !== "seedrandom" && shuffle !== "microsoft")
    throw new UsageError(
      `unknown shuffle ${JSON.stringify(shuffle)}; allowed: seedrandom, microsoft (deal numbers 1..${MS_MAX})`,
    );
  return { spec, rules, settings: { reward, maxSteps, truncateOnRepeat, shuffle } };
}
