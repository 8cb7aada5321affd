/**
 * Search plans: which strategies the solver runs, in what order, with what budgets, described
 * as data (in the spirit of Freecell Solver's "flares plans"). Each entry runs from the start
 * position with its own transposition table (or, with `share`, one it shares with the other
 * sharing entries of its race); the first to find a win ends the plan. Only an
 * entry marked `complete` may answer "unsolvable", when it visited every reachable position
 * within its budget; a plan without one answers only "solved" or "unknown".
 */
import type { Rules } from "../engine/rules.js";

/**
 * Weights of the score of a position: cards home, free flippers, empty columns, cards out of
 * sequence, cards above the next foundation cards.
 */
export type Weights = readonly [number, number, number, number, number];
/** Depth-first move orders (depth-first.ts), as checkPlan names them. */
const DFS_ORDERS = [
  "score",
  "manoeuvre",
  "engine",
  "static",
  "static-manoeuvre",
  "purpose",
] as const;
export type DfsOrder = (typeof DFS_ORDERS)[number];

export type Strategy = "depth-first" | "best-first";

export interface PlanStep {
  /** Reported as `by` in the result when this entry decides. */
  readonly name: string;
  readonly strategy: Strategy;
  /** Score weights: cards home, free flippers, empty columns, cards out of sequence, cards above the next foundation cards. */
  readonly weights: Weights;
  /** Most positions this entry may examine (capped by what the plan's maxStates leaves); default all that is left. */
  readonly budget?: number;
  /** Best-first only: add manoeuvres (manoeuvre.ts: the cards in the way to flippers, then a card home or a run onto the card it builds on); ignored under penguin-beak-home and rank foundations. */
  readonly meta?: boolean;
  /**
   * Leave out single moves of a card into a flipper unless it empties a column (they still
   * happen inside manoeuvres): far fewer children, but the search is no longer complete, so a
   * lean entry may not be marked `complete`.
   */
  readonly lean?: boolean;
  /** Best-first only: score taken off per step from the start (default 0, greedy). */
  readonly stepCost?: number;
  /**
   * Depth-first only: children best first by score (default); the same with manoeuvres among
   * them (`manoeuvre`); in the engine's order (about half the cost per node); `static`, by a
   * move class read off the move without playing it; or `static-manoeuvre`, the same with the
   * manoeuvres among them (each classed by its purpose and the cards in its way).
   */
  readonly order?: DfsOrder;
  /**
   * Depth-first, every order but `engine`: each child's score (or move class) gets a noise in [0, jitter) drawn from
   * the position, the move and `seed`, so racers that differ only in their seed try near-ties in
   * different orders (Freecell Solver's random-dfs); the same deal still gives the same search.
   */
  readonly jitter?: number;
  readonly seed?: number;
  /**
   * Consecutive `race` entries run together, in turns of `slice` positions each (like Freecell
   * Solver's soft threads): the first to win ends the plan, so a deal costs about the number of
   * racers times what its best strategy needs.
   */
  readonly race?: boolean;
  /** Positions per turn when racing (default 1,000), or a list: one per turn, the last repeating. */
  readonly slice?: number | readonly number[];
  /**
   * Send every card that is next on its foundation home at once, not only those no other card
   * could still be built on: fewer positions, but a win that needs such a card kept in play is
   * missed, so an eager entry may not be marked `complete` either.
   */
  readonly eager?: boolean;
  /**
   * Horne's prune (Freecell Solver's `-sp r:tf`): a parked card goes onto the card it builds on
   * (not a base card) as soon as that card is last in a column, as part of the move that made it
   * so. Fewer positions; a win that needs the card kept parked is missed, unless whole runs are
   * parked (`singleParks`): a complete entry may have it in depth-first search only, and searches
   * without it where whole runs are not parked.
   */
  readonly horne?: boolean;
  /**
   * Depth-first only: park cards one by one, as the engine lists them. By default, when cards
   * build in suit and groups may move, a card that sits on the card it builds on is parked only
   * with its whole run, which keeps the search complete (docs/solver.md).
   */
  readonly singleParks?: boolean;
  /**
   * `purpose` order only: a column's top run goes into an empty column only from this depth on
   * (Freecell Solver's first FreeCell soft thread adds that move from depth 33); default 0.
   */
  readonly emptyFrom?: number;
  /** An exhausted search of this entry proves the deal lost. */
  readonly complete?: boolean;
  /**
   * Racing: the positions this entry stores count as seen by the other `share` entries of its
   * race, and theirs by it, so a racer leaves what another has searched (Freecell Solver's scans
   * skip only what another has withdrawn from, `--scans-synergy dead-end-marks`). Not with
   * `complete`, whose exhausted search must have seen every position itself.
   */
  readonly share?: boolean;
}
export type SolvePlan = readonly PlanStep[];

