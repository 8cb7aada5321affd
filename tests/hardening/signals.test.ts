/**
 * A run started through a wrapper (tsx here, as npx/npm do) stops, keeping whole rows, when the
 * wrapper is killed with SIGKILL and so cannot pass a signal on; and wrapper detection itself.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isWrapper } from "../../src/util/parent.js";
import { alive, childrenOf, root, tempDir, tsx, waitFor } from "./helpers.js";

const { dir, done } = tempDir("signals");
afterAll(done);

/** Starts `args` under tsx, waits for rows in `out`, SIGKILLs tsx alone, and watches its node child. */
async function killWrapper(
  args: readonly string[],
  out: string,
): Promise<{ childGone: boolean; stderr: string; text: string }> {
  const wrapper = spawn(tsx, args, { cwd: root, env: { ...process.env, FAKE_PLAY_DELAY_MS: "5" } });
  let stderr = "";
  wrapper.stderr.on("data", (d) => (stderr += d));
  expect(
    await waitFor(
      () => existsSync(out) && readFileSync(out, "utf8").split("\n").length > 4,
      30_000,
    ),
  ).toBe(true);
  const [child] = childrenOf(wrapper.pid!);
  expect(child).toBeGreaterThan(0);
  wrapper.kill("SIGKILL");
  // The real process notices within a second or so, saves, and exits.
  const childGone = await waitFor(() => !alive(child!), 10_000);
  if (!childGone) process.kill(child!, "SIGKILL");
  await waitFor(() => stderr.includes("stopped"), 2000);
  return { childGone, stderr, text: readFileSync(out, "utf8") };
}

describe("killing the wrapper stops the real process", () => {
  it("penguin eval and an experiment both exit, with whole rows and the resume hint", async () => {
    const evalOut = join(dir, "eval.csv");
    const expOut = join(dir, "exp.csv");
    const [ev, ex] = await Promise.all([
      killWrapper(
        [
          "src/cli/main.ts",
          "eval",
          "--agent",
          "random",
          "--deals",
          "10000000",
          "--no-timing",
          "--out",
          evalOut,
        ],
        evalOut,
      ),
      killWrapper(
        [
          "tests/experiments/fixtures/fake-experiment.ts",
          "--quiet",
          "--deals",
          "100000",
          "--out",
          expOut,
        ],
        expOut,
      ),
    ]);
    expect(ev.childGone).toBe(true);
    expect(ex.childGone).toBe(true);
    for (const r of [ev, ex]) expect(r.text.endsWith("\n")).toBe(true);
    const rows = ev.text.trim().split("\n").length - 1;
    expect(ev.stderr).toMatch(
      new RegExp(
        `stopped by the end of its npx/npm wrapper: .*eval\\.csv holds ${rows} deals .*rerun the same command to resume`,
      ),
    );
    expect(ex.stderr).toMatch(
      /fake: stopped by the end of its npx\/npm\/tsx wrapper after \d+ of 300000 games; rerun the same command to resume/,
    );
    expect(existsSync(`${evalOut}.lock`) || existsSync(`${expOut}.lock`)).toBe(false);
  });
});

describe("isWrapper", () => {
  it("knows npm, npx, tsx and npm's sh -c, and not a shell, node or a scheduler", () => {
    expect(
      isWrapper(["/usr/bin/node", "/usr/lib/node_modules/npm/bin/npx-cli.js", "tsx", "x.ts"]),
    ).toBe(true);
    expect(isWrapper(["npm", "run", "x"])).toBe(true);
    expect(isWrapper(["node", "/repo/node_modules/.bin/tsx", "experiments/flippers.ts"])).toBe(
      true,
    );
    expect(isWrapper(["node", "/repo/node_modules/tsx/dist/cli.mjs", "x.ts"])).toBe(true);
    expect(isWrapper(["sh", "-c", "tsx experiments/flippers.ts"])).toBe(true);
    expect(isWrapper(["-bash"])).toBe(false);
    expect(isWrapper(["bash"])).toBe(false);
    expect(isWrapper(["node", "bin/penguin.js", "eval"])).toBe(false);
    expect(isWrapper(["/usr/bin/nohup", "node", "x.js"])).toBe(false);
    expect(isWrapper(["slurmstepd: [1.0]"])).toBe(false);
  });
});
