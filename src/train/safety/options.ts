/**
 * The options of `penguin train safety` (the move-safety network): its one spec, whose defaults
 * are the recipe of the shipped network, and the typed options object the trainer takes.
 */
import { UsageError } from "../../errors.js";
import { printable } from "../../util/text.js";
import { hasCardRows } from "../../players/safety/cards.js";
import type { SafetyFeatures, SafetyObjective } from "../../players/safety/model.js";
import { spec } from "../../options/registry.js";
import type { OptionSpecs } from "../../options/spec.js";
import { COMMON_OPTIONS, specDefaults } from "../shared-options.js";

/** The flags of `penguin train safety`, each mapped onto a field of the values safetyOptions reads (its key). */
export const SAFETY_SPEC: OptionSpecs = {
  ...COMMON_OPTIONS,
  data: {
    type: "string",
    describe: "safety: dataset folders of penguin dataset, comma-separated",
  },
  "safety-epochs": {
    describe: "safety: passes over the training moves",
    default: 4,
    min: 0.001,
    max: 1000,
    key: "epochs",
  },
  "safety-batch": {
    describe: "safety: minibatch size",
    default: 32,
    min: 1,
    max: 65536,
    int: true,
    key: "batch",
  },
  lr: spec("lr", { default: 1e-3, detail: "safety: annealed to a tenth" }),
  "lost-weight": {
    describe: "safety: loss weight of a losing move (a safe one weighs 1)",
    default: 20,
    min: 0,
    max: 1e6,
    minExclusive: true,
  },
  "keep-safe": {
    describe: "safety: share of positions with no losing move kept",
    default: 1,
    min: 0,
    max: 1,
  },
  "validation-deals": spec("validation-deals", {
    default: 200,
    key: "valDeals",
    detail: "safety: per half epoch, seeds 500,000 up",
  }),
  thresholds: {
    type: "string",
    default: "0.5",
    describe: "safety: risk cut-offs tried on validation deals (best kept)",
  },
  "safety-shuffle": {
    describe: "safety: share of moves played at random among the safe ones",
    default: 0,
    min: 0,
    max: 1,
    key: "shuffle",
  },
  "column-hidden": {
    type: "sizes",
    default: [64, 64],
    describe: "safety: per-column layer sizes",
  },
  "head-hidden": { type: "sizes", default: [128, 64], describe: "safety: head layer sizes" },
  "attention-heads": {
    describe: "safety: attention heads over columns and flippers (0: none)",
    default: 0,
    min: 0,
    max: 64,
    int: true,
  },
  "safety-features": {
    type: "string",
    default: "links",
    choices: ["structure", "basic", "flippers", "cards", "links"],
    describe:
      "safety: input features (structure: digging costs, blockers; flippers: also what each parked card costs to release; cards: also one row per card; links: card rows that also say what the cards they depend on cost)",
    key: "features",
  },
  "card-hidden": {
    type: "sizes",
    default: [32, 32],
    describe: "safety: card-row layer sizes (features cards, links)",
  },
  "safety-objective": {
    type: "string",
    default: "choice",
    choices: ["risk", "choice"],
    describe: "safety: risk (each move's chance of losing) or choice (one softmax per position)",
    key: "objective",
  },
  "choice-target": {
    type: "string",
    default: "lookahead",
    choices: ["winnable", "lookahead"],
    describe:
      "safety: choice objective: the winnable moves share the target alike, or by lookahead's values",
    key: "choiceTarget",
  },
  temperature: {
    describe: "safety: lookahead target: weights e^((V - V_best)/T)",
    default: 1,
    min: 0.01,
    max: 1000,
  },
  "safety-order": {
    type: "string",
    default: "net",
    choices: ["greedy", "net"],
    describe:
      "safety: validation games play greedy's best or the network's best among the moves judged safe",
    key: "playOrder",
  },
  "suit-shuffle": {
    type: "boolean",
    default: true,
    describe:
      "safety: train on a seeded renaming of the suits of every sample (the rules treat all suits alike)",
    key: "suitShuffle",
  },
  model: spec("model", { key: "init", detail: "safety: start from this network" }),
  "critical-weight": {
    describe:
      "safety: choice objective: weight of -log(softmax weight on the winnable moves) in positions that hold a losing move (0: off)",
    default: 0,
    min: 0,
    max: 1000,
    key: "criticalWeight",
  },
};

