/**
 * The `guided` agent's network order (order=safety): the move-safety network scores all moves
 * of a position in one call (SafetyView, the `safety` agent's own encoder and weights).
 * - At the root: the moves the network judges safe (risk ≤ the checkpoint's threshold, or
 *   within its margin of the least risky move) come first, by greedy(tuned)'s score, as the
 *   `safety` agent plays; then the others, least risky first.
 * - Inside the search: a path's priority is the log-probability that all its moves are safe,
 *   Σ ln(1 − risk), so the search expands the line the network trusts most.
 * - order=safety-root: the network ranks the root moves only; greedy's score orders the search
 *   (so the two orders' effects can be told apart).
 * Loaded only for these orders, so the greedy order needs no network.
 */
import { MoveScorer, weightsOf } from "../agents/heuristic.js";
import { PositionSet } from "../agents/repeat-guard.js";
import { MAX_MOVES } from "../engine/moves.js";
import type { Rules } from "../engine/rules.js";
import type { State } from "../engine/state.js";
import { UsageError } from "../errors.js";
import { ActionCodec } from "../env/actions.js";
import { DEFAULT_PLAY, SafetyView, type PlayPolicy } from "./safety/agent.js";
import { loadSafety } from "./safety/model.js";
import { safetyModel } from "./safety/shipped.js";
import { GreedyOrdering, sortedFresh, type GuidedOrdering } from "../solver/guided.js";

/** ln(1 − risk) in thousandths; risk is kept below 1 so the log stays finite. */
const LOG_SCALE = 1000;
const MAX_RISK = 1 - 1e-6;

class SafetyOrdering implements GuidedOrdering {
  calls = 0;
  readonly #sv: SafetyView;
  readonly #none = new PositionSet();
  readonly #risk = new Float64Array(MAX_MOVES);
  readonly #key = new Float64Array(MAX_MOVES);
  readonly #greedy = new MoveScorer(weightsOf({ preset: "tuned", without: [], weight: {} }));

  constructor(
    sv: SafetyView,
    readonly label: string,
    private readonly play: Pick<PlayPolicy, "threshold" | "margin">,
  ) {
    this.#sv = sv;
  }

  /** risk[i] for moves[i]: one network call over every legal move of s. */
  #look(s: State, moves: Int32Array, n: number): void {
    this.calls++;
    this.#sv.look(s, this.#none);
    const { mask, actionMoves } = this.#sv.view;
    for (let i = 0; i < n; i++) this.#risk[i] = 0.5;
    for (let a = 0; a < mask.length; a++) {
      if (mask[a] !== 1) continue;
      const m = actionMoves[a]!;
      for (let i = 0; i < n; i++)
        if (moves[i] === m) this.#risk[i] = Math.min(this.#sv.risk[a]!, MAX_RISK);
    }
  }

  rank(s: State, moves: Int32Array, n: number, out: Float64Array): void {
    this.#look(s, moves, n);
    for (let i = 0; i < n; i++) out[i] = LOG_SCALE * Math.log1p(-this.#risk[i]!);
  }

  rankRoot(s: State, moves: Int32Array, n: number, fresh: Uint8Array, order: Int32Array): number {
    this.#look(s, moves, n);
    let least = Infinity;
    for (let i = 0; i < n; i++) if (fresh[i] === 1) least = Math.min(least, this.#risk[i]!);
    const cut = Math.max(this.play.threshold, least + this.play.margin);
    this.#greedy.scoreMoves(s, moves, n, this.#key);
    // Safe moves by greedy's score above every other move, the others by risk.
    for (let i = 0; i < n; i++)
      this.#key[i] = this.#risk[i]! <= cut ? 1e9 + this.#key[i]! : -this.#risk[i]!;
    return sortedFresh(n, fresh, this.#key, order);
  }
}

/** The network at the root, greedy inside the search. */
class RootSafetyOrdering implements GuidedOrdering {
  readonly #greedy = new GreedyOrdering();
  constructor(
    private readonly net: SafetyOrdering,
    readonly label: string,
  ) {}
  get calls(): number {
    return this.net.calls;
  }
  rank(s: State, moves: Int32Array, n: number, out: Float64Array): void {
    this.#greedy.rank(s, moves, n, out);
  }
  rankRoot(s: State, moves: Int32Array, n: number, fresh: Uint8Array, order: Int32Array): number {
    return this.net.rankRoot(s, moves, n, fresh, order);
  }
}

export function createSafetyOrdering(
  model: unknown,
  rules: Rules,
  rootOnly = false,
): GuidedOrdering {
  const label = model === undefined ? "shipped" : String(model);
  model = safetyModel(model);
  if (typeof model !== "string" || model === "")
    throw new UsageError(
      "order=safety needs --agent-opt model=DIR (a run folder of penguin train --algo safety)",
    );
  const { weights, meta } = loadSafety(model);
  const saved = (meta.play ?? {}) as Partial<PlayPolicy>;
  const play = {
    threshold: saved.threshold ?? DEFAULT_PLAY.threshold,
    margin: saved.margin ?? DEFAULT_PLAY.margin,
  };
  const net = new SafetyOrdering(
    new SafetyView(new ActionCodec(rules), weights),
    `safety,model=${label}`,
    play,
  );
  return rootOnly ? new RootSafetyOrdering(net, `safety-root,model=${label}`) : net;
}
