/**
 * The one game loop of the harness: every player, from `penguin eval` to a training run's own
 * validation games, plays through it. The agent sees the position, the legal-action mask (and the
 * observation only when it asks for one), returns an action id, and the move is applied. A game
 * is lost when no legal move is left or the step limit is reached.
 *
 * `play` runs one game; `playMany` runs many side by side, one actBatch call per step for every
 * game still running, so that a network agent makes one forward pass for all of them. An agent
 * that declares `concurrentGames` tells the games apart by `AgentInput.game`; any other agent
 * plays them one after another. Either way each game's moves are those `play` gives.
 */
import { applyMove, MAX_MOVES } from "../engine/moves.js";
import type { Rules } from "../engine/rules.js";
import { State } from "../engine/state.js";
import { ActionCodec } from "../env/actions.js";
import { defaultMaxSteps } from "../env/registry.js";
import { ObservationEncoder } from "../env/observation.js";
import type { Agent, AgentInput } from "../agents/agent.js";
import type { GameOutcome } from "./stats.js";
import { IllegalMoveError } from "../errors.js";

/** A game of playMany, with the action ids it played when asked for them. */
export interface PlayedGame extends GameOutcome {
  readonly actions?: number[];
}

export interface PlayManyOptions {
  readonly maxSteps?: number;
  /** Games played side by side by an agent with `concurrentGames` (default 250). */
  readonly batch?: number;
  /** Keep each game's action ids. */
  readonly record?: boolean;
}

/** One running game: its position and the agent's view of it (reused game after game). */
class Game {
  readonly mask: Uint8Array;
  readonly actionMoves: Int32Array;
  readonly observation: Float32Array;
  readonly input: { state: State; legal: number } & Omit<AgentInput, "state" | "legal">;
  moves = 0;
  index = -1;
  actions: number[] | undefined;

  constructor(
    readonly runner: EpisodeRunner,
    game: number,
  ) {
    const codec = runner.codec;
    this.mask = new Uint8Array(codec.n);
    this.actionMoves = new Int32Array(codec.n);
    this.observation = new Float32Array(runner.encoder ? runner.encoder.size : 0);
    this.input = {
      state: runner.blank,
      mask: this.mask,
      observation: this.observation,
      codec,
      actionMoves: this.actionMoves,
      order: new Int32Array(MAX_MOVES),
      legal: 0,
      game,
    };
  }

  /** A fresh game from `start` (left unchanged); `seed` goes to the agent's reset. */
  begin(start: State, seed: number, index: number, record: boolean): void {
    this.input.state = start.clone();
    this.moves = 0;
    this.index = index;
    this.actions = record ? [] : undefined;
    this.runner.agent.reset(this.input.state.clone(), seed, this.input.game);
  }

  /** Fills mask (and observation); false when the game is over. */
  ready(maxSteps: number): boolean {
    const s = this.input.state;
    if (s.isWon() || this.moves >= maxSteps) return false;
    if (
      (this.input.legal = this.runner.codec.fillMask(
        s,
        this.mask,
        this.actionMoves,
        this.input.order,
      )) === 0
    )
      return false;
    this.runner.encoder?.encode(s, this.observation);
    return true;
  }

  apply(a: number): void {
    if (!(a >= 0 && a < this.mask.length && this.mask[a] === 1))
      throw new IllegalMoveError(
        `agent ${this.runner.agent.name} chose illegal action ${a} after ${this.moves} moves`,
        `action ${a} is not legal in this position`,
      );
    applyMove(this.input.state, this.actionMoves[a]!);
    this.actions?.push(a);
    this.moves++;
  }

  outcome(): PlayedGame {
    const s = this.input.state;
    return {
      won: s.isWon(),
      cardsHome: s.cardsHome(),
      moves: this.moves,
      ...(this.actions ? { actions: this.actions } : {}),
    };
  }
}

/** Reusable buffers for many episodes of one agent under one rule set. */
export class EpisodeRunner {
  readonly codec: ActionCodec;
  readonly encoder: ObservationEncoder | undefined;
  readonly #games: Game[] = [];
  #out = new Int32Array(1);
  /** Stands in for a game's position until it first begins. */
  readonly blank: State;

  constructor(
    readonly rules: Rules,
    readonly agent: Agent,
  ) {
    this.codec = new ActionCodec(rules);
    this.encoder = agent.needsObservation ? new ObservationEncoder(rules) : undefined;
    this.blank = new State(rules, 0);
  }

  #game(i: number): Game {
    while (this.#games.length <= i) this.#games.push(new Game(this, this.#games.length));
    return this.#games[i]!;
  }

  /** Plays `start` (left unchanged) to the end; `seed` goes to the agent's reset. */
  play(start: State, seed: number, maxSteps = defaultMaxSteps(this.rules)): GameOutcome {
    const t = this.#game(0);
    t.begin(start, seed, 0, false);
    while (t.ready(maxSteps)) t.apply(this.agent.act(t.input));
    return t.outcome();
  }

  /** Plays every deal (starts[i] with seeds[i]); results in deal order. */
  async playMany(
    starts: readonly State[],
    seeds: readonly number[],
    options: PlayManyOptions = {},
  ): Promise<PlayedGame[]> {
    const maxSteps = options.maxSteps ?? defaultMaxSteps(this.rules);
    const record = options.record ?? false;
    const results: PlayedGame[] = new Array(starts.length);
    const B =
      this.agent.concurrentGames && this.agent.actBatch
        ? Math.max(1, Math.min(options.batch ?? 250, starts.length))
        : 1;
    const live: Game[] = [];
    const free = Array.from({ length: B }, (_, i) => this.#game(B - 1 - i));
    let next = 0;
    const inputs: AgentInput[] = [];
    while (next < starts.length || live.length > 0) {
      while (free.length > 0 && next < starts.length) {
        const t = free.pop()!;
        t.begin(starts[next]!, seeds[next]!, next, record);
        next++;
        live.push(t);
      }
      inputs.length = 0;
      for (let i = 0; i < live.length; ) {
        const t = live[i]!;
        if (t.ready(maxSteps)) {
          inputs.push(t.input);
          i++;
          continue;
        }
        results[t.index] = t.outcome();
        free.push(t);
        live.splice(i, 1);
      }
      if (inputs.length === 0) continue;
      if (B === 1) live[0]!.apply(this.agent.act(inputs[0]!));
      else {
        if (this.#out.length < B) this.#out = new Int32Array(B);
        const r = this.agent.actBatch!(inputs, this.#out);
        if (r) await r;
        for (let i = 0; i < live.length; i++) live[i]!.apply(this.#out[i]!);
      }
    }
    return results;
  }
}

/** One deal, one agent: the convenience form of EpisodeRunner. */
export function playDeal(
  agent: Agent,
  rules: Rules,
  start: State,
  seed: number,
  maxSteps = defaultMaxSteps(rules),
): GameOutcome {
  return new EpisodeRunner(rules, agent).play(start, seed, maxSteps);
}
