/**
 * The exact solver: runs a search plan (plan.ts), a list of strategies with budgets, until one
 * finds a win or a complete one proves there is none; then replays the line through the engine.
 *
 * Why "unsolvable" is exact. Only a plan entry marked `complete` may answer it, and only when it
 * ran out of positions to visit with no budget hit: each node is a position after its safe
 * foundation moves (canonical.ts), children are every legal move (each followed by its safe
 * foundation moves; meta-moves only add children), and a node is expanded only when its key is
 * not yet in the transposition table. The only moves left out are ones whose result is already a
 * sibling up to relabelling (a move into any empty column but the first; the engine already
 * drops flipper-to-flipper moves and moves of a whole column into an empty one). So the search
 * visits every node reachable from the start, and since a safe foundation move never makes a
 * winnable position unwinnable nor its shortest win longer (docs/solver.md), "no node is won"
 * means the deal is lost. A budget that runs out turns that proof into "unknown".
 */
import { applyMove, isLegal, type Move } from "../engine/moves.js";
import { moveToString } from "../engine/notation.js";
import { State } from "../engine/state.js";
import { describeValue, InvalidArgumentError } from "../errors.js";
import { BestFirst } from "./best-first.js";
import { DepthFirst } from "./depth-first.js";
import { checkPlan, defaultPlan, type PlanStep, type SolvePlan } from "./plan.js";
import { TranspositionTable } from "./transposition.js";
import { LONG_LINE, shortenedWin } from "./shorten.js";

export interface SolveOptions {
  /** Most distinct positions to examine over the whole plan (≤ ~100 bytes each); default DEFAULT_MAX_STATES. */
  readonly maxStates?: number;
  /** Wall-clock budget in milliseconds; default none. */
  readonly timeoutMs?: number;
  /** The search plan (plan.ts); default `defaultPlan(rules)`. */
  readonly plan?: SolvePlan;
}

const SOLVE_OPTION_KEYS: readonly string[] = ["maxStates", "timeoutMs", "plan"];

export const DEFAULT_MAX_STATES = 2_000_000;
/** Largest budget accepted: its table (2^29 slots, 4 GB) is the most typed arrays allow here. */
export const MAX_STATES_LIMIT = 2 ** 28;

export interface SolveStats {
  /** Distinct positions examined (stored in the transposition tables), over every plan entry run. */
  readonly states: number;
  readonly ms: number;
  /** Name of the plan entry that gave the verdict (for "unknown": the last one run). */
  readonly by: string;
}
export type UnknownReason = "max-states" | "timeout";
export type SolveResult =
  | (SolveStats & { readonly result: "solved"; readonly moves: Move[] })
  | (SolveStats & { readonly result: "unsolvable" })
  | (SolveStats & { readonly result: "unknown"; readonly reason: UnknownReason });

/** The play notation of a line from `start`, each move written as `penguin play` reads it back. */
export function lineText(start: State, moves: readonly Move[]): string[] {
  const s = start.clone();
  return moves.map((m) => {
    const text = moveToString(m, s);
    applyMove(s, m);
    return text;
  });
}

/**
 * Plays `moves` from `start` through the engine (each must be legal) and says whether they win.
 * Every solution passes this check before `solve` returns it.
 */
export function replayWins(start: State, moves: readonly Move[]): boolean {
  const s = replayCopy(start);
  for (const m of moves) {
    if (!isLegal(s, m)) return false;
    applyMove(s, m);
  }
  return s.isWon();
}

/**
 * The positions replays run on, one per rule tables (a Penguin deal's base rank has its own), kept
 * between calls: a fresh copy is about 1 % of an easy solve. A replay needs no hash: its moves
 * leave it alone (State.hashed).
 */
const replays = new WeakMap<object, State>();
function replayCopy(start: State): State {
  let s = replays.get(start.tables);
  if (s?.rules !== start.rules || s.base !== start.base) {
    s = start.clone();
    s.hashed = false;
    replays.set(start.tables, s);
  } else s.copyFrom(start);
  return s;
}

/** Positions each racing entry searches per turn. */
const RACE_SLICE = 1000;

