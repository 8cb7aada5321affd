// Every `penguin train <algo>`, run from the CLI at a tiny budget (as CleanRL tests
// its scripts): the run folder holds what docs/train.md promises, and a run stopped by SIGINT and
// continued with --resume ends with the same weights and metrics as one that was never stopped.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scratchDir } from "./helpers.js";

const root = process.cwd();
const dir = scratchDir("algos-cli");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, FORCE_COLOR: "0" };

function penguin(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("node", ["bin/penguin.js", ...args], { cwd: root, encoding: "utf8", env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the command and sends SIGINT once stdout matches `when`; resolves with the exit code and output. */
function interrupted(
  args: string[],
  when: RegExp,
): Promise<{ code: number; sent: boolean; stderr: string }> {
  const p = spawn("node", ["bin/penguin.js", ...args], { cwd: root, env });
  let stdout = "";
  let stderr = "";
  let sent = false;
  p.stderr.on("data", (d) => (stderr += d));
  p.stdout.on("data", (d) => {
    stdout += d;
    if (!sent && when.test(stdout)) {
      sent = true;
      p.kill("SIGINT");
    }
  });
  return new Promise((resolve) => p.on("close", (c) => resolve({ code: c ?? -1, sent, stderr })));
}

/** metrics.csv without the columns that measure the machine's speed. */
function metrics(run: string, timing: readonly string[]): string[] {
  const [head, ...rows] = readFileSync(join(run, "metrics.csv"), "utf8").trim().split("\n");
  const cols = head!.split(",");
  const keep = cols.map((c, i) => (timing.includes(c) ? -1 : i)).filter((i) => i >= 0);
  return [head!, ...rows].map((l) => keep.map((i) => l.split(",")[i]).join(","));
}

/** stderr says the backend first (and, past 10 s, that the run is alive); nothing else. */
function expectOnlyProgress(stderr: string): void {
  const lines = stderr.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^penguin train: TensorFlow\.js backend: (tensorflow|wasm|cpu)/);
  for (const l of lines.slice(1)) expect(l).toMatch(/^penguin train: still running after \d+ s/);
}

/** The uninterrupted run and the stopped-then-resumed run end alike. */
async function checkResume(
  algo: string,
  args: string[],
  when: RegExp,
  weights: string,
  timing: readonly string[],
  name = algo,
): Promise<void> {
  const whole = join(dir, `${name}-whole`);
  const cut = join(dir, `${name}-cut`);
  const r = penguin(["train", algo, ...args, "--out", whole]);
  expectOnlyProgress(r.stderr);
  expect(r.code).toBe(0);
  for (const f of ["config.json", "deals.json", "metrics.csv", "train.log", "curve.svg", weights])
    expect(existsSync(join(whole, f)), f).toBe(true);
  expect(JSON.parse(readFileSync(join(whole, "config.json"), "utf8")).algo).toBe(algo);
  expect(readFileSync(join(whole, "curve.svg"), "utf8")).toMatch(/^<svg/);

  const first = await interrupted(["train", algo, ...args, "--out", cut], when);
  expect(first.sent).toBe(true);
  // Stopped by SIGINT: exit 130, as every interrupted command here.
  expect(first.code).toBe(130);
  // It really stopped early: otherwise this would test nothing.
  expect(first.stderr).toContain(`stopped; \`penguin train --resume ${cut}\` continues`);
  expect(metrics(cut, timing).length).toBeLessThan(metrics(whole, timing).length);
  const again = penguin(["train", "--resume", cut]);
  expectOnlyProgress(again.stderr);
  expect(again.code).toBe(0);
  expect(readFileSync(join(cut, weights)).equals(readFileSync(join(whole, weights)))).toBe(true);
  expect(metrics(cut, timing)).toEqual(metrics(whole, timing));
}

const POLICY_TIMING = ["env_steps_per_s", "samples_per_s", "wall_s", "cpu_s"];

describe("penguin train <algo> from the CLI at a tiny budget", () => {
  it("ppo: run folder, and SIGINT + --resume ends as the uninterrupted run", async () => {
    const args = [
      "--envs",
      "8",
      "--rollout-steps",
      "32",
      "--minibatches",
      "2",
      "--ppo-epochs",
      "2",
      "--hidden",
      "128",
      "--total-steps",
      "2048",
      "--eval-deals",
      "3",
      "--eval-during",
      "2",
      "--eval-every",
      "2",
      "--checkpoint-every",
      "100",
      "--max-steps",
      "80",
    ];
    await checkResume("ppo", args, / update \d+/, "checkpoint/weights.bin", POLICY_TIMING);
  }, 60_000);

  it("ppo --policy safety: starts from the shipped network, plays as the safety agent, resumes exactly", async () => {
    const args = [
      "--policy",
      "safety",
      "--policy-temperature",
      "0.2",
      "--envs",
      "4",
      "--rollout-steps",
      "16",
      "--minibatches",
      "2",
      "--ppo-epochs",
      "2",
      "--hidden",
      "16",
      "--total-steps",
      "256",
      "--lr",
      "1e-4",
      "--vf-lr-scale",
      "10",
      "--value-warmup",
      "1",
      "--eval-deal-start",
      "700000",
      "--eval-deals",
      "2",
      "--eval-during",
      "2",
      "--eval-every",
      "2",
      "--checkpoint-every",
      "100",
      "--max-steps",
      "120",
    ];
    await checkResume(
      "ppo",
      args,
      / update \d+/,
      "checkpoint/weights.bin",
      POLICY_TIMING,
      "ppo-safety",
    );
    const whole = join(dir, "ppo-safety-whole");
    // The curve starts at the network it starts from; the run trained it (the weights moved).
    const rows = metrics(whole, POLICY_TIMING);
    expect(rows[1]).toMatch(/^ppo,0,0,0,/);
    const shipped = readFileSync(join(root, "models/safety/weights.bin"));
    const trained = readFileSync(join(whole, "checkpoint/weights.bin"));
    expect(trained.length).toBe(shipped.length);
    expect(trained.equals(shipped)).toBe(false);
    // The safety agent plays the result, and its games are the run's own greedy games.
    const played = penguin([
      "eval",
      "--agent",
      "safety",
      "--agent-opt",
      `model=${whole}`,
      "--seed",
      "700000",
      "--deals",
      "2",
      "--max-steps",
      "120",
      "--no-timing",
      "--json",
    ]);
    expect(played.code).toBe(0);
    const final = JSON.parse(readFileSync(join(whole, "final.json"), "utf8"));
    const evaluated = JSON.parse(played.stdout);
    expect([evaluated.wins, evaluated.meanCardsHome]).toEqual([final.wins, final.meanCardsHome]);
    // While the value head warms up the policy holds still, byte for byte.
    const warm = join(dir, "ppo-safety-warm");
    const warmArgs = args.map((a, i) => (args[i - 1] === "--value-warmup" ? "100" : a));
    const held = penguin(["train", "ppo", ...warmArgs, "--out", warm]);
    expect(held.code).toBe(0);
    expect(readFileSync(join(warm, "checkpoint/weights.bin")).equals(shipped)).toBe(true);
    // Its flags belong to the safety policy: elsewhere they are refused in one line.
    const refused = penguin(["train", "ppo", "--model", "models/safety", "--out", join(dir, "no")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      "penguin: --model needs --policy safety: the other policies start from random weights",
    );
    expect(existsSync(join(dir, "no"))).toBe(false);
  }, 120_000);

  it("es: SIGINT + --resume ends as the uninterrupted run; --resume refuses a changed setting", async () => {
    const args = [
      "--es-pop",
      "4",
      "--es-deals",
      "16",
      "--es-generations",
      "6",
      "--validation-deals",
      "8",
      "--es-val-every",
      "2",
      "--max-steps",
      "200",
      "--lr-schedule",
      "linear",
    ];
    await checkResume("es", args, /generation 0:/, "checkpoint/weights.bin", [
      "games_per_s",
      "wall_s",
    ]);
    const refused = penguin(["train", "--resume", join(dir, "es-cut"), "--es-pop", "5"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /only --max-minutes --es-generations --workers may change \(got --es-pop\)/,
    );
  }, 60_000);

  it("safety: SIGINT + --resume ends as the uninterrupted run, to the last step's weights", async () => {
    // Three labelled deals: seed 1000000 (seed % 10 = 0) gives the validation moves, the other two the training moves.
    const data = join(dir, "safety-data");
    const made = penguin([
      "dataset",
      "--agent",
      "safe,greedy:heuristic=tuned",
      "--deals",
      "3",
      "--shard-deals",
      "1",
      "--max-states",
      "20000",
      "--out",
      data,
      "--quiet",
    ]);
    expect(made.code).toBe(0);
    const args = [
      "--data",
      data,
      "--safety-epochs",
      "2",
      "--safety-batch",
      "8",
      "--keep-safe",
      "1",
      "--validation-deals",
      "1",
      "--thresholds",
      "0.5",
      "--column-hidden",
      "8",
      "--head-hidden",
      "8",
    ];
    await checkResume("safety", args, /epoch 0\.\d+:/, "checkpoint/weights.bin", [
      "samples_per_cpu_s",
      "wall_s",
    ]);
    const last = (run: string): string =>
      JSON.parse(readFileSync(join(dir, run, "final.json"), "utf8")).lastWeightsSha256;
    expect(last("safety-cut")).toMatch(/^[0-9a-f]{64}$/);
    expect(last("safety-cut")).toBe(last("safety-whole"));
    // Killed outright (SIGKILL, no chance to save) after its first validation point saved resume/:
    // --resume continues from there to the uninterrupted run's last weights.
    const killed = join(dir, "safety-killed");
    const p = spawn("node", ["bin/penguin.js", "train", "safety", ...args, "--out", killed], {
      cwd: root,
      env,
    });
    const closed = new Promise<NodeJS.Signals | null>((r) => p.on("close", (_c, sig) => r(sig)));
    while (!existsSync(join(killed, "resume", "state.json")) && p.exitCode === null)
      await new Promise((r) => setTimeout(r, 20));
    p.kill("SIGKILL");
    expect(await closed).toBe("SIGKILL");
    expect(existsSync(join(killed, "final.json"))).toBe(false);
    const resumed = penguin(["train", "--resume", killed]);
    expect(resumed.code).toBe(0);
    expect(last("safety-killed")).toBe(last("safety-whole"));
    expect(metrics(killed, ["samples_per_cpu_s", "wall_s"])).toEqual(
      metrics(join(dir, "safety-whole"), ["samples_per_cpu_s", "wall_s"]),
    );
    // last/ holds that network as a playable checkpoint, the same after a resume.
    const lastNet = (run: string): Buffer => readFileSync(join(dir, run, "last", "weights.bin"));
    expect(lastNet("safety-cut").equals(lastNet("safety-whole"))).toBe(true);
    const played = penguin([
      "eval",
      "--agent",
      "safety",
      "--agent-opt",
      `model=${join(dir, "safety-cut", "last")}`,
      "--deals",
      "1",
      "--no-timing",
      "--out",
      join(dir, "last.csv"),
    ]);
    expect(played.code).toBe(0);
    // A finished run keeps no state to continue from.
    const again = penguin(["train", "--resume", join(dir, "safety-cut")]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/has no resume\/ checkpoint: a finished run is done/);
  }, 60_000);

  it("each algorithm refuses the flags of another, naming its own help", () => {
    const r = penguin(["train", "--algo", "es", "--total-steps", "5", "--out", join(dir, "never")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown arguments?: total-steps/);
    expect(existsSync(join(dir, "never"))).toBe(false);
    const help = penguin(["train", "es", "--help"]);
    expect(help.stdout).toContain("--es-sigma");
    expect(help.stdout).not.toContain("--total-steps");
  });
});