/** Depth-first weight sets: the first is the complete search's, the second the teacher plan's depth-first run. */
export const WEIGHT_SETS: readonly Weights[] = [
  [20, 12, 20, 3, 3],
  [20, 12, 20, 3, 0],
  [16, 6, 10, 3, 0],
];

/** A racer, storing at most `budget` positions. */
const racer = (
  name: string,
  budget: number,
  step: Omit<PlanStep, "name" | "race" | "budget">,
): PlanStep => ({ name, ...step, budget, race: true });
/** Best-first, greedy: its lines stay close to greedy play. */
const BEST = racer("best-first", 40_000, { strategy: "best-first", weights: [20, 8, 16, 6, 6] });
/** A depth-first racer, by default with the complete search's weights. */
const dfs = (
  name: string,
  budget: number,
  step: Omit<PlanStep, "name" | "race" | "budget" | "strategy" | "weights"> & { weights?: Weights },
): PlanStep => racer(name, budget, { strategy: "depth-first", weights: WEIGHT_SETS[0]!, ...step });
const DFS_1 = dfs("dfs-1", 40_000, { weights: WEIGHT_SETS[1]! });
/** The complete search, scored move order: it still finds many wins on its own. */
const COMPLETE: PlanStep = {
  name: "dfs-complete",
  strategy: "depth-first",
  weights: WEIGHT_SETS[0]!,
  complete: true,
  race: true,
};
/** The same after the racers of FreeCell's plans: a pause, then turns of 300. */
const COMPLETE_RACER: PlanStep = { ...COMPLETE, slice: [1, 300] };
/**
 * The complete search in the engine's move order with larger turns: half the cost per node, for
 * rule sets where proving deals lost is most of the work.
 */
const COMPLETE_PLAIN: PlanStep = {
  ...COMPLETE,
  name: "dfs-complete-plain",
  order: "engine",
  slice: 4000,
};

/** Lean depth-first search with manoeuvres among the children, best first by score. */
const leanDfs = (
  name: string,
  budget: number,
  weights: Weights,
  slice: readonly number[],
): PlanStep => dfs(name, budget, { weights, order: "manoeuvre", lean: true, slice });
/**
 * The same with Horne's prune; with a `seed`, also a noise of 15 between near-ties (like Freecell
 * Solver's random-dfs seeds).
 */
const horneDfs = (
  name: string,
  budget: number,
  weights: Weights,
  slice: readonly number[],
  seed?: number,
): PlanStep => ({
  ...leanDfs(name, budget, weights, slice),
  horne: true,
  ...(seed && { jitter: 15, seed }),
});
/** Lean weights: free flippers first; more flippers; empty columns; flippers only. */
const FLIPPERS: Weights = [10, 17, 15, 5, 3];
const MORE_FLIPPERS: Weights = [10, 23, 12, 3, 7];
const EMPTY_COLUMNS: Weights = [10, 19, 40, 1, 3];
const FLIPPERS_ONLY: Weights = [8, 30, 8, 1, 4];
/** Depth-first search in move-class order; by default its first turn is its whole budget. */
const staticDfs = (budget: number, slice: readonly number[] = [budget]): PlanStep =>
  dfs("dfs-static", budget, { order: "static", slice });
/** `staticDfs` sending every next card home at once (`eager`: 3 % fewer positions on FreeCell MS 1-1000). */
const eagerDfs = (budget: number, slice: readonly number[]): PlanStep => ({
  ...staticDfs(budget, slice),
  eager: true,
});
/**
 * Depth-first search over moves with a purpose alone (order `purpose`, in the spirit of Freecell
 * Solver's fastest soft thread), with Horne's prune and a noise of 10 between children of one
 * class: nothing is scored or looked up before its turn, so a position costs about half what it
 * costs in the scored lean racers, and it wins most of the deals they need longest for.
 */