interface Racer {
  readonly step: PlanStep;
  readonly budget: number;
  search: BestFirst | DepthFirst | undefined;
  /** Turns this racer has had. */
  turns: number;
  /** The line it found, if it won. */
  won?: Move[];
  /** Dropped out of the race. */
  out: boolean;
}

/** Positions racer r searches in its next turn: its slice, or the next of its list of turns (the last repeats). */
function turnLength(r: Racer): number {
  const slice = r.step.slice ?? RACE_SLICE;
  if (typeof slice === "number") return slice;
  return slice[Math.min(r.turns++, slice.length - 1)]!;
}

/**
 * Lines shorter than this are only replayed: on the Microsoft deals of five rule sets the pass
 * cut lines under 130 moves by 0.1-1 % (FreeCell MS 1-1000: 1.2 %), at twice a replay's cost,
 * and lines of 130-199 moves by about as little (FreeCell MS 1-6000: 0.5 % longer lines without
 * it there, for 6 % less CPU time). What it is for is the wandering lines of a long search.
 */
const SHORTEN_FROM = 200;

/** The line a plan entry found, replayed through the engine, shortened where that can help. */
function checkedLine(position: State, step: PlanStep, found: Move[]): Move[] {
  // A best-first line (without meta-moves) has no one-move shortcut between two of its nodes:
  // the target would have been stored first as the earlier node's child, and the line follows
  // the parents. So the pass runs on it only when it is long enough for two-move cuts.
  const plainBest = step.strategy === "best-first" && !step.meta && found.length <= LONG_LINE;
  // The shortening pass is itself a replay (each move it keeps is one the engine listed as legal
  // there, and it checks the end is won); when it cannot vouch for its line, or does not run,
  // the found line is replayed on its own.
  const shorter = plainBest || found.length < SHORTEN_FROM ? null : shortenedWin(position, found);
  if (shorter) return shorter;
  if (!replayWins(position, found))
    throw new Error(`solver bug: the line found by ${step.name} does not replay to a win`);
  return found;
}

/**
 * Searches of earlier solves, one per plan entry and base rank, to restart instead of building
 * anew (a racer then starts without allocating). Only small ones are kept, so little memory
 * stays held (at most 13 per entry, under Penguin's rules).
 */
const spare = new WeakMap<PlanStep, (BestFirst | DepthFirst | undefined)[]>();
const KEEP_STATES = 4096;

function startSearch(
  position: State,
  step: PlanStep,
  budget: number,
  shared: { left: number },
): BestFirst | DepthFirst {
  // One per base rank: a Penguin deal's base is its own, and the walker's tables follow it.
  const kept = spare.get(step);
  const old = kept?.[position.base];
  let search: BestFirst | DepthFirst;
  if (old && old.walk.s.rules === position.rules) {
    // Taken out while in use, so a solve inside this one (an agent's, say) builds its own.
    kept![position.base] = undefined;
    old.restart(position, budget, shared);
    search = old;
  } else
    search =
      step.strategy === "best-first"
        ? new BestFirst(position, budget, step.weights, step, shared)
        : new DepthFirst(
            position,
            budget,
            step.weights,
            step.order ?? "score",
            shared,
            step.lean ?? false,
            step.jitter ?? 0,
            step.seed ?? 0,
            step.eager,
            step.horne,
            step.singleParks,
            step.complete,
            step.emptyFrom,
          );
  if (step.share) search.table.keys = SEEN;
  return search;
}

/**
 * The table the `share` racers of a race keep their keys in, restarted for each race (keeping
 * its arrays while they are small). One is enough: a race runs to its end without calling out,
 * and the spare searches above are taken out while in use only as a precaution.
 */
const SEEN = new TranspositionTable(1);

/** Keeps the small searches of a finished solve for the next one. */
function putBack(racers: readonly Racer[]): void {
  for (const r of racers) {
    if (!r.search || r.search.table.size > KEEP_STATES) continue;
    const kept = spare.get(r.step) ?? [];
    kept[r.search.walk.s.base] = r.search;
    spare.set(r.step, kept);
  }
}

/**
 * Runs racers in turns until one wins (its line left in `won`), a complete one runs dry, the
 * clock runs out, or every racer dropped out or the shared budget is spent ("open").
 */
