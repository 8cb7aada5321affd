/**
 * Gym-style environment for Penguin and its FreeCell-family relatives.
 *
 * ## Description
 * One deal of a solitaire from the rule family of docs/rules.md (Penguin by default):
 * move every card to the four foundations. Ids: Penguin-v3, PenguinRelaxed-v3, Opus-v3,
 * PenguinBeakHome-v3, BakersGame-v3, KingsOnlyBakersGame-v3, FreeCell-v3, EightOff-v3,
 * SeahavenTowers-v3, Stalactites-v3, and their previous version -v2 (see registry.ts);
 * `makeEnv(id, options)` builds one.
 *
 * ## Action Space
 * Discrete(n), fixed for a rule shape (ActionCodec in actions.ts): id = src × D + dst with src a
 * column or flipper SLOT and dst a column, "a free flipper" or a foundation (D = C + 2; C + 5
 * under rank foundations, where each of the 4 foundations is its own destination); with
 * `emptyColumn: "any"` a split block names smaller groups into an empty column. A move onto a
 * column carries the one group whose head builds on its last card; into an empty column, the
 * largest group the rules allow. A move that uncovers a base card in PenguinBeakHome also sends
 * it home: one id, one step. n: Penguin 126, Opus 108, PenguinRelaxed 714, Baker's Game and
 * FreeCell 888, Kings-only Baker's Game 120, Eight Off 160, Seahaven Towers 168, Stalactites 130.
 * `info.actionMask` (Uint8Array(n), 1 = legal) is exactly the legal set.
 *
 * ## Observation Space
 * Box(0, 5, [52 × (C + 4) + 7C + 48 + 24], float32), written by ObservationEncoder
 * (observation.ts): each card's place (column one-hot, flipper, foundation, depth, cards on it)
 * indexed by suit and rank relative to the base; each column's end (length, run, end card);
 * each flipper slot's card; per-foundation counts and the rank each needs next; rule features.
 * 693 floats for the 7-column games, 752 for the 8-column ones, 870 for Seahaven Towers.
 * Design choice: action ids name flippers by slot and foundations by number, so the
 * observation names the card in every slot (flipper blocks), the card at every column's end
 * (column blocks) and what every foundation takes next: whatever two positions an action id
 * tells apart, the observation tells apart too, and a policy can learn what `a4` does from the
 * observation alone.
 *
 * ## Starting State
 * `reset({ seed })` deals with `seedrandom` (or Microsoft deal #seed with `shuffle: "microsoft"`)
 * and lays the deck out per the rules' deal. Without a seed, the next episode uses the previous
 * seed + `seedStride` (1 for a lone env, n inside VecEnv(n)); the very first default seed is 1.
 *
 * ## Rewards
 * `reward: "cards"` (default): 1/52 for each card that reaches a foundation on the step (cards
 * already home in the deal earn nothing; a base card carried home by a PenguinBeakHome move
 * counts). `reward: "win"`: 1 on the winning step, else 0.
 *
 * ## Episode End
 * Terminated: all 52 cards home (won), or no legal action left. Truncated: `maxSteps` steps
 * (default: the maxSteps the id registers, 1000 for the v3 ids, 500 for v2), or, with `truncateOnRepeat:
 * true`, a position (flipper order ignored) seen before in the episode; a terminating step is never also truncated. Stepping a finished
 * episode throws; call reset().
 *
 * ## Arguments
 * `makeEnv(id, { cells, emptyColumn, groupMove, build, base, foundations, deal, reward,
 * maxSteps, truncateOnRepeat, shuffle })`; unknown ids and bad options throw UsageError naming
 * what is allowed.
 *
 * ## Information
 * `info` (reused, see below): `actionMask`, `legalActions` (count), `cardsHome`, `steps`, `won`,
 * `repeated` (with truncateOnRepeat), `seed` (of this deal) and `episodeReturn`. `actionMoves`
 * holds the engine move of each legal id, for tools that need the engine's view; a policy needs
 * only the observation and the mask.
 *
 * ## References
 * D. Parlett, The Penguin Book of Patience (1979), for Penguin ("Beak and Flipper"); PySolFC's
 * game classes for the other rule sets (Penguin, Baker's Game, FreeCell, Eight Off, Seahaven
 * Towers, Stalactites); Microsoft FreeCell's deal numbering; the Gymnasium Env API
 * (https://gymnasium.farama.org/api/env/) for reset/step and these headings; OpenSpiel's
 * solitaire for the other way to name actions (by card).
 *
 * ## Version History
 * v3: the default move limit (maxSteps) is 1000, from 500; nothing else changes. The v2 ids
 *     stay registered with 500.
 * v2: supermove is (free flippers + 1) × 2^(empty columns) under every empty-column rule, and
 *     the new `free-cells` group rule is Eight Off's and Seahaven Towers'; PenguinBeakHome sends
 *     base cards home as they emerge during play, within the move that uncovers them; new id
 *     Stalactites-v2 (rank foundations, no building); rank foundations are separate action
 *     destinations; the observation gains the flipper slots' cards, what each foundation needs
 *     next and the new rule features (693 / 752 / 870 floats).
 * v1: first release (observation 637 / 696 / 814 floats, flipper cards without their slot).
 *
 * Buffers are reused: `observation`, `info` and `info.actionMask` are overwritten by the next
 * step or reset (copy with `.slice()` to keep one); so is the object step() returns.
 */
