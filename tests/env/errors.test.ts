/** Bad ids, bad options and illegal actions fail with one line naming what was wrong and what is allowed. */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import {
  ENV_IDS,
  envIdForPreset,
  InvalidActionError,
  makeEnv,
  VecEnv,
  deserializeEnv,
  type EnvOptions,
} from "../../src/env/index.js";

describe("makeEnv errors", () => {
  it("rejects an unknown id and lists the known ones", () => {
    expect(() => makeEnv("Penguin-v0")).toThrow(UsageError);
    expect(() => makeEnv("Penguin-v0")).toThrow(
      `unknown env id "Penguin-v0"; known: ${ENV_IDS.join(", ")}`,
    );
    expect(() => new VecEnv(2, "penguin")).toThrow(/unknown env id "penguin"; known: Penguin-v3/);
  });

  it.each<[EnvOptions, RegExp]>([
    [{ cells: 9 }, /cells must be an integer from 0 to 8, got 9/],
    [
      { emptyColumn: "kings" as never },
      /unknown empty-column rule "kings"; allowed: below-base, any, none/,
    ],
    [{ groupMove: "all" as never }, /allowed: unlimited, supermove, free-cells, single/],
    [{ build: "colour" as never }, /allowed: suit, alternate-color, none/],
    [
      { deal: "klondike" as never },
      /allowed: penguin, penguin-beak-home, freecell, eight-off, seahaven, stalactites/,
    ],
    [{ reward: "score" as never }, /unknown reward "score"; allowed: cards, win/],
    [{ maxSteps: 0 }, /maxSteps must be an integer from 1 to 1000000, got 0/],
    [{ maxSteps: 2.5 }, /maxSteps must be an integer/],
    [{ truncateOnRepeat: "yes" as never }, /truncateOnRepeat must be true or false/],
    [{ shuffle: "ms" as never }, /unknown shuffle "ms"; allowed: seedrandom, microsoft/],
    [
      { flippers: 3 } as never,
      /unknown env option "flippers"; allowed: cells, emptyColumn, groupMove, build, base, foundations, deal, reward, maxSteps, truncateOnRepeat, shuffle/,
    ],
  ])("rejects %j", (options, message) => {
    expect(() => makeEnv("Penguin-v3", options)).toThrow(UsageError);
    expect(() => makeEnv("Penguin-v3", options)).toThrow(message);
  });

  it("rejects rule combinations the engine forbids", () => {
    expect(() => makeEnv("FreeCell-v3", { base: "beak" })).toThrow(
      /base "beak" needs a penguin deal/,
    );
    expect(() => makeEnv("EightOff-v3", { cells: 2 })).toThrow(/cells must be at least 4/);
  });

  it("maps presets to ids", () => {
    expect(envIdForPreset("kings-only-bakers-game")).toBe("KingsOnlyBakersGame-v3");
    expect(() => envIdForPreset("klondike")).toThrow(/unknown rules "klondike"; known: penguin,/);
  });

  it("rejects bad seeds", () => {
    const env = makeEnv("Penguin-v3");
    expect(() => env.reset({ seed: -1 })).toThrow(/seed must be an integer from 0/);
    expect(() => env.reset({ seed: 1.5 })).toThrow(UsageError);
    const ms = makeEnv("FreeCell-v3", { shuffle: "microsoft" });
    expect(() => ms.reset({ seed: 0 })).toThrow(/1 to 2147483647 \(Microsoft deal number\)/);
  });

  it("rejects text that is not a serialized env", () => {
    expect(() => deserializeEnv("{")).toThrow(/not a serialized env/);
    expect(() => deserializeEnv('{"format":"x"}')).toThrow(/format penguin-gym\/env version 2/);
  });
});

describe("illegal actions", () => {
  it("throws naming the action and why, and never plays another move", () => {
    const env = makeEnv("Penguin-v3");
    expect(() => env.step(0)).toThrow(
      /action 0: the env has no position yet; call reset\(\) first/,
    );
    env.reset({ seed: 5 });
    const before = env.serialize();
    expect(() => env.step(126)).toThrow(InvalidActionError);
    expect(() => env.step(126)).toThrow("action 126 out of range: allowed integers 0..125");
    expect(() => env.step(-1)).toThrow(/out of range/);
    expect(() => env.step(2.5)).toThrow(/action 2.5 out of range/);
    // Seed 5: column 1 ends in KH (base J), which no foundation wants yet.
    expect(() => env.step(env.codec.parseAction("1h"))).toThrow(
      'action 8 ("1h") is illegal here: that card is not the next one its foundation needs',
    );
    expect(() => env.step(env.codec.parseAction("11"))).toThrow(
      /\("11"\) is illegal here: source and destination are the same/,
    );
    expect(() => env.step(env.codec.parseAction("ab"))).toThrow(
      /\("aa"\) is illegal here: the source is empty/,
    );
    expect(env.serialize()).toBe(before);
  });

  it("refuses to step a finished episode", () => {
    const env = makeEnv("Penguin-v3", { maxSteps: 1 });
    env.reset({ seed: 5 });
    const r = env.step(env.legalActions()[0]!);
    expect(r.truncated).toBe(true);
    expect(() => env.step(env.legalActions()[0]!)).toThrow(
      /the episode is over \(terminated or truncated\); call reset\(\)/,
    );
  });

  it("names the sub-env in a VecEnv", () => {
    const v = new VecEnv(2, "Penguin-v3");
    expect(() => v.step(new Int32Array(2))).toThrow(/call reset\(\) before step\(\)/);
    v.reset({ seed: 5 });
    expect(() => v.step(new Int32Array(1))).toThrow(/step needs 2 actions, got 1/);
    expect(() => v.step(Int32Array.of(500, 0))).toThrow(/sub-env 0: action 500 out of range/);
  });
});
