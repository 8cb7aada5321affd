/**
 * Engine throughput per preset on one core, from random playouts over many seeded deals:
 * - movesPerSec: moves played per second in random playouts (each step generates the legal
 *   moves, picks one with the project's seeded generator (`Rng`) and applies it; a playout ends after 300 moves
 *   or when no move is left, then the next deal starts);
 * - moveGenPerSec: generateMoves calls per second over positions sampled from those playouts;
 * - applyUndoPerSec: apply + undo pairs per second over the same positions' moves;
 * - branching: mean number of legal moves in the sampled positions.
 * Nothing is allocated inside the timed loops. Time is the process's CPU time (user + system,
 * `process.cpuUsage`), not wall time, so figures stay comparable on a shared, busy machine.
 * Run: `npm run bench engine` (or `npx tsx bench/bench.ts engine`); BENCH_SECONDS sets the
 * CPU seconds per loop (default 1).
 */
import {
  applyMoveUnchecked,
  deal,
  generateMoves,
  MAX_MOVES,
  PRESET_NAMES,
  resolveRules,
  undoMove,
  type State,
} from "../src/engine/index.js";
import { Rng } from "../src/util/rng.js";

const DEALS = 200;
const PLAYOUT = 300;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);

/** CPU milliseconds used by this process so far. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function measure(preset: string): Record<string, number> {
  const rules = resolveRules(preset);
  const starts = Array.from({ length: DEALS }, (_, i) => deal(rules, i));
  const s = starts[0]!.clone();
  const buf = new Int32Array(MAX_MOVES);
  const rng = new Rng(1);

  // Random playouts, timed; sample positions for the other loops as we go (outside the clock).
  const sample: State[] = [];
  let moves = 0;
  let g = 0;
  let elapsed = 0;
  while (elapsed < SECONDS * 1000) {
    const t0 = cpuMs();
    for (let rep = 0; rep < 20; rep++) {
      s.copyFrom(starts[g++ % DEALS]!);
      for (let step = 0; step < PLAYOUT; step++) {
        const n = generateMoves(s, buf);
        if (n === 0) break;
        applyMoveUnchecked(s, buf[rng.nextU32() % n]!);
        moves++;
      }
    }
    elapsed += cpuMs() - t0;
    if (sample.length < 4000) {
      // One more short playout, untimed, to collect positions.
      s.copyFrom(starts[g % DEALS]!);
      for (let step = 0; step < PLAYOUT && sample.length < 4000; step++) {
        const n = generateMoves(s, buf);
        if (n === 0) break;
        if (step % 7 === 0) sample.push(s.clone());
        applyMoveUnchecked(s, buf[rng.nextU32() % n]!);
      }
    }
  }
  const movesPerSec = moves / (elapsed / 1000);

  let gens = 0;
  let total = 0;
  let t0 = cpuMs();
  while (cpuMs() - t0 < SECONDS * 1000)
    for (let i = 0; i < sample.length; i++) {
      total += generateMoves(sample[i]!, buf);
      gens++;
    }
  const moveGenPerSec = gens / ((cpuMs() - t0) / 1000);

  let pairs = 0;
  t0 = cpuMs();
  while (cpuMs() - t0 < SECONDS * 1000)
    for (let i = 0; i < sample.length; i++) {
      const p = sample[i]!;
      const n = generateMoves(p, buf);
      for (let k = 0; k < n; k++) {
        applyMoveUnchecked(p, buf[k]!);
        undoMove(p, buf[k]!);
      }
      pairs += n;
    }
  // The generateMoves calls above are a small share; count only the pairs.
  const applyUndoPerSec = pairs / ((cpuMs() - t0) / 1000);
  return {
    moveGenPerSec: Math.round(moveGenPerSec),
    movesPerSec: Math.round(movesPerSec),
    applyUndoPerSec: Math.round(applyUndoPerSec),
    branching: Math.round((total / gens) * 100) / 100,
  };
}

export default async function engineBench(): Promise<
  Record<string, Record<string, number | string>>
> {
  const out: Record<string, Record<string, number | string>> = {};
  measure("penguin"); // warm the JIT before the first timed preset
  for (const p of PRESET_NAMES) out[p] = measure(p);
  return out;
}
