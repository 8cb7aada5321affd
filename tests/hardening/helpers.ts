/** Real processes for the hardening tests: the `penguin` command, scripts through tsx, and /proc. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const root = join(import.meta.dirname, "../..");
export const tsx = join(root, "node_modules/.bin/tsx");

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (with a time limit: a hang fails the test instead of stalling it). */
export function run(
  cmd: string,
  args: readonly string[],
  o: { timeoutMs?: number; env?: Record<string, string>; input?: string } = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", ...o.env },
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => p.kill("SIGKILL"), o.timeoutMs ?? 60_000);
    // A child that stops reading (exits on a bad line) must not fail the test with EPIPE.
    p.stdin.on("error", () => {});
    if (o.input !== undefined) p.stdin.end(o.input);
    else p.stdin.end();
    p.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export const penguin = (args: readonly string[], o?: Parameters<typeof run>[2]): Promise<Ran> =>
  run(process.execPath, ["bin/penguin.js", ...args], o);
export const script = (
  path: string,
  args: readonly string[],
  o?: Parameters<typeof run>[2],
): Promise<Ran> => run(tsx, [path, ...args], o);

/** A fresh folder under the system temp dir, removed by the returned function. */
export function tempDir(tag: string): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `penguin-${tag}-`));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

export function mkfifo(path: string): void {
  const r = spawnSync("mkfifo", [path]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
}

/** One line on stderr, as every bad-input error must be. */
export function oneLine(r: Ran): string {
  const lines = r.stderr.trim().split("\n");
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got:\n${r.stderr}`);
  return lines[0]!;
}

/** Children of `pid` (from /proc). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  for (let t = 0; t < ms; t += 50) {
    if (cond()) return true;
    await sleep(50);
  }
  return cond();
}

export type { ChildProcess };
