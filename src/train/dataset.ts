/**
 * Behaviour-cloning data: solver solutions of training deals, turned into (position, legal mask,
 * solver's action) samples.
 *
 * Solving is the slow part, so solutions are cached on disk as chunk files of action ids
 * (`<cache>/<key>/deals-<first>-<last>.json`, each written to a temp file and renamed) and reused
 * by every later run with the same rules, deals and solver limits; a killed generation restarts at
 * the first missing chunk. Positions are kept packed (80 bytes each) and encoded into
 * observations per minibatch, which costs far less than the network step and keeps memory small.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deal } from "../engine/deal.js";
import { applyMove, MAX_MOVES } from "../engine/moves.js";
import { rulesLabel, type Rules } from "../engine/rules.js";
import { COLUMN_CAP, State, tablesFor } from "../engine/state.js";
import { ActionCodec } from "../env/actions.js";
import type { PolicyFeatures } from "../players/policy/features.js";
import { sha256, writeAtomic } from "../util/files.js";

export interface SolveOutcome {
  result: string;
  moves?: readonly number[];
}
export type SolveFn = (
  s: State,
  o: { maxStates?: number; timeoutMs?: number },
) => SolveOutcome | Promise<SolveOutcome>;

/**
 * The project's solver (src/solver), loaded lazily so training without BC never needs it. Under
 * suit building it solves with the teacher plan, whose best-first lines are easier to imitate
 * than the default plan's; FreeCell-like rules keep their default plan.
 */
export async function loadSolver(): Promise<SolveFn> {
  const { solve, PLANS } = await import("../solver/index.js");
  return (s, o) =>
    solve(s, s.rules.build === "alternate-color" ? o : { ...o, plan: PLANS.teacher });
}

export interface DealSolution {
  seed: number;
  /** The solver's verdict ("solved", "unsolvable", "limit", …). */
  result: string;
  /** Action ids of the solution (empty unless solved). */
  actions: number[];
  /**
   * DAgger records: actions the policy played from the deal before the solver took over. They
   * lead to the position the solution starts from and are not training labels.
   */
  prefix?: number[];
}

export interface SolveLimits {
  maxStates: number;
  timeoutMs: number;
}

const CHUNK = 50;

function cacheKey(rules: Rules, limits: SolveLimits): string {
  const id = JSON.stringify({
    rules,
    maxStates: limits.maxStates,
    timeoutMs: limits.timeoutMs,
    v: 1,
  });
  return `${rulesLabel(rules).replace(/[^A-Za-z0-9=,-]/g, "_")}-${sha256(id).slice(0, 10)}`;
}

/** Solves (or reads from the cache) every seed; `log` receives progress lines. */
export async function solveDeals(
  rules: Rules,
  seeds: readonly number[],
  solve: SolveFn,
  limits: SolveLimits,
  cacheDir: string,
  log: (line: string) => void = () => {},
): Promise<DealSolution[]> {
  const codec = new ActionCodec(rules);
  const dir = join(cacheDir, cacheKey(rules, limits));
  const out: DealSolution[] = [];
  const t0 = performance.now();
  let fresh = 0;
  for (let i = 0; i < seeds.length; i += CHUNK) {
    const chunk = seeds.slice(i, i + CHUNK);
    const file = join(dir, `deals-${chunk[0]}-${chunk[chunk.length - 1]}.json`);
    if (existsSync(file)) {
      try {
        const cached = JSON.parse(readFileSync(file, "utf8")) as DealSolution[];
        if (cached.length === chunk.length && cached.every((c, k) => c.seed === chunk[k])) {
          out.push(...cached);
          continue;
        }
      } catch {
        // unreadable chunk: solve it again
      }
    }
    const solved: DealSolution[] = [];
    for (const seed of chunk) {
      const s = deal(rules, seed);
      const r = await solve(s.clone(), limits);
      const actions: number[] = [];
      let result = r.result;
      if (r.result === "solved" && r.moves) {
        for (const m of r.moves) {
          actions.push(codec.encode(s, m));
          applyMove(s, m);
        }
        if (!s.isWon()) result = "bad-solution";
      }
      solved.push({ seed, result, actions: result === "solved" ? actions : [] });
      fresh++;
    }
    writeAtomic(file, JSON.stringify(solved));
    out.push(...solved);
    const sec = (performance.now() - t0) / 1000;
    log(
      `solver: ${out.length}/${seeds.length} deals (${out.filter((d) => d.result === "solved").length} solved), ${(fresh / sec).toFixed(1)} deals/s`,
    );
  }
  return out;
}