import { NO_CARD, cardToString, parseCard, type Card } from "../engine/card.js";
import { buildPosition } from "../engine/board.js";
import { deal, dealMs, MS_MAX } from "../engine/deal.js";
import { applyMove, MAX_MOVES } from "../engine/moves.js";
import { parseMove } from "../engine/notation.js";
import {
  describeValue,
  IllegalMoveError,
  InvalidArgumentError,
  InvalidStateError,
  UsageError,
} from "../errors.js";
import { RULE_OPTION_KEYS, type Rules } from "../engine/rules.js";
import { State } from "../engine/state.js";
import { ActionCodec } from "./actions.js";
import { ObservationEncoder } from "./observation.js";
import { PositionSet } from "../engine/position-set.js";
import { renderState } from "./render.js";
import { resolveEnvOptions, type EnvOptions, type EnvSettings, type EnvSpec } from "./registry.js";

/** A bad action: out of range, illegal in this position, or a step after the episode ended. */
export class InvalidActionError extends UsageError {
  override name = "InvalidActionError";
}

export interface EnvInfo {
  /** 1 = legal, length actionSpace.n. */
  readonly actionMask: Uint8Array;
  /** Legal actions now (sum of the mask). */
  legalActions: number;
  /** Cards on the foundations (0..52). */
  cardsHome: number;
  /** Steps taken in this episode. */
  steps: number;
  won: boolean;
  /** True when this position was seen before in the episode (tracked only with truncateOnRepeat). */
  repeated: boolean;
  /** Seed (or Microsoft deal number) of this episode's deal. */
  seed: number;
  /** Sum of rewards so far in this episode. */
  episodeReturn: number;
}

export interface ResetResult {
  observation: Float32Array;
  info: EnvInfo;
}

export interface StepResult {
  observation: Float32Array;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: EnvInfo;
}

export interface ResetOptions {
  /** Deal seed: a non-negative safe integer (1..2^31−1 with shuffle "microsoft"). */
  seed?: number;
  /** Start from a copy of this position instead of a deal (same rule set); `seed` only labels it. */
  state?: State;
}

/** Externally owned buffers (VecEnv's rows) that the env writes into. */
export interface EnvBuffers {
  observation: Float32Array;
  actionMask: Uint8Array;
}

export const DEFAULT_SEED = 1;

export class PenguinEnv {
  readonly codec: ActionCodec;
  readonly encoder: ObservationEncoder;
  readonly actionSpace: { readonly type: "discrete"; readonly n: number };
  readonly observationSpace: {
    readonly type: "box";
    readonly shape: readonly [number];
    readonly low: number;
    readonly high: number;
    readonly dtype: "float32";
  };
  /**
   * Bounds of one step's reward: with reward "cards", [0, 1/52] (one card home), or [0, 4/52]
   * under penguin-beak-home, where a move also sends up to three uncovered base cards home;
   * [0, 1] with "win".
   */
  readonly rewardRange: readonly [number, number];
  readonly observation: Float32Array;
  readonly info: EnvInfo;
  /** Engine move of each legal action id (valid where the mask is 1); read-only for agents. */
  readonly actionMoves: Int32Array;
  /** Seed step between an episode and the next default one (VecEnv(n) sets n). */
  seedStride = 1;
  #s: State | undefined;
  #nextSeed = DEFAULT_SEED;
  #over = false;
  readonly #seen: PositionSet | undefined;
  readonly #result: StepResult;

