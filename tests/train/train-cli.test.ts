import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scratchDir } from "./helpers.js";

const root = process.cwd();
const dir = scratchDir("train-cli");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function penguin(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("node", ["bin/penguin.js", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
const TINY_PPO = [
  "--algo",
  "ppo",
  "--envs",
  "4",
  "--rollout-steps",
  "16",
  "--minibatches",
  "2",
  "--ppo-epochs",
  "1",
  "--hidden",
  "16",
  "--eval-deals",
  "4",
  "--eval-during",
  "2",
  "--eval-every",
  "1",
  "--max-steps",
  "50",
];

describe("penguin train: numbers, resume and signals", () => {
  it("refuses out-of-range numbers before creating the run folder, naming the range", () => {
    const cases: [string[], RegExp][] = [
      [["--total-steps", "0"], /--total-steps must be an integer from 1/],
      [["--lr", "-1"], /--lr must be a number > 0 and ≤ 100, got -1/],
      [["--gamma", "2"], /--gamma must be a number from 0 to 1, got 2/],
      [["--max-minutes", "-1"], /--max-minutes must be a number from 0/],
      [["--checkpoint-every", "0"], /--checkpoint-every must be an integer from 1/],
      [["--algo", "bc"], /unknown algorithm "bc"; allowed: ppo, es, safety/],
      [["--lr-schedule", "cosine"], /--lr-schedule must be linear or constant, got cosine/],
      [["--hidden", "16,x"], /--hidden must be layer sizes from 1 to 4096/],
      [["--es-pop", "3"], /Unknown arguments?: es-pop/],
      [["--rollout-steps", "1e9"], /--rollout-steps must be an integer from 1 to 100000/],
      [["--policy", "mlp"], /--policy must be afterstate, observation or safety, got mlp/],
      [["--features", "env+slots"], /--features needs --policy observation/],
      [["--policy", "observation", "--shaping", "2"], /--shaping needs --policy afterstate/],
    ];
    for (const [args, msg] of cases) {
      const out = join(dir, `bad-${args[0]!.slice(2)}`);
      const r = penguin(["train", "--out", out, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(existsSync(out)).toBe(false);
    }
  });

  it("a first SIGINT finishes the update, checkpoints and says how to continue; --resume refuses other options and a damaged config.json", async () => {
    const run = join(dir, "sig");
    const p = spawn(
      "node",
      [
        "bin/penguin.js",
        "train",
        ...TINY_PPO,
        "--total-steps",
        "100000",
        "--checkpoint-every",
        "1000",
        "--out",
        run,
      ],
      { cwd: root, env: { ...process.env, FORCE_COLOR: "0" } },
    );
    let stdout = "";
    let stderr = "";
    let sent = false;
    p.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number>((resolve) => {
      p.stdout.on("data", (d) => {
        stdout += d;
        // Signal once the first update has been logged.
        if (!sent && /update 1\b/.test(stdout)) {
          sent = true;
          p.kill("SIGINT");
        }
      });
      p.on("close", (c) => resolve(c ?? -1));
    });
    expect(sent).toBe(true);
    expect(code).toBe(130);
    expect(stderr).toContain(`stopped; \`penguin train --resume ${run}\` continues`);
    expect(existsSync(join(run, "checkpoint", "state.json"))).toBe(true);
    const state = JSON.parse(readFileSync(join(run, "resume", "state.json"), "utf8"));
    expect(state.algo).toBe("ppo");
    expect(state.steps.update).toBeGreaterThanOrEqual(1);
    expect(state.rngs.ppo).toHaveLength(4);

    const extra = penguin(["train", "--resume", run, "--lr", "0.1"]);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toMatch(/keeps the settings in .*config\.json; leave out --lr/);

    // state.json is hashed like the other checkpoint files.
    const sj = join(run, "resume", "state.json");
    const original = readFileSync(sj, "utf8");
    writeFileSync(sj, original.replace('"update": ', '"update": 1'));
    const edited = penguin(["train", "--resume", run]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/state\.json does not match its recorded SHA-256/);
    writeFileSync(sj, original);

    writeFileSync(join(run, "config.json"), "{ not json");
    const damaged = penguin(["train", "--resume", run]);
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toContain(`${join(run, "config.json")} is damaged`);
  }, 120_000);
});

// Keep the helper import used even when a case is skipped.
mkdirSync(dir, { recursive: true });