/** Packed positions: base, found[4], cells[8], len[10], then the columns' cards in order. */
export const PACK_STRIDE = 80;

export function packState(s: State, out: Uint8Array, at: number): void {
  out[at] = s.base;
  for (let i = 0; i < 4; i++) out[at + 1 + i] = s.found[i]!;
  for (let i = 0; i < 8; i++) out[at + 5 + i] = s.cells[i]!;
  let k = at + 23;
  for (let c = 0; c < 10; c++) {
    const n = c < s.nColumns ? s.len[c]! : 0;
    out[at + 13 + c] = n;
    for (let d = 0; d < n; d++) out[k++] = s.cards[c * COLUMN_CAP + d]!;
  }
}

/** Writes a packed position into `s` (whose base must match; hashes are not kept). */
export function unpackState(src: Uint8Array, at: number, s: State): void {
  for (let i = 0; i < 4; i++) s.found[i] = src[at + 1 + i]!;
  for (let i = 0; i < 8; i++) s.cells[i] = src[at + 5 + i]!;
  let k = at + 23;
  for (let c = 0; c < s.nColumns; c++) {
    const n = src[at + 13 + c]!;
    s.len[c] = n;
    for (let d = 0; d < n; d++) s.cards[c * COLUMN_CAP + d] = src[k++]!;
  }
}

export interface Samples {
  count: number;
  packed: Uint8Array;
  /** Legal mask of each sample (count × actions), stored as in a rollout. */
  masks: Uint8Array;
  /** The solver's action id. */
  labels: Int32Array;
  /** Index of the deal (in the solutions list) each sample comes from. */
  deal: Int32Array;
  actions: number;
}

/** Replays every solved deal and records each position it passes through. */
export function buildSamples(rules: Rules, solutions: readonly DealSolution[]): Samples {
  const codec = new ActionCodec(rules);
  const A = codec.n;
  const count = solutions.reduce((n, d) => n + d.actions.length, 0);
  const samples: Samples = {
    count,
    packed: new Uint8Array(count * PACK_STRIDE),
    masks: new Uint8Array(count * A),
    labels: new Int32Array(count),
    deal: new Int32Array(count),
    actions: A,
  };
  const moves = new Int32Array(Math.max(A, MAX_MOVES));
  let i = 0;
  solutions.forEach((d, di) => {
    if (d.actions.length === 0) return;
    const s = deal(rules, d.seed);
    for (const a of d.prefix ?? []) {
      codec.fillMask(s, samples.masks.subarray(i * A, (i + 1) * A), moves);
      if (samples.masks[i * A + a] !== 1)
        throw new Error(`recorded policy move ${a} of deal ${d.seed} is illegal`);
      applyMove(s, moves[a]!);
    }
    samples.masks.fill(0, i * A, (i + 1) * A);
    for (const a of d.actions) {
      packState(s, samples.packed, i * PACK_STRIDE);
      codec.fillMask(s, samples.masks.subarray(i * A, (i + 1) * A), moves);
      if (samples.masks[i * A + a] !== 1)
        throw new Error(
          `cached solution of deal ${d.seed} plays an illegal action ${a}: delete the cache`,
        );
      samples.labels[i] = a;
      samples.deal[i] = di;
      applyMove(s, moves[a]!);
      i++;
    }
  });
  return samples;
}

/** Scratch positions per base rank, to decode packed samples into. */
export class Unpacker {
  private readonly byBase = new Map<number, State>();
  constructor(private readonly rules: Rules) {}
  state(base: number): State {
    let s = this.byBase.get(base);
    if (!s) {
      s = new State(this.rules, base, tablesFor(this.rules, base));
      this.byBase.set(base, s);
    }
    return s;
  }
}

/** Fills one minibatch (observations, float masks, labels) from sample indices idx[from..from+n). */
export function fillBatch(
  samples: Samples,
  idx: Int32Array,
  from: number,
  n: number,
  encoder: PolicyFeatures,
  unpacker: Unpacker,
  obs: Float32Array,
  masks: Float32Array,
  labels: Int32Array,
): void {
  const A = samples.actions;
  for (let r = 0; r < n; r++) {
    const i = idx[from + r]!;
    const s = unpacker.state(samples.packed[i * PACK_STRIDE]!);
    unpackState(samples.packed, i * PACK_STRIDE, s);
    encoder.encode(s, samples.masks, i * A, obs, r * encoder.size);
    for (let a = 0; a < A; a++) masks[r * A + a] = samples.masks[i * A + a]!;
    labels[r] = samples.labels[i]!;
  }
}
