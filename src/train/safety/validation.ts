/**
 * A safety run's validation points (twice an epoch): the held-out scores, then validation games
 * from VALIDATION_DEAL_START at each risk threshold of --thresholds. The network that wins the most
 * deals, with the threshold it won them at, is the run's checkpoint/: what the network is for is
 * winning deals, and how well it ranks moves only approximates that.
 */
import { join } from "node:path";
import { deal } from "../../engine/deal.js";
import { rulesLabel, type Rules } from "../../engine/rules.js";
import { EpisodeRunner } from "../../eval/game-loop.js";
import { SafetyAgent, type PlayPolicy } from "../../players/safety/agent.js";
import { saveSafety, type SafetyWeights } from "../../players/safety/model.js";
import { wilson } from "../../util/wilson.js";
import { VALIDATION_DEAL_START } from "../splits.js";
import { wallSeconds, type LoopState, type SafetyRun } from "./context.js";
import { heldOutScores, type HeldOutScores } from "./held-out.js";
import type { SafetyTrainOptions } from "./options.js";

/** When no move is judged safe, the player takes the moves within this risk of the least risky one. */
const MARGIN = 0.05;

/** The operating point a saved network plays at (its model.json `play`; the player's defaults fill the rest). */
export function operatingPoint(o: SafetyTrainOptions, threshold: number): Record<string, unknown> {
  return {
    threshold,
    shuffle: o.shuffle,
    margin: MARGIN,
    ...(o.playOrder === "net" ? { order: "net" } : {}),
  };
}

/** Plays `count` validation deals with the network at one operating point; returns wins. */
function playValidation(rules: Rules, w: SafetyWeights, play: PlayPolicy, count: number): number {
  const agent = new SafetyAgent(w, rules, "val", play);
  const runner = new EpisodeRunner(rules, agent);
  const from = VALIDATION_DEAL_START;
  let wins = 0;
  for (let i = 0; i < count; i++) if (runner.play(deal(rules, from + i), from + i).won) wins++;
  return wins;
}

/** Plays the validation deals at every threshold; the first that wins the most is chosen. */
function chooseThreshold(
  ctx: SafetyRun,
  w: SafetyWeights,
  label: number,
): { threshold: number; wins: number } {
  const { o } = ctx;
  let threshold = o.thresholds[0]!;
  let best = -1;
  for (const t of o.thresholds) {
    const play = {
      threshold: t,
      shuffle: o.shuffle,
      margin: MARGIN,
      order: o.playOrder ?? "greedy",
    };
    const wins = playValidation(ctx.rules, w, play, o.valDeals);
    ctx.run.log(`  epoch ${label}: threshold ${t}: ${wins}/${o.valDeals} validation deals won`);
    if (wins > best) {
      best = wins;
      threshold = t;
    }
  }
  return { threshold, wins: best };
}

/**
 * The validation point at `label` (the epoch, to two decimals): held-out scores, validation games,
 * a metrics row, and checkpoint/ when it wins more deals than any before. A step is validated once.
 */
export function validationPoint(ctx: SafetyRun, st: LoopState, label: number): void {
  if (st.step === st.lastEval) return;
  st.lastEval = st.step;
  const { o, run } = ctx;
  const v = heldOutScores(ctx.net, ctx.batch, ctx.samples.val);
  const w = ctx.net.read();
  const { threshold, wins } = chooseThreshold(ctx, w, label);
  const rate = wins / o.valDeals;
  const ci = wilson(wins, o.valDeals);
  run.log(
    `epoch ${label}: val loss ${v.loss.toFixed(4)}, recall of lost moves ${(100 * v.recall).toFixed(1)} %, false alarms ${(100 * v.falseAlarm).toFixed(2)} %; best threshold ${threshold}: ${(100 * rate).toFixed(1)} % [${(100 * ci.low).toFixed(1)}–${(100 * ci.high).toFixed(1)}]`,
  );
  run.rows.push({
    epoch: label,
    step: st.step,
    samples: st.step * o.batch,
    val_loss: v.loss,
    val_recall_lost: v.recall,
    val_false_alarm: v.falseAlarm,
    threshold,
    val_win_rate: rate,
    wall_s: wallSeconds(ctx),
  });
  if (wins > st.best) {
    st.best = wins;
    saveBest(ctx, st, w, { label, threshold, wins, scores: v });
  }
  run.writeMetrics();
}

/** checkpoint/: the network of the best validation point, with its operating point and scores. */
function saveBest(
  ctx: SafetyRun,
  st: LoopState,
  w: SafetyWeights,
  at: { label: number; threshold: number; wins: number; scores: HeldOutScores },
): void {
  const { o } = ctx;
  saveSafety(join(o.out, "checkpoint"), w, {
    play: operatingPoint(o, at.threshold),
    epoch: at.label,
    step: st.step,
    valWins: at.wins,
    valDeals: o.valDeals,
    valFrom: VALIDATION_DEAL_START,
    recall: at.scores.recall,
    falseAlarm: at.scores.falseAlarm,
    rules: rulesLabel(ctx.rules),
    data: o.data,
  });
  ctx.run.log(`  checkpoint: epoch ${at.label}`);
}