const purposeDfs = (budget: number, slice: readonly number[] = [budget]): PlanStep =>
  dfs("purpose", budget, { order: "purpose", horne: true, jitter: 10, seed: 1, slice });
/** Patient lean best-first search with manoeuvres. */
const patient = (budget: number, slice: readonly number[]): PlanStep =>
  racer("lean-best-first-patient", budget, {
    strategy: "best-first",
    weights: [10, 10, 10, 7, 5],
    stepCost: 3,
    meta: true,
    lean: true,
    slice,
  });
/**
 * The plan with `share` on every racer but the complete search and those marked `share: false`:
 * a racer then leaves what another has searched (docs/solver.md). The racers kept apart are
 * those that catch the deals the others miss, whose wins often go through what others searched.
 */
const sharing = (plan: SolvePlan): SolvePlan =>
  plan.map((p) => (p.complete || p.share === false ? p : { ...p, share: true }));
/** The patient racer, kept apart: shared, it left FreeCell #2928 with unlimited group moves to others (142,853 positions, not 4,244). */
const PATIENT = { ...patient(50_000, [75, 1, 1, 3000]), share: false };
/**
 * FreeCell: searches that make only moves with a purpose first, restarted with other noise: the
 * first without noise (180 positions), the second with its own (270); then a lean scored search
 * under weights that favour free flippers, with noise (100); the purpose order once more, given
 * the most room (turns of 500, up to 4,000); lean depth-first searches with Horne's prune for the
 * deals that all of those miss; patient best-first search with manoeuvres; then the complete
 * search. A search that runs dry of moves with a purpose early is often lost in a detour its
 * first moves committed it to, and a restart with other noise gets out of it: each purpose
 * search wins most of the deals alone, but the ones it needs long for differ. Budgets and turns
 * from simulated races (each search's own count per deal and its measured cost per position, on
 * MS 1-4000, checked on MS 4001-6000), then measured (research/solver-log.md). A turn of 1 position is in
 * effect a pause. The purpose searches move a top run into an empty column alone only from depth
 * 33, as Freecell Solver's first soft thread does: 10 % fewer positions on MS 1-16000.
 */
const FREECELL: SolvePlan = sharing([
  { ...purposeDfs(500, [180, 1]), jitter: 0, eager: true, emptyFrom: 33 },
  { ...purposeDfs(650, [270, 1]), name: "purpose-4", seed: 4, eager: true, emptyFrom: 33 },
  horneDfs("lean-flippers-2", 130, FLIPPERS, [100], 2),
  // Move-class order wins a few deals that every other racer misses: #8166 in 607 positions,
  // where without it the complete search took 839,590 (1.3-1.8 s).
  eagerDfs(200, [100, 100, 1]),
  // Kept apart: shared, it left #3685 to others (18,643 positions, not 7,000).
  { ...purposeDfs(4000, [500]), name: "purpose-1", eager: true, emptyFrom: 33, share: false },
  horneDfs("lean-flippers-3", 360, FLIPPERS, [60, 1], 3),
  horneDfs("lean-empty-columns", 140, EMPTY_COLUMNS, [700]),
  // Its budget is large for the few deals that all the others miss: on MS 1-32000 the complete
  // search alone found their wins in up to 1.4 million positions and left two undecided.
  PATIENT,
  COMPLETE_RACER,
]);
/** The same, with runs into an empty column at any depth: with unlimited group moves it stored 9 % fewer positions (MS 1-5000). */
const FREECELL_UNLIMITED: SolvePlan = FREECELL.map(({ emptyFrom, ...p }) => p);
/**
 * FreeCell-like rules where not every card may fill an empty column (kings only, or none): the
 * plan FreeCell had before the one above, which leads with depth-first search in move-class order
 * (100 positions, then 100 more) and the purpose order second. The plan above took 34 % more CPU
 * time on kings-only FreeCell MS 1-1000: the purpose order moves into empty columns only on its
 * way to a purpose, and there few cards can. `dfs-static` and `lean-flippers-3` go on in turns of
 * 100 up to 6,000 positions: the few deals that need that many of one of them (#733, #1509, #2476,
 * #4467) otherwise went to the complete search, which left three of them undecided at 2,000,000
 * positions; on MS 1-6000 the plan now stores 7.0 million positions where it stored 13.2 million
 * (research/solver-log.md). Its racers share what they have seen, but for the three that go on longest:
 * sharing those too left #2476 undecided.
 */
