/** Rewards and episode end on hand-built positions: win, no legal action, maxSteps, repeats. */
import { describe, expect, it } from "vitest";
import { resolveRules } from "../../src/engine/rules.js";
import { makeEnv } from "../../src/env/index.js";
import {
  DEFAULT_SETTINGS,
  ENV_IDS,
  PREVIOUS_ENV_IDS,
  defaultMaxSteps,
  envSpec,
} from "../../src/env/registry.js";
import { position } from "./helpers.js";
import { position as fullPosition } from "../engine/position.js";

const penguin = resolveRules("penguin");

describe("rewards and episode end", () => {
  it("documents its defaults", () => {
    expect(DEFAULT_SETTINGS).toEqual({
      reward: "cards",
      truncateOnRepeat: false,
      shuffle: "seedrandom",
    });
    expect(makeEnv("Penguin-v3").settings).toEqual({ ...DEFAULT_SETTINGS, maxSteps: 1000 });
  });

  it("truncates at the move limit each id registers, the one every game of its rules uses", () => {
    for (const id of ENV_IDS) {
      const spec = envSpec(id);
      expect(makeEnv(id).settings.maxSteps).toBe(spec.maxSteps);
      expect(defaultMaxSteps(resolveRules(spec.preset, { cells: 8 }))).toBe(spec.maxSteps);
    }
    expect(makeEnv("FreeCell-v3", { maxSteps: 7 }).settings.maxSteps).toBe(7);
  });

  it("keeps the previous version registered: each -v2 id is its -v3 id with v2's 500-move limit", () => {
    expect(ENV_IDS.map((id) => id.replace(/-v3$/, "-v2"))).toEqual(PREVIOUS_ENV_IDS);
    for (const id of PREVIOUS_ENV_IDS) {
      const current = envSpec(id.replace(/-v2$/, "-v3"));
      expect(current.maxSteps).toBe(1000);
      expect(envSpec(id)).toEqual({ ...current, id, version: 2, maxSteps: 500 });
      expect(makeEnv(id).settings.maxSteps).toBe(500);
    }
    expect(defaultMaxSteps(resolveRules("penguin"))).toBe(1000);
  });

  it("pays 1/52 per card home under `cards` and 1 for the win under `win`", () => {
    // Base A: every foundation holds A..Q but spades (A..J); QS and KS are left, KS in a flipper.
    const s = position(penguin, 0, ["QS", "KC", "KD", "KH", "", "", ""], ["KS"], [12, 12, 12, 11]);
    for (const [reward, first, last] of [
      ["cards", 1 / 52, 1 / 52],
      ["win", 0, 1],
    ] as const) {
      const env = makeEnv("Penguin-v3", { reward });
      env.reset({ state: s, seed: 9 });
      expect(env.info.cardsHome).toBe(47);
      let r = env.step(env.codec.parseAction("1h"));
      expect([r.reward, r.terminated, r.info.cardsHome]).toEqual([first, false, 48]);
      for (const a of ["2h", "3h", "4h"]) r = env.step(env.codec.parseAction(a));
      r = env.step(env.codec.parseAction("ah"));
      expect([
        r.reward,
        r.terminated,
        r.truncated,
        r.info.won,
        r.info.cardsHome,
        r.info.steps,
      ]).toEqual([last, true, false, true, 52, 5]);
      expect(r.info.episodeReturn).toBeCloseTo(reward === "cards" ? 5 / 52 : 1, 12);
      expect(env.render()).toMatch(
        /^Penguin-v3 seed 9 step 5\/1000 \(won\)\nbase A {3}home 52\/52/,
      );
    }
  });

  it("terminates when no legal action is left", () => {
    const rules = resolveRules("penguin", { cells: 1 });
    // Base A, nothing goes home; an emptied column takes only a K, and no top builds on another.
    const s = position(rules, 0, ["9S 2C", "4D", "6H", "8C", "TD", "QH", "3S"]);
    const env = makeEnv("Penguin-v3", { cells: 1 });
    env.reset({ state: s });
    expect(env.legalActions().map((a) => env.codec.actionToString(a))).toEqual([
      "1a",
      "2a",
      "3a",
      "4a",
      "5a",
      "6a",
      "7a",
    ]);
    const r = env.step(env.codec.parseAction("2a"));
    expect([r.terminated, r.truncated, r.info.legalActions, r.info.won, r.reward]).toEqual([
      true,
      false,
      0,
      false,
      0,
    ]);
    expect(env.done).toBe(true);
    // A deal with no legal action is over at reset.
    const stuck = position(rules, 0, ["9S 2C", "4D", "6H", "8C", "TD", "QH", "3S"], ["5C"]);
    env.reset({ state: stuck });
    expect([env.done, env.info.legalActions]).toEqual([true, 0]);
  });

  it("truncates at maxSteps and, when asked, at a repeated position", () => {
    const s = position(penguin, 0, ["9S 8S", "4D", "6H", "8C", "TD", "QH", "3S"]);
    const plain = makeEnv("Penguin-v3", { maxSteps: 3 });
    plain.reset({ state: s });
    let r = plain.step(plain.codec.parseAction("1a"));
    r = plain.step(plain.codec.parseAction("a1")); // back where it started
    expect([r.truncated, r.info.repeated]).toEqual([false, false]);
    r = plain.step(plain.codec.parseAction("1a"));
    expect([r.terminated, r.truncated, r.info.steps]).toEqual([false, true, 3]);

    const env = makeEnv("Penguin-v3", { truncateOnRepeat: true });
    env.reset({ state: s });
    r = env.step(env.codec.parseAction("1a"));
    expect([r.truncated, r.info.repeated]).toEqual([false, false]);
    r = env.step(env.codec.parseAction("a1"));
    expect([r.terminated, r.truncated, r.info.repeated]).toEqual([false, true, true]);
    // A longer cycle: after 1a 2a a1, playing 1a again recreates the position after 2a.
    env.reset({ state: s });
    for (const a of ["1a", "2a", "a1", "1a"]) r = env.step(env.codec.parseAction(a));
    expect([r.truncated, r.info.steps]).toEqual([true, 4]);
    // The record survives serialization (of a position with all 52 cards: restore checks that).
    env.reset({ state: fullPosition(penguin, "A", ["9S 8S", "TS", "JS", "QS", "KS"]) });
    env.step(env.codec.parseAction("1a"));
    const back = makeEnv("Penguin-v3", { truncateOnRepeat: true });
    back.restore(JSON.parse(env.serialize()));
    expect(back.step(back.codec.parseAction("a1")).truncated).toBe(true);
  });
});

describe("PenguinBeakHome-v3: a base card uncovered during play goes home in the same step", () => {
  it("MS #1: 3a puts 3D in a flipper and sends the JH under it home, one step, one id", () => {
    const env = makeEnv("PenguinBeakHome-v3", { shuffle: "microsoft" });
    const { info } = env.reset({ seed: 1 });
    const home = info.cardsHome;
    const a = env.codec.parseAction("3a");
    expect(env.actionMask[a]).toBe(1);
    const r = env.step(a);
    expect(r.info.steps).toBe(1);
    expect(r.info.cardsHome).toBe(home + 1);
    expect(r.reward).toBeCloseTo(1 / 52);
    expect(env.state.column(2).length).toBe(5);
  });
});
