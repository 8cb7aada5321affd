/**
 * The one generic check every environment passes: checkEnv (the package's public checker, after
 * Gymnasium's env checker and Pgx's API test) on every registered id and on variants that stress
 * the action layout. It checks determinism, exact masks both ways against the engine's move
 * generator, codec round trips, observation shape and finiteness, clone and serialize round
 * trips, reward bounds and sums, and episodes that end within maxSteps. The second half shows
 * that checkEnv fails, naming the failure, on environments that break each promise.
 */
import { describe, expect, it } from "vitest";
import {
  checkEnv,
  ENV_IDS,
  envIdForPreset,
  makeEnv,
  type EnvOptions,
  type PenguinEnv,
  type StepResult,
} from "../../src/index.js";
import { UsageError } from "../../src/errors.js";

const PENGUIN = envIdForPreset("penguin");
const CASES: [string, EnvOptions][] = [
  ...ENV_IDS.map((id): [string, EnvOptions] => [id, {}]),
  // Long alternate-colour runs with a wrapping base, supermoves with empty columns, no flippers,
  // single-card moves, no empty-column moves, the win reward and a short step limit.
  [PENGUIN, { build: "alternate-color", emptyColumn: "any", groupMove: "unlimited" }],
  [PENGUIN, { build: "alternate-color", reward: "win" }],
  [envIdForPreset("freecell"), { cells: 0, groupMove: "single" }],
  [envIdForPreset("penguin-relaxed"), { groupMove: "supermove", cells: 3, maxSteps: 40 }],
  [envIdForPreset("eight-off"), { emptyColumn: "none", shuffle: "microsoft" }],
];

describe.each(CASES)("%s %j", (id, options) => {
  it("passes checkEnv", () => {
    const report = checkEnv(makeEnv(id, { ...options, maxSteps: options.maxSteps ?? 150 }), {
      episodes: 10,
      seed: 5,
    });
    expect(report.id).toBe(id);
    expect(report.episodes).toBe(10);
    expect(report.won + report.truncated + report.stuck).toBe(10);
    expect(report.positions).toBeGreaterThan(10);
  });
});

/** A Penguin env with one promise broken by `patch`. */
function broken(patch: (env: PenguinEnv) => void): PenguinEnv {
  const env = makeEnv(PENGUIN, { maxSteps: 100 });
  patch(env);
  return env;
}

describe("checkEnv finds broken environments", () => {
  it("a mask that allows an illegal action", () => {
    const env = broken((e) => {
      const reset = e.reset.bind(e);
      e.reset = (o) => {
        const r = reset(o);
        const i = e.actionMask.indexOf(0);
        e.actionMask[i] = 1;
        return r;
      };
    });
    expect(() => checkEnv(env)).toThrow(
      /checkEnv\(Penguin-v\d+\) seed 1 step 0: mask has \d+ legal actions, the engine has \d+ legal moves/,
    );
  });

  it("a reward that does not add up to the episode return, and one out of bounds", () => {
    const lying = broken((e) => {
      const step = e.step.bind(e);
      e.step = (a): StepResult => ({ ...step(a), reward: 0 });
    });
    expect(() => checkEnv(lying)).toThrow(/rewards sum to 0, info\.episodeReturn is 0\.0192/);
    const big = broken((e) => {
      const step = e.step.bind(e);
      e.step = (a): StepResult => ({ ...step(a), reward: 2 });
    });
    expect(() => checkEnv(big)).toThrow(/step 1: reward 2 outside rewardRange \[0, 0\.019/);
  });

  it("an env whose episodes depend on something other than the seed", () => {
    let calls = 0;
    const env = broken((e) => {
      const reset = e.reset.bind(e);
      e.reset = (o) => reset({ seed: (o?.seed ?? 1) + calls++ });
    });
    expect(() => checkEnv(env)).toThrow(/the same seed gave a different trajectory/);
  });

  it("an observation outside the declared bounds", () => {
    const env = broken((e) => {
      const step = e.step.bind(e);
      e.step = (a) => {
        const r = step(a);
        e.observation[3] = Number.NaN;
        return r;
      };
    });
    expect(() => checkEnv(env)).toThrow(/step 1: observation\[3\] = NaN, outside \[0, 5\]/);
  });

  it("bad input: not an environment, bad options", () => {
    expect(() => checkEnv({ reset() {} })).toThrow(UsageError);
    expect(() => checkEnv({ reset() {} })).toThrow(
      /^checkEnv: not an environment \(missing step\(\), clone\(\)/,
    );
    expect(() => checkEnv(null)).toThrow(/not an environment/);
    expect(() => checkEnv(PENGUIN)).toThrow(/not an environment/);
    expect(() => checkEnv(makeEnv(PENGUIN), { episodes: 0 })).toThrow(
      /^checkEnv: episodes must be an integer from 1 to 100000, got 0$/,
    );
    expect(() => checkEnv(makeEnv(PENGUIN), { seed: 1.5 })).toThrow(/seed must be an integer/);
  });
});