const FREECELL_KINGS: SolvePlan = sharing([
  { ...eagerDfs(6000, [100, 100, 100]), share: false },
  { ...purposeDfs(600, [250, 150]), eager: true },
  horneDfs("lean-flippers", 1500, FLIPPERS, [100, 1]),
  leanDfs("lean-more-flippers", 200, MORE_FLIPPERS, [600, 300]),
  { ...horneDfs("lean-flippers-3", 6000, FLIPPERS, [150, 75, 100], 3), share: false },
  horneDfs("lean-flippers-only", 500, FLIPPERS_ONLY, [150]),
  horneDfs("lean-empty-columns", 3000, EMPTY_COLUMNS, [100, 75]),
  horneDfs("lean-flippers-2", 500, FLIPPERS, [600, 1], 2),
  PATIENT,
  COMPLETE_RACER,
]);
/** FreeCell's racers before the plan above, the patient one storing at most `patience` positions. */
const earlier = (patience: number): PlanStep[] => [
  eagerDfs(1500, [100, 150, 1]),
  leanDfs("lean-flippers", 1500, FLIPPERS, [200, 300, 1]),
  patient(patience, [3000, 1, 50, 300]),
  leanDfs("lean-empty-columns", 500, EMPTY_COLUMNS, [200]),
  leanDfs("lean-more-flippers", 500, MORE_FLIPPERS, [1, 100, 1]),
  leanDfs("lean-flippers-only", 2000, FLIPPERS_ONLY, [400, 1]),
];
/**
 * FreeCell with fewer than 4 cells, or with single-card moves: FreeCell's earlier racers, the
 * patient one storing up to 200,000 positions, since with fewer cells the hard wins need longer
 * searches and the complete search wanders (research/solver-log.md). With 3 cells the plan above
 * stored fewer positions on MS 1-2000 but took as long, and #1368 about a second; with
 * single-card moves it took a quarter longer.
 */
const FEWER_CELLS: SolvePlan = [...earlier(200_000), COMPLETE_RACER];

/**
 * Suit building without a plan of its own (Seahaven Towers among them): FreeCell's earlier racers
 * (`earlier`, each at most 5,000 positions: under suit building many deals are lost, and a racer's
 * budget is then spent for nothing), then the complete search in the engine's order, since
 * proving deals lost is much of the work. It was also the plan of Baker's Game, Eight Off and
 * Penguin before they got their own (below; research/solver-log.md). A Seahaven Towers plan found the
 * same way stored 16 % fewer positions on MS 1-500 but took as much CPU time, and FreeCell's
 * present racers took 6 % more on MS 1-1000. Its racers use Horne's prune: a quarter less CPU time on
 * Seahaven Towers MS 1-500, since they win more of the deals the complete search took. They
 * share what they have seen: 11 % fewer positions on Seahaven Towers MS 1-1000.
 */
const SUIT: SolvePlan = sharing([
  ...earlier(5000).map((p) => ({ ...p, horne: true })),
  { ...COMPLETE_PLAIN, horne: true },
]);

/**
 * Penguin and its variants, and Eight Off: the purpose-order racer alone (one turn of at most
 * 5,000 positions), then the complete search. It replaced a racer in move-class order with
 * manoeuvres (`static-manoeuvre`, which had replaced plans of four and five racers): 9-27 % less
 * CPU time on Penguin MS 1-3000 and 14-27 % on Eight Off MS 1-2000, level with 3-5 flippers
 * (research/solver-log.md); the same verdicts. Eager, since it need not be complete: under Penguin's wrap the
 * beak then goes home at once too (3 % fewer positions on Penguin MS 1-8000).
 */
const PURPOSE_THEN_COMPLETE: SolvePlan = [
  { ...purposeDfs(5000), eager: true },
  { ...COMPLETE_PLAIN, slice: [1], horne: true },
];
/**
 * Penguin with the base cards sent home as they are uncovered, which has no manoeuvres (so no
 * purpose-order racer): depth-first search in move-class order, then the complete search, in
 * short turns.
 */
const BEAK_HOME: SolvePlan = [staticDfs(500), { ...COMPLETE_PLAIN, slice: [1, 1000, 200, 1500] }];

/**
 * Baker's Game (and kings-only Baker's Game): a short purpose-order search, then the complete
 * search alone, in move-class order: as cheap as the engine's order on the proofs, and it finds
 * most of the remaining wins within a few thousand positions. (The purpose-order racer replaced
 * a scored lean one: 7-13 % less CPU time on MS 1-500 and 1001-1500, level on kings-only.)
 */
