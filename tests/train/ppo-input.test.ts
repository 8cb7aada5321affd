import { describe, expect, it } from "vitest";
import { resolveRules } from "../../src/engine/rules.js";
import { VecEnv } from "../../src/env/vec.js";
import { PolicyFeatures } from "../../src/players/policy/features.js";

describe("PPO's network input", () => {
  it('with features "env" it is VecEnv\'s own observation, row for row, through autoresets', () => {
    // PPO copies vec.observations instead of encoding again; that is only right if the trainer's
    // "env" encoder writes exactly what the environment writes.
    const rules = resolveRules("penguin");
    const features = new PolicyFeatures(rules, "env");
    const vec = new VecEnv(4, "Penguin-v3", { maxSteps: 30 });
    vec.reset({ seed: 11 });
    expect(features.size).toBe(vec.obsSize);
    const A = vec.masks.length / 4;
    const mine = new Float32Array(4 * features.size);
    const actions = new Int32Array(4);
    let resets = 0;
    for (let t = 0; t < 80; t++) {
      for (let i = 0; i < 4; i++)
        features.encode(vec.envs[i]!.state, vec.masks, i * A, mine, i * features.size);
      expect(
        Buffer.from(mine.buffer).equals(
          Buffer.from(
            vec.observations.buffer,
            vec.observations.byteOffset,
            vec.observations.byteLength,
          ),
        ),
      ).toBe(true);
      // A legal action per env, varied by step so the episodes differ.
      for (let i = 0; i < 4; i++) {
        const legal: number[] = [];
        for (let a = 0; a < A; a++) if (vec.masks[i * A + a]) legal.push(a);
        actions[i] = legal[(t * 7 + i * 3) % legal.length]!;
      }
      vec.step(actions);
      for (let i = 0; i < 4; i++) resets += vec.truncated[i]! | vec.terminated[i]!;
    }
    expect(resets).toBeGreaterThan(0);
  });
});