function race(
  position: State,
  racers: readonly Racer[],
  shared: { left: number },
  deadline: number,
  turn: (name: string) => void,
): "solved" | "unsolvable" | "timeout" | "open" {
  let live = racers.length;
  while (live > 0 && shared.left > 0) {
    for (const r of racers) {
      if (r.out) continue;
      turn(r.step.name);
      r.search ??= startSearch(position, r.step, r.budget, shared);
      const length = live > 1 ? Math.min(turnLength(r), shared.left) : shared.left;
      const end = r.search.run(deadline, r.search.table.size + length);
      if (end === "paused") continue;
      if (end === "solved") {
        r.won = r.search.line();
        return "solved";
      }
      if (end === "exhausted" && r.step.complete) return "unsolvable";
      if (end === "timeout") return "timeout";
      // Exhausted without being complete, or out of its own budget: it drops out (marked: a new,
      // shorter list threw V8 out of the compiled race() while it warmed up).
      r.out = true;
      live--;
    }
  }
  return "open";
}

/**
 * Decides a position: a verified winning line, a proof that none exists, or "unknown" when
 * `maxStates` positions or `timeoutMs` ran out (or the plan has no complete entry). The rules
 * are the position's own.
 */
export function solve(position: State, options: SolveOptions = {}): SolveResult {
  if (!(position instanceof State))
    throw new InvalidArgumentError(
      `solve needs a position (a State from deal, dealMs, parseBoard or env.state), got ${describeValue(position)}`,
    );
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new InvalidArgumentError(
      `solve's options must be an object such as { maxStates: 100000 }, got ${describeValue(options)}`,
    );
  for (const k of Object.keys(options))
    if (!SOLVE_OPTION_KEYS.includes(k))
      throw new InvalidArgumentError(
        `unknown solve option ${JSON.stringify(k)}; allowed: ${SOLVE_OPTION_KEYS.join(", ")}`,
      );
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  if (!Number.isInteger(maxStates) || maxStates < 1 || maxStates > MAX_STATES_LIMIT)
    throw new InvalidArgumentError(
      `maxStates must be an integer from 1 to ${MAX_STATES_LIMIT}, got ${describeValue(maxStates)}`,
    );
  const timeoutMs = options.timeoutMs;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs >= 0))
    throw new InvalidArgumentError(
      `timeoutMs must be a number of milliseconds ≥ 0 (Infinity for none), got ${describeValue(timeoutMs)}`,
    );
  const plan = options.plan ?? defaultPlan(position.rules);
  // (The default plans pass; checking them costs about 1 % of a FreeCell solve.)
  if (options.plan) checkPlan(plan);
  const t0 = performance.now();
  const deadline = options.timeoutMs === undefined ? Infinity : t0 + options.timeoutMs;
  const elapsed = (): number => Math.round((performance.now() - t0) * 10) / 10;
  let states = 0;
  let by = plan[0]!.name;
  for (let i = 0; i < plan.length; ) {
    // One entry, or a run of consecutive `race` entries searched in turns of `slice` positions.
    let j = i + 1;
    if (plan[i]!.race) while (j < plan.length && plan[j]!.race) j++;
    const room = maxStates - states;
    if (room < 1) break;
    // The racers' tables draw on one budget; a racer is built only when its first turn comes.
    const shared = { left: room };
    const racers: Racer[] = plan.slice(i, j).map((step) => ({
      step,
      budget: Math.min(step.budget ?? room, room),
      search: undefined,
      turns: 0,
      out: false,
    }));
    const stored = (): number => states + room - shared.left;
    i = j;
    if (racers.some((r) => r.step.share)) SEEN.restart(room);
    const end = race(position, racers, shared, deadline, (name) => (by = name));
    states = stored();
    putBack(racers);
    if (end === "solved") {
      const r = racers.find((h) => h.won)!;
      return {
        result: "solved",
        moves: checkedLine(position, r.step, r.won!),
        states,
        ms: elapsed(),
        by,
      };
    }
    if (end === "unsolvable") return { result: "unsolvable", states, ms: elapsed(), by };
    if (end === "timeout")
      return { result: "unknown", reason: "timeout", states, ms: elapsed(), by };
  }
  // Budget spent, or every entry ran dry without one marked complete.
  return { result: "unknown", reason: "max-states", states, ms: elapsed(), by };
}