export interface SafetyTrainOptions {
  /** Dataset folders written by `penguin dataset`. */
  readonly data: readonly string[];
  /** The run folder. */
  readonly out: string;
  /** Seeds the initial weights, the positions kept and the minibatch order. */
  readonly seed: number;
  /** Passes over the training positions (fractions allowed). */
  readonly epochs: number;
  /** Minibatch size (positions under the choice objective, moves under risk). */
  readonly batch: number;
  /** Adam's learning rate, annealed linearly to a tenth. */
  readonly lr: number;
  /** Risk objective: loss weight of a losing move (a safe one weighs 1). */
  readonly lostWeight: number;
  /** Share of the positions with no losing move that are trained on (all the others are). */
  readonly keepSafe: number;
  /** Per-column layer sizes. */
  readonly columnHidden: readonly number[];
  /** Head layer sizes. */
  readonly headHidden: readonly number[];
  /** Read the structural features (structure.ts) too. */
  readonly structure: boolean;
  /** Read, after the structural features, what each parked card costs to release (flippers.ts). */
  readonly flipperCosts?: boolean;
  /** Read, after the flipper costs, one row per card through a card network of these layer sizes (cards.ts). */
  readonly cardHidden?: readonly number[];
  /** With cardHidden: each card row carries its links too (links.ts). */
  readonly links?: boolean;
  /** Heads of the attention block over the columns (0: mean and max pooling only). */
  readonly attentionHeads: number;
  /** Validation deals played at each validation point (seeds from 500,000). */
  readonly valDeals: number;
  /** Risk cut-offs tried on the validation deals (the best is kept with the network). */
  readonly thresholds: readonly number[];
  /** Share of moves played at random among the safe ones in validation games. */
  readonly shuffle: number;
  /** Wall-clock budget in minutes (0: none). */
  readonly maxMinutes: number;
  /** "risk": each move's loss probability (binary cross-entropy); "choice": one softmax per position (choice.ts). */
  readonly objective?: SafetyObjective;
  /** The validation games' choice among the moves judged safe (agent option `order`). */
  readonly playOrder?: "greedy" | "net";
  /** Choice objective: the winnable moves share the target alike ("winnable") or by lookahead's values (teacher.ts). */
  readonly choiceTarget?: "winnable" | "lookahead";
  /** With choiceTarget "lookahead": the softness of the target, in greedy-score units. */
  readonly temperature?: number;
  /** Train on a seeded renaming of the suits of every sample (suits.ts). */
  readonly suitShuffle?: boolean;
  /** Start from these weights (a run or checkpoint folder) instead of fresh ones. */
  readonly init?: string;
  /** Choice objective: weight of the fatal-move term (choice.ts, safeSetLoss) in positions that hold a losing move (0: off). */
  readonly criticalWeight?: number;
  /** Log to train.log only. */
  readonly quiet?: boolean;
}

/** `o`: the spec's values by key (optionsFrom); `out`: the run folder. */
export function safetyOptions(
  o: Readonly<Record<string, unknown>>,
  out: string,
): SafetyTrainOptions {
  const data = String(o.data ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (data.length === 0)
    throw new UsageError(
      "penguin train safety needs --data DIR[,DIR…] (folders written by penguin dataset)",
    );
  const text = String(o.thresholds);
  const thresholds = text.split(",").map((t) => Number(t.trim()));
  if (thresholds.some((t) => !(t >= 0 && t <= 1)))
    throw new UsageError(
      `--thresholds must be numbers from 0 to 1, comma-separated, got ${printable(text)}`,
    );
  if (o.choiceTarget === "lookahead" && o.objective !== "choice")
    throw new UsageError("--choice-target lookahead needs --safety-objective choice");
  const cards = hasCardRows(o.features as SafetyFeatures);
  return {
    data,
    // Every input switch explicit, so spreading these over SAFETY_DEFAULTS cannot turn one back on.
    structure: o.features !== "basic",
    flipperCosts: o.features === "flippers" || cards,
    cardHidden: cards ? (o.cardHidden as number[]) : undefined,
    links: o.features === "links",
    attentionHeads: o.attentionHeads as number,
    out,
    seed: o.seed as number,
    epochs: o.epochs as number,
    batch: o.batch as number,
    lr: o.lr as number,
    lostWeight: o.lostWeight as number,
    keepSafe: o.keepSafe as number,
    valDeals: o.valDeals as number,
    shuffle: o.shuffle as number,
    thresholds,
    columnHidden: o.columnHidden as number[],
    headHidden: o.headHidden as number[],
    maxMinutes: o.maxMinutes as number,
    objective: o.objective === "choice" ? "choice" : "risk",
    suitShuffle: o.suitShuffle === true,
    choiceTarget: o.choiceTarget === "lookahead" ? "lookahead" : "winnable",
    temperature: o.temperature as number,
    playOrder: o.playOrder === "net" ? "net" : "greedy",
    ...(o.init !== undefined ? { init: String(o.init) } : {}),
    ...(Number(o.criticalWeight) > 0 ? { criticalWeight: Number(o.criticalWeight) } : {}),
  };
}

/** The defaults of SAFETY_SPEC as options (the shipped network's recipe), without the data and the folder. */
export const SAFETY_DEFAULTS: Omit<SafetyTrainOptions, "data" | "out"> = (() => {
  const {
    data: _d,
    out: _o,
    ...rest
  } = safetyOptions({ ...specDefaults(SAFETY_SPEC), data: "-" }, "-");
  return rest;
})();
