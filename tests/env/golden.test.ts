/**
 * Golden playthroughs: one seeded episode per environment id, written as text (start position,
 * then per step the action (with the engine's notation when a base card goes home with it),
 * reward, legal-action count and a hash of the observation's bytes). A missing file fails the
 * test (it is never written silently). Any drift in
 * deals, rules, action layout, observation or rewards fails here loudly.
 * Regenerate after an intended change (and bump the id's version):
 *   UPDATE_GOLDEN=1 npx vitest run tests/env/golden.test.ts
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { moveToString } from "../../src/engine/notation.js";
import { ENV_IDS, makeEnv } from "../../src/env/index.js";
import { createAgent } from "../../src/agents/index.js";
import { observationHash } from "../../src/env/check.js";
import { prng, pickAction } from "./helpers.js";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "golden");
const SEED = 1;
const POLICY_SEED = 2026;
const MAX_STEPS = 200;
const update = process.env.UPDATE_GOLDEN === "1";

function playthrough(id: string): string {
  const env = makeEnv(id, { maxSteps: MAX_STEPS });
  const rnd = prng(POLICY_SEED);
  const { observation, info } = env.reset({ seed: SEED });
  const lines = [
    `# ${id} seed ${SEED} maxSteps ${MAX_STEPS}; policy: tests/env/helpers.ts pickAction(prng(${POLICY_SEED}), 0.8)`,
    ...env
      .render()
      .split("\n")
      .map((l) => `# ${l}`),
    `start legal ${info.legalActions} obs ${observationHash(observation)}`,
  ];
  for (;;) {
    const a = pickAction(env, rnd);
    // The id's text, and the engine's notation where it says more (a base card going home with it).
    const id = env.codec.actionToString(a);
    const played = moveToString(env.actionMoves[a]!, env.state);
    const text = played.includes("+") ? `${id} (${played})` : id;
    const r = env.step(a);
    lines.push(
      `${r.info.steps} ${a} ${text} reward ${r.reward} legal ${r.info.legalActions} obs ${observationHash(r.observation)}`,
    );
    if (r.terminated || r.truncated) {
      lines.push(
        `end steps ${r.info.steps} home ${r.info.cardsHome} won ${r.info.won} terminated ${r.terminated} truncated ${r.truncated} return ${r.info.episodeReturn}`,
      );
      return `${lines.join("\n")}\n`;
    }
  }
}

/**
 * Stalactites' random playthrough ends after a few steps (the cells fill at once), so one more
 * golden plays a whole game: the greedy agent (tuned) winning Microsoft deal #4.
 */
async function stalactitesWin(): Promise<string> {
  const env = makeEnv("Stalactites-v3", { shuffle: "microsoft", maxSteps: MAX_STEPS });
  const agent = await createAgent("greedy", { heuristic: "tuned" }, env.rules);
  const { observation, info } = env.reset({ seed: 4 });
  agent.reset(env.state, 4);
  const lines = [
    `# Stalactites-v3 Microsoft deal 4; policy: greedy(tuned)`,
    ...env
      .render()
      .split("\n")
      .map((l) => `# ${l}`),
    `start legal ${info.legalActions} obs ${observationHash(observation)}`,
  ];
  for (;;) {
    const a = agent.act({
      state: env.state,
      mask: env.actionMask,
      observation: env.observation,
      codec: env.codec,
      actionMoves: env.actionMoves,
    });
    const r = env.step(a);
    lines.push(
      `${r.info.steps} ${a} ${env.codec.actionToString(a)} reward ${r.reward} legal ${r.info.legalActions} obs ${observationHash(r.observation)}`,
    );
    if (r.terminated || r.truncated) {
      lines.push(
        `end steps ${r.info.steps} home ${r.info.cardsHome} won ${r.info.won} terminated ${r.terminated} truncated ${r.truncated}`,
      );
      return `${lines.join("\n")}\n`;
    }
  }
}

function checkGolden(file: string, text: string): void {
  if (!update && !existsSync(file))
    expect.fail(
      `golden file ${file} is missing; write it with UPDATE_GOLDEN=1 npx vitest run tests/env/golden.test.ts and review it`,
    );
  if (update) {
    writeFileSync(`${file}.tmp`, text);
    renameSync(`${file}.tmp`, file);
  }
  expect(text).toBe(readFileSync(file, "utf8"));
}

describe("golden playthroughs", () => {
  it.each(ENV_IDS)("%s", (id) => checkGolden(join(DIR, `${id}.txt`), playthrough(id)));
  it("Stalactites-v3: a won game (greedy, MS #4)", async () => {
    const text = await stalactitesWin();
    expect(text).toContain("won true");
    checkGolden(join(DIR, "Stalactites-v3-ms4-greedy.txt"), text);
  });
});
