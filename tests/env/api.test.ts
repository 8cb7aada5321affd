/**
 * The one generic check every environment passes (after OpenSpiel's random-simulation test,
 * Gymnasium's env checker and Pgx's API test): determinism, exact masks both ways against the
 * engine's move generator, codec round trips, observation size and finiteness, clone and
 * serialize round trips, and episodes that end within maxSteps.
 */
import { describe, expect, it } from "vitest";
import { generateMoves, MAX_MOVES } from "../../src/engine/moves.js";
import { parseMove } from "../../src/engine/notation.js";
import { ENV_IDS, makeEnv, deserializeEnv, type EnvOptions, type PenguinEnv } from "../../src/env/index.js";
import { mulberry32, pickAction } from "./helpers.js";

const CASES: [string, EnvOptions][] = [
  ...ENV_IDS.map((id): [string, EnvOptions] => [id, {}]),
  // Variants that stress the action layout: long alternate-colour runs with a wrapping base,
  // supermoves with empty columns, no flippers, single-card moves.
  ["Penguin-v2", { build: "alternate-color", emptyColumn: "any", groupMove: "unlimited" }],
  ["Penguin-v2", { build: "alternate-color" }],
  ["FreeCell-v2", { cells: 0, groupMove: "single" }],
  ["PenguinRelaxed-v2", { groupMove: "supermove", cells: 3 }],
  ["EightOff-v2", { emptyColumn: "none" }],
];

const moves = new Int32Array(MAX_MOVES);

/**
 * Mask == legal engine moves, both ways; every move has an id; decode(encode(m)) == m. Plain
 * comparisons in the loops (an expect() per id would dominate the run time).
 */
function checkMask(env: PenguinEnv, decodeAll: boolean): { splits: number } {
  const s = env.state;
  const codec = env.codec;
  const mask = env.actionMask;
  const n = generateMoves(s, moves);
  const ids = new Set<number>();
  let splits = 0;
  const fail = (why: string): never => {
    throw new Error(`${env.id} seed ${env.info.seed} step ${env.info.steps}: ${why}\n${env.render()}`);
  };
  for (let i = 0; i < n; i++) {
    const m = moves[i]!;
    const a = codec.encode(s, m);
    if (mask[a] !== 1) fail(`move ${m} -> action ${a} (${codec.actionToString(a)}) not in the mask`);
    if (codec.decode(s, a) !== m) fail(`decode(encode(${m})) = ${codec.decode(s, a)}`);
    if (env.actionMoves[a] !== m) fail(`actionMoves[${a}] = ${env.actionMoves[a]}, expected ${m}`);
    // The action's text is play notation for this very move (as `penguin play` reads it).
    if (parseMove(codec.actionToString(a), s) !== m) fail(`parseMove("${codec.actionToString(a)}") is not move ${m}`);
    ids.add(a);
    if (a >= codec.baseCount) splits++;
  }
  if (ids.size !== n) fail(`${n} moves share ${ids.size} ids`);
  let ones = 0;
  for (let a = 0; a < codec.n; a++) {
    if (mask[a]) {
      ones++;
      if (!ids.has(a)) fail(`mask has action ${a} (${codec.actionToString(a)}) that no legal move encodes to`);
    } else if ((decodeAll || a % 97 === s.hashLo % 97) && codec.decode(s, a) !== -1) fail(`illegal action ${a} decodes to a move`);
  }
  expect(ones).toBe(n);
  expect(env.info.legalActions).toBe(n);
  return { splits };
}

function checkObservation(env: PenguinEnv): void {
  const o = env.observation;
  expect(o.length).toBe(env.encoder.size);
  expect(env.observationSpace.shape).toEqual([o.length]);
  for (let i = 0; i < o.length; i++) {
    const v = o[i]!;
    if (!(Number.isFinite(v) && v >= 0 && v < 5)) throw new Error(`observation[${i}] = ${v} out of [0, 5)`);
  }
}