  constructor(
    readonly spec: EnvSpec,
    readonly rules: Rules,
    readonly settings: EnvSettings,
    buffers?: EnvBuffers,
  ) {
    this.codec = new ActionCodec(rules);
    this.encoder = new ObservationEncoder(rules);
    this.actionSpace = { type: "discrete", n: this.codec.n };
    this.observationSpace = {
      type: "box",
      shape: this.encoder.shape,
      low: 0,
      high: 5,
      dtype: "float32",
    };
    this.rewardRange =
      settings.reward === "cards" ? [0, (rules.deal === "penguin-beak-home" ? 4 : 1) / 52] : [0, 1];
    this.observation = buffers?.observation ?? new Float32Array(this.encoder.size);
    const mask = buffers?.actionMask ?? new Uint8Array(this.codec.n);
    if (this.observation.length !== this.encoder.size || mask.length !== this.codec.n)
      throw new RangeError(
        `env buffers must hold ${this.encoder.size} floats and ${this.codec.n} mask bytes`,
      );
    this.actionMoves = new Int32Array(Math.max(this.codec.n, MAX_MOVES));
    this.info = {
      actionMask: mask,
      legalActions: 0,
      cardsHome: 0,
      steps: 0,
      won: false,
      repeated: false,
      seed: 0,
      episodeReturn: 0,
    };
    this.#result = {
      observation: this.observation,
      reward: 0,
      terminated: false,
      truncated: false,
      info: this.info,
    };
    this.#seen = settings.truncateOnRepeat
      ? new PositionSet(Math.min(settings.maxSteps + 1, 4096))
      : undefined;
  }

  get id(): string {
    return this.spec.id;
  }

  /** The current position (the engine's State). Read it, never change it; it is replaced at reset. */
  get state(): State {
    if (!this.#s) throw new UsageError("the env has no position yet: call reset() first");
    return this.#s;
  }

  get actionMask(): Uint8Array {
    return this.info.actionMask;
  }

  /** True once the episode has terminated or been truncated. */
  get done(): boolean {
    return this.#over;
  }

  reset(options: ResetOptions = {}): ResetResult {
    if (typeof options !== "object" || options === null || Array.isArray(options))
      throw new InvalidArgumentError(
        `reset takes an options object such as { seed: 7 }, got ${describeValue(options)}`,
      );
    for (const k of Object.keys(options))
      if (k !== "seed" && k !== "state")
        throw new InvalidArgumentError(
          `unknown reset option ${JSON.stringify(k)}; allowed: seed, state`,
        );
    if (options.seed === null)
      throw new InvalidArgumentError(
        "seed must be an integer, got null (leave it out for the next seed)",
      );
    if (options.state !== undefined && !(options.state instanceof State))
      throw new InvalidArgumentError(
        `reset's state must be a State (env.state, parseBoard, deal), got ${describeValue(options.state)}`,
      );
    const seed = options.seed ?? this.#nextSeed;
    const ms = this.settings.shuffle === "microsoft";
    if (
      typeof seed !== "number" ||
      !Number.isSafeInteger(seed) ||
      seed < (ms ? 1 : 0) ||
      (ms && seed > MS_MAX)
    )
      throw new InvalidArgumentError(
        `seed must be an integer from ${ms ? `1 to ${MS_MAX} (Microsoft deal number)` : "0 to 2^53−1"}, got ${describeValue(seed)}`,
      );
    if (options.state) {
      const r = options.state.rules;
      const mine = this.rules;
      if (
        RULE_OPTION_KEYS.some((k) => k !== "deal" && r[k] !== mine[k]) ||
        r.columns !== mine.columns ||
        (r.deal === "penguin-beak-home") !== (mine.deal === "penguin-beak-home")
      )
        throw new UsageError(
          `reset state has rules ${JSON.stringify(r)}, the env plays ${JSON.stringify(mine)}`,
        );
      this.#s = options.state.clone();
    } else {
      this.#s = ms ? dealMs(this.rules, seed) : deal(this.rules, seed);
    }
    this.info.seed = seed;
    this.#nextSeed = seed + this.seedStride;
    this.info.steps = 0;
    this.info.episodeReturn = 0;
    this.#seen?.clear();
    this.#over = false;
    this.#observe(0);
    return { observation: this.observation, info: this.info };
  }

  /** Plays action `a`. Throws InvalidActionError (naming the action and why) if it is not legal now. */
  step(a: number): StepResult {
    const s = this.#s;
    if (!s)
      throw new InvalidActionError(`action ${a}: the env has no position yet; call reset() first`);
    if (this.#over)
      throw new InvalidActionError(
        `action ${a}: the episode is over (${this.info.won ? "won" : "terminated or truncated"}); call reset()`,
      );
    const n = this.codec.n;
    if (typeof a !== "number")
      throw new InvalidActionError(
        `action must be a number (an integer 0..${n - 1}), got ${describeValue(a)}`,
      );
    if (!Number.isInteger(a) || a < 0 || a >= n)
      throw new InvalidActionError(`action ${a} out of range: allowed integers 0..${n - 1}`);
    if (this.info.actionMask[a] !== 1)
      throw new InvalidActionError(
        `action ${a} ("${this.codec.actionToString(a)}") is illegal here: ${this.#whyIllegal(a)}`,
      );
    const before = this.info.cardsHome;
    applyMove(s, this.actionMoves[a]!);
    this.info.steps++;
    this.#observe(before);
    return this.#result;
  }

  /** Refreshes mask, observation, info and result after a reset or a step (before = cards home before it). */
  #observe(before: number, track = true): void {
    const s = this.#s!;
    const info = this.info;
    const home = s.cardsHome();
    info.cardsHome = home;
    info.won = home === 52;
    if (track) info.repeated = this.#seen ? !this.#seen.add(s.hashLo, s.hashHi) : false;
    info.legalActions = this.codec.fillMask(s, info.actionMask, this.actionMoves);
    this.encoder.encode(s, this.observation, 0);
    const r = this.#result;
    r.reward =
      info.steps === 0
        ? 0
        : this.settings.reward === "cards"
          ? (home - before) / 52
          : info.won
            ? 1
            : 0;
    info.episodeReturn += r.reward;
    r.terminated = info.won || info.legalActions === 0;
    r.truncated =
      !r.terminated &&
      info.steps > 0 &&
      (info.steps >= this.settings.maxSteps || (info.repeated && this.settings.truncateOnRepeat));
    this.#over = r.terminated || r.truncated;
  }

  #whyIllegal(a: number): string {
    const text = this.codec.actionToString(a);
    try {
      const m = parseMove(text, this.state);
      // Only a split id naming the largest group gets here: the plain id carries that group.
      return `${text.split("/")[1]} cards is the largest group, which action ${this.codec.encode(this.state, m)} ("${text.split("/")[0]}") moves`;
    } catch (e) {
      if (e instanceof IllegalMoveError) return e.message.replace(/^illegal move "[^"]*": /, "");
      throw e;
    }
  }

  /** Legal action ids now (allocates; hot paths read info.actionMask). */
  legalActions(): number[] {
    const out: number[] = [];
    const mask = this.info.actionMask;
    for (let a = 0; a < mask.length; a++) if (mask[a]) out.push(a);
    return out;
  }

  render(): string {
    const head =
      `${this.spec.id} seed ${this.info.seed} step ${this.info.steps}/${this.settings.maxSteps}` +
      (this.#over ? (this.info.won ? " (won)" : " (over)") : "");
    return `${head}\n${renderState(this.state)}`;
  }

  /** An independent copy (own buffers) in the same position, episode counters included. */
  clone(): PenguinEnv {
    return deserializeEnv(this.serialize());
  }

  /** Text (JSON) that deserializeEnv turns back into an env in the same position and episode. */
  serialize(): string {
    const s = this.state;
    const r = this.rules;
    return JSON.stringify({
      format: "penguin-gym/env",
      version: 2,
      id: this.spec.id,
      options: {
        cells: r.cells,
        emptyColumn: r.emptyColumn,
        groupMove: r.groupMove,
        build: r.build,
        base: r.base,
        foundations: r.foundations,
        deal: r.deal,
        ...this.settings,
      },
      base: s.base,
      columns: Array.from({ length: s.nColumns }, (_, c) => s.column(c).map(cardToString)),
      cells: Array.from(s.cells.subarray(0, s.nCells), (c) =>
        c === NO_CARD ? null : cardToString(c),
      ),
      found: Array.from(s.found),
      piles: s.tables.rankHome
        ? [0, 1, 2, 3].map((f) =>
            Array.from(s.pile.subarray(f * 13, f * 13 + s.found[f]!), cardToString),
          )
        : [],
      seed: this.info.seed,
      nextSeed: this.#nextSeed,
      seedStride: this.seedStride,
      steps: this.info.steps,
      episodeReturn: this.info.episodeReturn,
      over: this.#over,
      reward: this.#result.reward,
      repeated: this.info.repeated,
      terminated: this.#result.terminated,
      truncated: this.#result.truncated,
      seen: this.#seen ? this.#seen.entries() : [],
    } satisfies SerializedEnv);
  }

  /**
   * Restores a serialized episode (JSON.parse of serialize()) into this env, keeping its buffers.
   * Every field is checked first (types, ranges, each of the 52 cards exactly once, the rules'
   * base): a state that cannot arise in play is refused with InvalidStateError, the env unchanged.
   */
  restore(d: SerializedEnv): void {
    const s = checkSerialized(d, this);
    this.#s = s;
    this.info.seed = d.seed;
    this.#nextSeed = d.nextSeed;
    this.seedStride = d.seedStride;
    this.info.steps = d.steps;
    this.#seen?.clear();
    for (const [lo, hi] of d.seen) this.#seen?.add(lo, hi);
    this.info.repeated = d.repeated;
    this.#observe(s.cardsHome(), false);
    this.info.episodeReturn = d.episodeReturn;
    this.#result.reward = d.reward;
    this.#result.terminated = d.terminated;
    this.#result.truncated = d.truncated;
    this.#over = d.over;
  }
}