const BAKERS: SolvePlan = [
  // Its one turn is its whole budget; the complete search then runs alone.
  purposeDfs(300),
  { ...COMPLETE, name: "dfs-complete-static", order: "static", horne: true },
];

/**
 * Default plans (docs/solver.md; how they were chosen: research/solver-log.md). Each ends with the complete search.
 */
export const PLANS = {
  /** FreeCell-like (alternate colours): nearly every deal is won, finding the win is the work. */
  alternate: FREECELL,
  /** FreeCell-like where only kings, or no cards, fill an empty column (above). */
  kingsOnly: FREECELL_KINGS,
  /** FreeCell-like with fewer than 4 cells or single-card moves (above). */
  fewerCells: FEWER_CELLS,
  /** Seahaven Towers and the other suit-building rule sets without a plan of their own. */
  suit: SUIT,
  /** Baker's Game and kings-only Baker's Game (FreeCell's layout, suit building). */
  bakers: BAKERS,
  /** Eight Off (its deal layout). */
  eightOff: PURPOSE_THEN_COMPLETE,
  /** Penguin and its variants. */
  penguin: PURPOSE_THEN_COMPLETE,
  /** Penguin with its beak sent home (`penguin-beak-home`). */
  beakHome: BEAK_HOME,
  /**
   * Greedy best-first first, for lines to learn from rather than speed: behaviour cloning's
   * teacher under suit building (the lean racers' lines wander and are harder to imitate).
   */
  teacher: [BEST, DFS_1, COMPLETE_PLAIN],
} as const satisfies Record<string, SolvePlan>;

/** The tuned default plan for a rule set. */
export function defaultPlan(rules: Rules): SolvePlan {
  if (rules.build === "alternate-color")
    return rules.cells < 4 || rules.groupMove === "single"
      ? PLANS.fewerCells
      : rules.emptyColumn !== "any"
        ? PLANS.kingsOnly
        : rules.groupMove === "unlimited"
          ? FREECELL_UNLIMITED
          : PLANS.alternate;
  if (rules.base === "beak")
    return rules.deal === "penguin-beak-home" ? PLANS.beakHome : PLANS.penguin;
  if (rules.deal === "eight-off") return PLANS.eightOff;
  return rules.deal === "freecell" ? PLANS.bakers : PLANS.suit;
}

/** The integer fields of a plan entry, with their least value. */
const INTEGERS = [
  ["budget", 1, "a positive"],
  ["jitter", 0, "a non-negative"],
  ["seed", -Infinity, "an"],
  ["emptyFrom", 0, "a non-negative"],
] as const;

/** Throws a RangeError naming what is wrong with a plan. */
export function checkPlan(plan: SolvePlan): void {
  if (plan.length === 0) throw new RangeError("plan: give at least one entry");
  const int = Number.isInteger;
  for (const p of plan) {
    const bad = (what: string): never => {
      throw new RangeError(`plan ${p.name}: ${what}`);
    };
    if (p.strategy !== "depth-first" && p.strategy !== "best-first")
      bad(`strategy must be depth-first or best-first, got ${String(p.strategy)}`);
    if (p.strategy === "depth-first" && p.order !== undefined && !DFS_ORDERS.includes(p.order))
      bad(`order must be one of ${DFS_ORDERS.join(", ")}, got ${String(p.order)}`);
    if (p.weights.length !== 5 || p.weights.some((w) => !Number.isFinite(w)))
      bad("give 5 finite weights");
    for (const [k, least, kind] of INTEGERS) {
      const v = p[k];
      if (v !== undefined && !(int(v) && v >= least)) bad(`${k} must be ${kind} integer`);
    }
    const slices = typeof p.slice === "number" ? [p.slice] : (p.slice ?? []);
    if ((Array.isArray(p.slice) && slices.length === 0) || slices.some((n) => !(int(n) && n >= 1)))
      bad("slice must be a positive integer or a list of them");
    if (
      (p.lean ||
        p.eager ||
        p.share ||
        p.order === "purpose" ||
        (p.horne && p.strategy === "best-first")) &&
      p.complete
    )
      bad("a lean, eager, sharing, purpose-order or best-first horne search cannot be complete");
  }
}
