/** Shared test helpers: a small seeded PRNG and the play policies the env tests drive. */
import { FOUNDATION, moveTo, moveFrom, CELL0 } from "../../src/engine/moves.js";
import type { PenguinEnv } from "../../src/env/env.js";

export { prng } from "../engine/helpers.js";

/**
 * A legal action chosen at random, preferring (with probability `bias`) foundation moves and
 * then column/flipper-to-column moves, so episodes go deep enough to empty columns and fill
 * foundations instead of stalling with full flippers.
 */
export function pickAction(env: PenguinEnv, rnd: () => number, bias = 0.8): number {
  const mask = env.actionMask;
  const legal: number[] = [];
  const home: number[] = [];
  const build: number[] = [];
  for (let a = 0; a < mask.length; a++) {
    if (!mask[a]) continue;
    legal.push(a);
    const m = env.actionMoves[a]!;
    if (moveTo(m) === FOUNDATION) home.push(a);
    else if (moveTo(m) < CELL0 && !(moveFrom(m) < CELL0 && env.state.len[moveTo(m)] === 0))
      build.push(a);
  }
  const from = (xs: number[]): number => xs[Math.floor(rnd() * xs.length)]!;
  if (home.length && rnd() < bias) return from(home);
  if (build.length && rnd() < bias) return from(build);
  return from(legal);
}

import { parseCard } from "../../src/engine/card.js";
import type { Rules } from "../../src/engine/rules.js";
import { State } from "../../src/engine/state.js";

/** A hand-built position: columns as "5C 4C 3C" (deepest first), flipper cards, foundation counts. */
export function position(
  rules: Rules,
  base: number,
  columns: string[],
  cells: string[] = [],
  found: number[] = [0, 0, 0, 0],
): State {
  const s = new State(rules, base);
  columns.forEach((col, c) =>
    col
      .split(/\s+/)
      .filter(Boolean)
      .forEach((t) => s.push(c, parseCard(t))),
  );
  cells.forEach((t, i) => s.setCell(i, parseCard(t)));
  found.forEach((n, i) => (s.found[i] = n));
  s.rehash();
  return s;
}
