/**
 * The Python bridge against the engine in-process, measured in one run on Penguin-v3 (move limit
 * BENCH_MAX_STEPS, as in the env section):
 * `inProcessEnvStepsPerSec` / `inProcessVecEnvStepsPerSec` (PenguinEnv and VecEnv(64), as in the
 * env section) beside `bridgeEnvStepsPerSec` / `bridgeVecEnvStepsPerSec` (python/penguin_gym's
 * PenguinEnv and PenguinVectorEnv(64) driving the same engine in a Node child process), all with
 * uniformly random legal actions, resets included, per CPU second (the bridge's count every
 * thread of both the Python and the Node process; `bridge*PythonMicros` / `bridge*EngineMicros`
 * split that CPU per step, or per batch step of 64). `bridgeVecShare` is bridge / in-process for
 * the vector of 64: the median of the rounds' shares, listed in `bridgeVecShares`.
 * Both sides play BRIDGE_BENCH_WARMUP CPU seconds (default 1) before each figure: the bridge's
 * engine is a fresh Node process per figure, whose V8 needs about half a second to compile its
 * hot paths, and the in-process side is warmed alike.
 * Needs a Python with numpy and gymnasium: PENGUIN_PYTHON names it (default python3); without
 * one the section reports why it was skipped. Run alone: `npm run bench -- bridge`.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_MAX_STEPS, envStepsPerSec, vecEnvStepsPerSec } from "./env.bench.js";

const SECONDS = Number(process.env.BRIDGE_BENCH_SECONDS ?? 1);
const ROUNDS = Number(process.env.BRIDGE_BENCH_ROUNDS ?? 5);
const WARMUP = Number(process.env.BRIDGE_BENCH_WARMUP ?? 1);
const ID = "Penguin-v3";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export default async function bridgeBench(): Promise<
  Record<string, Record<string, number | string>>
> {
  const python = process.env.PENGUIN_PYTHON ?? "python3";
  const env = { ...process.env, PYTHONPATH: join(root, "python") };
  const probe = spawnSync(python, ["-c", "import numpy, gymnasium"], { env, encoding: "utf8" });
  if (probe.status !== 0) {
    const why = `${python} cannot import numpy and gymnasium (set PENGUIN_PYTHON to a Python that can)`;
    process.stderr.write(`bench: bridge skipped: ${why}\n`);
    return { penguin: { bridgeSkipped: why } };
  }
  // Load on a shared machine drifts within seconds, so the two sides alternate: each bridge env
  // comes right after an in-process env, for ROUNDS rounds; then each bridge vector comes between
  // two in-process vectors and is compared with their mean. Each figure is the median over the
  // rounds; the vector's share, the median of the rounds' shares.
  const bridgeRun = (only: string): Record<string, number> => {
    const run = spawnSync(
      python,
      [
        "-m",
        "penguin_gym.bench",
        "--json",
        "--only",
        only,
        "--id",
        ID,
        "--seconds",
        String(SECONDS),
        "--warmup",
        String(WARMUP),
        "--max-steps",
        String(BENCH_MAX_STEPS),
        "--engine",
        root,
      ],
      { env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    if (run.status !== 0)
      throw new Error(`python -m penguin_gym.bench failed (exit ${run.status})`);
    return JSON.parse(run.stdout) as Record<string, number>;
  };
  const rounds: Record<string, number>[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const [inProcessEnv] = envStepsPerSec(ID, SECONDS, WARMUP);
    rounds.push({ ...bridgeRun("env"), inProcessEnv });
  }
  let inProcessVec = vecEnvStepsPerSec(ID, SECONDS, WARMUP);
  for (const round of rounds) {
    const vec = bridgeRun("vec");
    const before = inProcessVec;
    inProcessVec = vecEnvStepsPerSec(ID, SECONDS, WARMUP);
    const share = vec.bridgeVecEnvStepsPerSec! / ((before + inProcessVec) / 2);
    Object.assign(round, vec, { inProcessVec, share });
  }
  const median = (k: string): number =>
    rounds.map((r) => r[k]!).sort((x, y) => x - y)[Math.floor(ROUNDS / 2)]!;
  return {
    penguin: {
      envId: ID,
      inProcessEnvStepsPerSec: Math.round(median("inProcessEnv")),
      bridgeEnvStepsPerSec: median("bridgeEnvStepsPerSec"),
      bridgeEnvPythonMicros: median("bridgeEnvPythonMicros"),
      bridgeEnvEngineMicros: median("bridgeEnvEngineMicros"),
      inProcessVecEnvStepsPerSec: Math.round(median("inProcessVec")),
      bridgeVecEnvStepsPerSec: median("bridgeVecEnvStepsPerSec"),
      bridgeVecPythonMicros: median("bridgeVecPythonMicros"),
      bridgeVecEngineMicros: median("bridgeVecEngineMicros"),
      bridgeVecShare: Math.round(median("share") * 100) / 100,
      bridgeVecShares: rounds.map((r) => r.share!.toFixed(2)).join(" "),
      bridgeRounds: ROUNDS,
      bridgeWarmupSeconds: WARMUP,
    },
  };
}
