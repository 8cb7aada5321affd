/**
 * The solver's five benchmark deal sets (the rows of its speed targets): each a preset played on its
 * Microsoft deals 1…N, N = 500 for Eight Off and Seahaven Towers and 1000 for the others. The
 * bench and the timing scripts share them.
 */
export const SOLVER_SETS = [
  "freecell",
  "bakers-game",
  "eight-off",
  "seahaven-towers",
  "penguin",
] as const;
export type SolverSet = (typeof SOLVER_SETS)[number];

/** Deals in a set's full run. */
export const fullDeals = (set: string): number =>
  set === "eight-off" || set === "seahaven-towers" ? 500 : 1000;