/** The position of a serialized env after checking every field against `env`; else throws. */
function checkSerialized(d: SerializedEnv, env: PenguinEnv): State {
  const bad = (why: string): never => {
    throw new InvalidStateError(`serialized env: ${why}`);
  };
  if (typeof d !== "object" || d === null || Array.isArray(d)) bad("expected a JSON object");
  const rules = env.rules;
  if (d.id !== env.spec.id)
    bad(`a ${describeValue(d.id)} episode cannot be restored into ${env.spec.id}`);
  const isInt = (v: unknown, lo: number, hi = Number.MAX_SAFE_INTEGER): boolean =>
    typeof v === "number" && Number.isSafeInteger(v) && v >= lo && v <= hi;
  const cardList = (v: unknown, what: string): Card[] => {
    if (!Array.isArray(v) || v.some((t) => typeof t !== "string"))
      return bad(`${what} must be a list of cards such as "TH", got ${describeValue(v)}`);
    return v.map((t: string) => {
      try {
        return parseCard(t);
      } catch (e) {
        return bad(`${what}: ${(e as Error).message}`);
      }
    });
  };
  if (!Array.isArray(d.columns) || d.columns.length !== rules.columns)
    bad(
      `columns must be a list of ${rules.columns} columns (${env.spec.id}), got ${Array.isArray(d.columns) ? d.columns.length : describeValue(d.columns)}`,
    );
  const columns = d.columns.map((col, c) => cardList(col, `column ${c + 1}`));
  if (!Array.isArray(d.cells) || d.cells.length !== rules.cells)
    bad(
      `cells must be a list of ${rules.cells} flippers (a card or null each), got ${Array.isArray(d.cells) ? `${d.cells.length} entries` : describeValue(d.cells)}`,
    );
  const cells = d.cells.map((t, i) =>
    t === null ? NO_CARD : cardList([t], `flipper ${i + 1} (a card or null)`)[0]!,
  );
  if (!Array.isArray(d.found) || d.found.length !== 4 || !d.found.every((n) => isInt(n, 0, 13)))
    bad(`found must be 4 counts of 0..13 cards, got ${JSON.stringify(d.found) ?? "nothing"}`);
  let piles: Card[][] | undefined;
  if (rules.foundations === "rank") {
    if (!Array.isArray(d.piles) || d.piles.length !== 4)
      bad("piles must hold the 4 rank foundations' cards");
    piles = d.piles.map((p, f) => cardList(p, `pile ${f + 1}`));
    if (piles.some((p, f) => p.length !== d.found[f])) bad("found must count each pile's cards");
  }
  if (!isInt(d.base, 0, 12)) bad(`base must be a rank index 0..12, got ${describeValue(d.base)}`);
  if (!isInt(d.seed, 0)) bad(`seed must be a non-negative integer, got ${describeValue(d.seed)}`);
  if (!isInt(d.nextSeed, 0))
    bad(`nextSeed must be a non-negative integer, got ${describeValue(d.nextSeed)}`);
  if (!isInt(d.seedStride, 1))
    bad(`seedStride must be a positive integer, got ${describeValue(d.seedStride)}`);
  if (!isInt(d.steps, 0, env.settings.maxSteps))
    bad(
      `steps must be an integer from 0 to maxSteps (${env.settings.maxSteps}), got ${describeValue(d.steps)}`,
    );
  // Rewards are non-negative and an episode's sum is at most 1 (every card, or the win).
  for (const k of ["episodeReturn", "reward"] as const)
    if (typeof d[k] !== "number" || !(d[k] >= 0 && d[k] <= 1 + 1e-9))
      bad(`${k} must be a number from 0 to 1, got ${describeValue(d[k])}`);
  for (const k of ["over", "repeated", "terminated", "truncated"] as const)
    if (typeof d[k] !== "boolean") bad(`${k} must be true or false, got ${describeValue(d[k])}`);
  if (d.over !== (d.terminated || d.truncated))
    bad("over must be true exactly when terminated or truncated is");
  if (
    !Array.isArray(d.seen) ||
    !d.seen.every(
      (p) =>
        Array.isArray(p) &&
        p.length === 2 &&
        isInt(p[0], 0, 2 ** 32 - 1) &&
        isInt(p[1], 0, 2 ** 32 - 1),
    )
  )
    bad("seen must be a list of [lo, hi] position hashes (32-bit integers)");
  const found = piles ? piles.map((p) => p.length) : d.found;
  const s = buildPosition(rules, { base: d.base, found, piles, cells, columns }, bad);
  return s;
}

