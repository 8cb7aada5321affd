/** The options object of `penguin train safety`, from the values its spec (`safety` in src/train/algos.ts) parsed and checked. */
import { UsageError } from "../../errors.js";
import { printable } from "../../util/text.js";
import type { SafetyTrainOptions } from "./train.js";
import { hasCardRows } from "../../players/safety/cards.js";
import type { SafetyFeatures } from "../../players/safety/model.js";

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
    structure: o.features !== "basic",
    ...(o.features === "flippers" || cards ? { flipperCosts: true } : {}),
    ...(cards ? { cardHidden: o.cardHidden as number[] } : {}),
    ...(o.features === "links" ? { links: true } : {}),
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
