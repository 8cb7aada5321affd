/**
 * Versioned environment ids, one per rule preset, and the options every id accepts. An id's
 * version changes whenever the behaviour behind it changes (rules, observation, action layout,
 * rewards, episode end), so a result tagged `Penguin-v2` always means the same game and tensors.
 * Every id moves together: v1 → v2 changed rules, observation and actions at once (env.ts's
 * Version History).
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

export const ENV_IDS = [
  "Penguin-v2",
  "PenguinRelaxed-v2",
  "Opus-v2",
  "PenguinBeakHome-v2",
  "BakersGame-v2",
  "KingsOnlyBakersGame-v2",
  "FreeCell-v2",
  "EightOff-v2",
  "SeahavenTowers-v2",
  "Stalactites-v2",
] as const;
export type EnvId = (typeof ENV_IDS)[number];

export interface EnvSpec {
  readonly id: EnvId;
  readonly preset: PresetName;
  readonly version: number;
  /**
   * Moves before a game counts as lost, declared here once per id (as Gymnasium registers
   * max_episode_steps): the env truncates its episodes there, and `penguin eval`, the
   * experiments, the viewer, training and `penguin dataset` end their games there unless told
   * otherwise (see defaultMaxSteps).
   */
  readonly maxSteps: number;
}

const PRESET_OF: Readonly<Record<EnvId, PresetName>> = {
  "Penguin-v2": "penguin",
  "PenguinRelaxed-v2": "penguin-relaxed",
  "Opus-v2": "opus",
  "PenguinBeakHome-v2": "penguin-beak-home",
  "BakersGame-v2": "bakers-game",
  "KingsOnlyBakersGame-v2": "kings-only-bakers-game",
  "FreeCell-v2": "freecell",
  "EightOff-v2": "eight-off",
  "SeahavenTowers-v2": "seahaven-towers",
  "Stalactites-v2": "stalactites",
};

/**
 * Won Penguin games take about 100-250 moves and the FreeCell family's solver lines fewer; 1000
 * leaves room for long flipper manoeuvres in every game, and is the limit every published
 * evaluation of this project was played under.
 */
const MAX_STEPS_OF: Readonly<Record<EnvId, number>> = {
  "Penguin-v2": 1000,
  "PenguinRelaxed-v2": 1000,
  "Opus-v2": 1000,
  "PenguinBeakHome-v2": 1000,
  "BakersGame-v2": 1000,
  "KingsOnlyBakersGame-v2": 1000,
  "FreeCell-v2": 1000,
  "EightOff-v2": 1000,
  "SeahavenTowers-v2": 1000,
  "Stalactites-v2": 1000,
};

export const ENV_SPECS: Readonly<Record<EnvId, EnvSpec>> = Object.fromEntries(
  ENV_IDS.map((id) => [
    id,
    {
      id,
      preset: PRESET_OF[id],
      version: Number(/-v(\d+)$/.exec(id)![1]),
      maxSteps: MAX_STEPS_OF[id],
    },
  ]),
) as Record<EnvId, EnvSpec>;

export function isEnvId(id: string): id is EnvId {
  return (ENV_IDS as readonly string[]).includes(id);
}

export function envSpec(id: string): EnvSpec {
  if (!isEnvId(id))
    throw new UsageError(`unknown env id ${JSON.stringify(id)}; known: ${ENV_IDS.join(", ")}`);
  return ENV_SPECS[id];
}

/** The current id of a preset's environment (`penguin` → `Penguin-v2`). */
export function envIdForPreset(preset: string): EnvId {
  const id = ENV_IDS.find((i) => PRESET_OF[i] === preset);
  if (!id)
    throw new UsageError(
      `unknown rules ${JSON.stringify(preset)}; known: ${Object.keys(PRESETS).join(", ")}`,
    );
  return id;
}

/**
 * The move limit of a game under `rules` (any overrides): its preset's env id's registered
 * maxSteps. Every default move limit in the project is read here.
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