export interface SerializedEnv {
  format: "penguin-gym/env";
  version: 2;
  id: string;
  options: EnvOptions;
  base: number;
  columns: string[][];
  cells: (string | null)[];
  found: number[];
  /** Rank foundations: each foundation's cards, first card first (else empty). */
  piles: string[][];
  seed: number;
  nextSeed: number;
  seedStride: number;
  steps: number;
  episodeReturn: number;
  over: boolean;
  reward: number;
  repeated: boolean;
  terminated: boolean;
  truncated: boolean;
  seen: [number, number][];
}

/** Builds an environment from a registered id; options override rules and env settings. */
export function makeEnv(id: string, options: EnvOptions = {}): PenguinEnv {
  const { spec, rules, settings } = resolveEnvOptions(id, options);
  return new PenguinEnv(spec, rules, settings);
}

/** Inverse of env.serialize(). */
export function deserializeEnv(text: string): PenguinEnv {
  let d: SerializedEnv;
  try {
    d = JSON.parse(text) as SerializedEnv;
  } catch (e) {
    throw new InvalidStateError(`not a serialized env: ${(e as Error).message}`);
  }
  if (typeof d !== "object" || d === null || d.format !== "penguin-gym/env" || d.version !== 2)
    throw new InvalidStateError(`not a serialized env (format penguin-gym/env version 2)`);
  if (typeof d.id !== "string") throw new InvalidStateError("serialized env: id must be an env id");
  if (typeof d.options !== "object" || d.options === null || Array.isArray(d.options))
    throw new InvalidStateError("serialized env: options must be an object");
  const env = makeEnv(d.id, d.options);
  env.restore(d);
  return env;
}
