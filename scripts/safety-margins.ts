/**
 * How close a choice network came to its misses, from the labels `penguin dataset` wrote while
 * that network played: for every position that holds both a losing and a winnable move, the
 * network scores all the legal moves again (no never-repeat guard) and this counts
 *   - the positions where its best-scored move loses, and the kind of that move and of the best
 *     winnable one (home, to a flipper, out of a flipper, a card, a run, onto an empty column);
 *   - how far, in logits, the best winnable move scored below a played losing move (misses) and
 *     the best losing move below the best winnable one (the other positions).
 *
 *   npx tsx scripts/safety-margins.ts DATASET_DIR MODEL_DIR
 *
 * Prints one JSON line.
 */
import {
  CELL0,
  FOUNDATION,
  moveCount,
  moveFrom,
  moveTo,
  moveToEmpty,
  type Move,
} from "../src/engine/moves.js";
import { UsageError } from "../src/errors.js";
import { PositionSet } from "../src/agents/repeat-guard.js";
import { ActionCodec } from "../src/env/actions.js";
import { PACK_STRIDE, unpackState, Unpacker } from "../src/train/dataset.js";
import { SafetyView } from "../src/train/safety/agent.js";
import { decisionStarts } from "../src/train/safety/choice.js";
import { loadDataset } from "../src/train/safety/dataset.js";
import { loadSafety } from "../src/train/safety/model.js";

const kind = (m: Move): string =>
  moveTo(m) === FOUNDATION
    ? "home"
    : moveTo(m) >= CELL0
      ? "toFlipper"
      : moveFrom(m) >= CELL0
        ? "fromFlipper"
        : moveToEmpty(m)
          ? "toEmpty"
          : moveCount(m) > 1
            ? "run"
            : "card";

function quantiles(xs: number[]): number[] {
  const s = [...xs].sort((a, b) => a - b);
  return [0.1, 0.25, 0.5, 0.75, 0.9].map((p) =>
    s.length ? Math.round(s[Math.floor(p * (s.length - 1))]! * 1000) / 1000 : NaN,
  );
}

function main(dir: string, model: string): Record<string, unknown> {
  const ds = loadDataset([dir]);
  const first = decisionStarts(ds);
  const rules = ds.index.rules;
  const { weights } = loadSafety(model);
  if (weights.config.objective !== "choice")
    throw new UsageError(
      `${model} is not a choice network (its scores are not logits of one softmax)`,
    );
  const sv = new SafetyView(new ActionCodec(rules), weights);
  const unpacker = new Unpacker(rules);
  const none = new PositionSet();
  const gap = new Map<Move, number>();
  const counts: Record<string, number> = {};
  const add = (k: string): void => void (counts[k] = (counts[k] ?? 0) + 1);
  const missGap: number[] = [];
  const safeGap: number[] = [];
  let critical = 0,
    topLoses = 0,
    misses = 0;
  for (let d = 0; d < ds.deal.length; d++) {
    let losing = 0,
      winnable = 0,
      played = -1;
    for (let k = first[d]!; k < first[d + 1]!; k++) {
      if (ds.label[k] === 0) losing++;
      if (ds.label[k] === 1) winnable++;
      if (ds.played[k] === 1) played = k;
    }
    if (losing === 0 || winnable === 0) continue;
    critical++;
    const s = unpacker.state(ds.before[d * PACK_STRIDE]!);
    unpackState(ds.before, d * PACK_STRIDE, s);
    s.rehash();
    sv.look(s, none);
    // risk = 1 − e^(z − z_top), so −log(1 − risk) is how far the move's logit lies below the best.
    gap.clear();
    for (let a = 0; a < sv.codec.n; a++)
      if (sv.view.mask[a] === 1)
        gap.set(sv.view.actionMoves[a]!, -Math.log(Math.max(1e-12, 1 - sv.risk[a]!)));
    let win = Infinity,
      lose = Infinity,
      winK = -1;
    for (let k = first[d]!; k < first[d + 1]!; k++) {
      const g = gap.get(ds.move[k]!) ?? Infinity;
      if (ds.label[k] === 1 && g < win) [win, winK] = [g, k];
      if (ds.label[k] === 0 && g < lose) lose = g;
    }
    if (lose < win) topLoses++;
    if (played >= 0 && ds.label[played] === 0) {
      misses++;
      add(`missed:${kind(ds.move[played]!)}`);
      add(`insteadOf:${kind(ds.move[winK]!)}`);
      missGap.push(win - (gap.get(ds.move[played]!) ?? 0));
    } else safeGap.push(lose - win);
  }
  return {
    data: dir,
    model,
    critical,
    topLoses,
    misses,
    kinds: counts,
    missGapQuantiles: quantiles(missGap),
    safeGapQuantiles: quantiles(safeGap),
    missesWithin05: missGap.filter((g) => g < 0.5).length,
    safeWithin05: safeGap.filter((g) => g < 0.5).length,
  };
}

const [dir, model] = process.argv.slice(2);
if (!dir || !model) {
  console.error("usage: npx tsx scripts/safety-margins.ts DATASET_DIR MODEL_DIR");
  process.exit(2);
}
try {
  console.log(JSON.stringify(main(dir, model)));
} catch (e) {
  if (e instanceof UsageError) {
    console.error(`safety-margins: ${e.message}`);
    process.exit(2);
  }
  throw e;
}