/** A trajectory as plain data: actions, rewards, flags and an observation checksum per step. */
function trajectory(id: string, options: EnvOptions, seed: number, policySeed: number): string[] {
  const env = makeEnv(id, options);
  const rnd = mulberry32(policySeed);
  const { observation } = env.reset({ seed });
  const out = [`${Array.from(observation).reduce((a, b) => a + b, 0).toFixed(5)}`];
  for (;;) {
    const a = pickAction(env, rnd);
    const r = env.step(a);
    const sum = Array.from(r.observation).reduce((x, y) => x + y, 0);
    out.push(`${a} ${r.reward} ${r.terminated} ${r.truncated} ${r.info.legalActions} ${sum.toFixed(5)}`);
    if (r.terminated || r.truncated) return out;
  }
}

describe.each(CASES)("%s %j", (id, options) => {
  it("gives the same trajectory for the same seed", () => {
    const a = trajectory(id, { ...options, maxSteps: 150 }, 7, 99);
    expect(trajectory(id, { ...options, maxSteps: 150 }, 7, 99)).toEqual(a);
    expect(trajectory(id, { ...options, maxSteps: 150 }, 8, 99)).not.toEqual(a);
  });

  it("codec round-trips every action id through its text", () => {
    const codec = makeEnv(id, options).codec;
    const texts = new Set<string>();
    for (let a = 0; a < codec.n; a++) {
      const t = codec.actionToString(a);
      texts.add(t);
      expect(codec.parseAction(t)).toBe(a);
    }
    expect(texts.size).toBe(codec.n);
  });

  it("keeps mask == engine moves, finite observations, clone and serialize round trips, and ends within maxSteps", () => {
    const maxSteps = 120;
    const env = makeEnv(id, { ...options, maxSteps });
    let positions = 0;
    let splits = 0;
    for (let ep = 0; ep < 12; ep++) {
      const rnd = mulberry32(1000 + ep);
      env.reset({ seed: 100 + ep });
      const bias = ep % 3 === 0 ? 0.3 : 0.9;
      for (let t = 0; ; t++) {
        splits += checkMask(env, positions % 25 === 0 && env.codec.n < 1000).splits;
        checkObservation(env);
        positions++;
        if (t % 17 === 5) {
          const text = env.serialize();
          const back = deserializeEnv(text);
          expect(back.serialize()).toBe(text);
          const twin = env.clone();
          for (const other of [back, twin]) {
            expect(other.state.equals(env.state)).toBe(true);
            expect(other.state.hash()).toBe(env.state.hash());
            expect(Array.from(other.observation)).toEqual(Array.from(env.observation));
            expect(Array.from(other.actionMask)).toEqual(Array.from(env.actionMask));
          }
          if (!env.done) {
            const a = pickAction(env, mulberry32(t));
            const r1 = { ...twin.step(a), info: undefined, observation: twin.observation.slice() };
            // The clone is independent: stepping it leaves the original where it was.
            expect(env.state.equals(back.state)).toBe(true);
            const r2 = { ...back.step(a), info: undefined, observation: back.observation.slice() };
            expect(r2).toEqual(r1);
          }
        }
        if (env.done) break;
        const r = env.step(pickAction(env, rnd, bias));
        expect(r.info.steps).toBe(t + 1);
        expect(r.info.steps).toBeLessThanOrEqual(maxSteps);
        if (r.truncated) expect(r.info.steps).toBe(maxSteps);
        if (r.terminated) expect(r.info.won || r.info.legalActions === 0).toBe(true);
      }
      expect(env.info.steps).toBeLessThanOrEqual(maxSteps);
    }
    expect(positions).toBeGreaterThan(100);
    if (id === "PenguinRelaxed-v2" && !options.groupMove) expect(splits).toBeGreaterThan(0); // random play reaches split moves there
  });
});
