/**
 * The atlas through a real SLURM cluster: a one-node cluster of Debian's slurm-wlm and munge
 * (installed by .ci/run) started here (munged, `slurmctld -D`, `slurmd -D`, from a slurm.conf
 * this test writes), a small atlas submitted by scripts/atlas/submit-slurm.sh as a 4-task
 * array with its dependent merge, and the merged atlas compared byte for byte with a
 * single-process run. Every daemon started here is stopped by its PID. Skipped, with the reason
 * printed, only where the packages are not installed.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { hostname, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAtlas } from "../../experiments/atlas.js";
import { atlasFiles } from "./fixtures/atlas-files.js";

const root = join(import.meta.dirname, "../..");
const DAEMONS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scancel"];

function which(cmd: string): string | undefined {
  for (const d of [
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
    ...(process.env.PATH ?? "").split(":"),
  ])
    if (d && existsSync(join(d, cmd))) return join(d, cmd);
  return undefined;
}

const missing = DAEMONS.filter((d) => !which(d));
if (missing.length > 0)
  console.log(
    `atlas-slurm: skipped: ${missing.join(", ")} not installed (apt-get install slurm-wlm munge; .ci/run does)`,
  );

/** A TCP port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(missing.length > 0)("the atlas on a one-node SLURM cluster", () => {
  const dir = mkdtempSync(join(tmpdir(), "penguin-slurm-"));
  const started: ChildProcess[] = [];
  const env = { ...process.env, SLURM_CONF: join(dir, "slurm.conf") };
  const node = hostname().split(".")[0]!;
  const run = (cmd: string, args: string[]) =>
    spawnSync(which(cmd)!, args, { env, encoding: "utf8", timeout: 30_000 });
  const daemon = (cmd: string, args: string[]): ChildProcess => {
    const p = spawn(which(cmd)!, args, { env, stdio: ["ignore", "ignore", "ignore"] });
    started.push(p);
    return p;
  };
  const log = (s: string): void => void process.stdout.write(`atlas-slurm: ${s}\n`);

  beforeAll(async () => {
    // munged checks that the socket's folder is reachable by all and the key readable by its owner only.
    chmodSync(dir, 0o755);
    for (const d of ["state", "spool", "logs"]) mkdirSync(join(dir, d));
    writeFileSync(join(dir, "munge.key"), randomBytes(1024), { mode: 0o400 });
    const sock = join(dir, "munge.sock");
    daemon("munged", [
      "-F",
      "--force",
      `--socket=${sock}`,
      `--key-file=${join(dir, "munge.key")}`,
      `--pid-file=${join(dir, "munged.pid")}`,
      `--seed-file=${join(dir, "munged.seed")}`,
      `--log-file=${join(dir, "munged.log")}`,
    ]);
    for (let i = 0; i < 50 && !existsSync(sock); i++) await sleep(100);
    const [ctldPort, dPort] = [await freePort(), await freePort()];
    const user = userInfo().username;
    writeFileSync(
      env.SLURM_CONF,
      [
        "ClusterName=atlastest",
        `SlurmctldHost=${node}(127.0.0.1)`,
        `SlurmctldPort=${ctldPort}`,
        `SlurmdPort=${dPort}`,
        `SlurmUser=${user}`,
        `SlurmdUser=${user}`,
        "AuthType=auth/munge",
        "CredType=cred/munge",
        `AuthInfo=socket=${sock}`,
        `StateSaveLocation=${join(dir, "state")}`,
        `SlurmdSpoolDir=${join(dir, "spool")}`,
        `SlurmctldPidFile=${join(dir, "slurmctld.pid")}`,
        `SlurmdPidFile=${join(dir, "slurmd.pid")}`,
        `SlurmctldLogFile=${join(dir, "slurmctld.log")}`,
        `SlurmdLogFile=${join(dir, "slurmd.log")}`,
        // No cgroups: processes tracked by their parent pids, no task binding.
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SchedulerType=sched/builtin",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_CPU",
        "MpiDefault=none",
        "ReturnToService=2",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "JobCompType=jobcomp/none",
        `NodeName=${node} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN`,
        "PartitionName=atlas Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
        "",
      ].join("\n"),
    );
    daemon("slurmctld", ["-D", "-c", "-f", env.SLURM_CONF]);
    daemon("slurmd", ["-D", "-N", node, "-f", env.SLURM_CONF]);
    for (let i = 0; i < 100; i++) {
      if (/idle/.test(run("sinfo", ["-h", "-o", "%t"]).stdout ?? "")) break;
      await sleep(200);
    }
  });

  afterAll(async () => {
    run("scancel", ["--user", userInfo().username]);
    // Stop what this test started, by PID, in reverse order; SIGKILL what outlives 5 s.
    const stopped: string[] = [];
    for (const p of started.reverse()) {
      if (p.exitCode !== null || p.signalCode !== null) continue;
      p.kill("SIGTERM");
      for (let i = 0; i < 50 && p.exitCode === null && p.signalCode === null; i++) await sleep(100);
      if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
      stopped.push(`${p.spawnfile.split("/").pop()} (pid ${p.pid})`);
    }
    log(`stopped ${stopped.join(", ")}`);
  });

  it("a 4-task array and its merge give what one process writes, byte for byte", async () => {
    expect(run("sinfo", ["-h", "-o", "%t"]).stdout.trim()).toBe("idle");
    const args = ["--rows", "penguin-7,penguin-3", "--deals", "120", "--agent", "solver,greedy"];
    const t0 = Date.now();
    const submit = spawnSync(
      join(root, "scripts/atlas/submit-slurm.sh"),
      ["4", ...args, "--out", join(dir, "slurm-atlas")],
      { env: { ...env, ATLAS_LOGS: join(dir, "logs") }, encoding: "utf8" },
    );
    expect(submit.stderr).toBe("");
    expect(submit.status).toBe(0);
    const [array, merge] = submit.stdout.trim().split(" ");
    log(`submitted array job ${array} (4 tasks) and merge job ${merge}`);
    for (let i = 0; i < 300; i++) {
      if (run("squeue", ["-h", "-j", `${array},${merge}`]).stdout.trim() === "") break;
      await sleep(200);
    }
    log(`array and merge done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const mergeLog = readFileSync(
      join(dir, "logs", `slurm-penguin-atlas-merge-${merge}.out`),
      "utf8",
    );
    log(`merge job's output:\n${mergeLog.trimEnd()}`);
    const ledger = readFileSync(join(dir, "slurm-atlas", "shards.csv"), "utf8");
    expect(ledger.match(/,[0-3]\/4,30,/g)).toHaveLength(16);

    const one = join(dir, "one-process");
    await runAtlas(["--quiet", ...args, "--out", one]);
    expect(atlasFiles(join(dir, "slurm-atlas"))).toEqual(atlasFiles(one));
    log(`byte for byte: ${Object.keys(atlasFiles(one)).join(", ")}`);
  });
});
