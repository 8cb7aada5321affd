/** VecEnv: seeds per sub-env, the "same-step" autoreset, and determinism. */
import { describe, expect, it } from "vitest";
import { makeEnv, VecEnv } from "../../src/env/index.js";
import { prng } from "./helpers.js";

/** A random legal action per sub-env from the batch's masks. */
function randomActions(v: VecEnv, rnd: () => number, out: Int32Array): Int32Array {
  for (let i = 0; i < v.n; i++) {
    const legal: number[] = [];
    for (let a = 0; a < v.numActions; a++) if (v.masks[i * v.numActions + a]) legal.push(a);
    out[i] = legal[Math.floor(rnd() * legal.length)]!;
  }
  return out;
}

describe("VecEnv", () => {
  it("deals sub-env i from seed + i into row i of one buffer", () => {
    const v = new VecEnv(3, "FreeCell-v3");
    expect(v.autoresetMode).toBe("same-step");
    const { observations, masks } = v.reset({ seed: 40 });
    expect(observations.length).toBe(3 * 752);
    expect(masks.length).toBe(3 * 888);
    expect(Array.from(v.seeds)).toEqual([40, 41, 42]);
    for (let i = 0; i < 3; i++) {
      const single = makeEnv("FreeCell-v3");
      single.reset({ seed: 40 + i });
      expect(Array.from(observations.subarray(i * 752, (i + 1) * 752))).toEqual(
        Array.from(single.observation),
      );
      expect(Array.from(masks.subarray(i * 888, (i + 1) * 888))).toEqual(
        Array.from(single.actionMask),
      );
    }
  });

  it("autoresets in the same step, keeping the final observation and info, with seeds seed + i + k·n", () => {
    const n = 3;
    const v = new VecEnv(n, "Penguin-v3", { maxSteps: 4 });
    v.reset({ seed: 10 });
    const twins = [0, 1, 2].map((i) => {
      const e = makeEnv("Penguin-v3", { maxSteps: 4 });
      e.reset({ seed: 10 + i });
      return e;
    });
    const rnd = prng(3);
    const actions = new Int32Array(n);
    for (let episode = 0; episode < 3; episode++) {
      for (let t = 1; t <= 4; t++) {
        randomActions(v, rnd, actions);
        const r = v.step(actions);
        for (let i = 0; i < n; i++) {
          const tr = twins[i]!.step(actions[i]!);
          expect(r.rewards[i]).toBe(Math.fround(tr.reward));
          expect(r.terminated[i]).toBe(tr.terminated ? 1 : 0);
          expect(r.truncated[i]).toBe(tr.truncated ? 1 : 0);
          if (tr.terminated || tr.truncated) {
            // Final row = the twin's last observation; the live row is already the next deal.
            expect(
              Array.from(v.finalObservations.subarray(i * v.obsSize, (i + 1) * v.obsSize)),
            ).toEqual(Array.from(tr.observation));
            expect(
              Array.from(v.finalMasks.subarray(i * v.numActions, (i + 1) * v.numActions)),
            ).toEqual(Array.from(tr.info.actionMask));
            expect(v.finalSteps[i]).toBe(tr.info.steps);
            expect(v.finalCardsHome[i]).toBe(tr.info.cardsHome);
            expect(v.finalReturns[i]).toBeCloseTo(tr.info.episodeReturn, 6);
            expect(v.finalSeeds[i]).toBe(10 + i + episode * n);
            twins[i]!.reset({ seed: 10 + i + (episode + 1) * n });
            expect(v.seeds[i]).toBe(10 + i + (episode + 1) * n);
          }
          expect(Array.from(v.observations.subarray(i * v.obsSize, (i + 1) * v.obsSize))).toEqual(
            Array.from(twins[i]!.observation),
          );
        }
        // Random play may end an episode early (no legal action); the twin follows either way.
        if (t === 4)
          for (let i = 0; i < n; i++)
            expect(r.terminated[i] || r.truncated[i] || twins[i]!.info.steps === 0).toBeTruthy();
      }
    }
  });

  it("gives the same batch trajectory for the same seed", () => {
    const run = (seed: number): number[] => {
      const v = new VecEnv(8, "SeahavenTowers-v3", { maxSteps: 30 });
      v.reset({ seed });
      const rnd = prng(11);
      const actions = new Int32Array(8);
      const trace: number[] = [];
      for (let t = 0; t < 80; t++) {
        const r = v.step(randomActions(v, rnd, actions));
        trace.push(
          ...actions,
          ...r.rewards,
          ...r.terminated,
          ...r.truncated,
          r.observations.reduce((a, b) => a + b, 0),
        );
      }
      trace.push(...v.seeds);
      return trace;
    };
    const a = run(5);
    expect(run(5)).toEqual(a);
    expect(run(6)).not.toEqual(a);
  });

  it("checks every action before moving any sub-env", () => {
    const v = new VecEnv(2, "Penguin-v3");
    v.reset({ seed: 1 });
    const before = v.envs.map((e) => e.serialize());
    const legal0 = v.envs[0]!.legalActions()[0]!;
    expect(() => v.step(Int32Array.of(legal0, 125))).toThrow(
      /sub-env 1: action 125 \("gh"\) is illegal here: the source is empty/,
    );
    expect(v.envs.map((e) => e.serialize())).toEqual(before);
  });

  it("continues each sub-env's own seed sequence on reset() without a seed", () => {
    const v = new VecEnv(2, "Penguin-v3");
    v.reset();
    expect(Array.from(v.seeds)).toEqual([1, 2]);
    v.reset();
    expect(Array.from(v.seeds)).toEqual([3, 4]);
    v.reset({ seed: 100 });
    expect(Array.from(v.seeds)).toEqual([100, 101]);
  });
});
