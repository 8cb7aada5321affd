/**
 * Started through a wrapper (`npx tsx …`, `npm run …`, `npm exec`), a long run is a chain of
 * processes: npm → sh -c → tsx → node. A wrapper killed with SIGKILL cannot pass the signal on,
 * and the real node process would keep running and writing. `exitWithWrappers` records the
 * wrapper processes above this one at start and calls `onOrphan` (which should save and exit)
 * as soon as one of them is gone. A process started directly (`node …`, a shell, nohup, a job
 * scheduler) has no wrapper above it and is never stopped this way. Linux only (reads /proc);
 * elsewhere it does nothing.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}

function parentOf(pid: number): number {
  const stat = readProc(pid, "stat");
  // Fields after the command name, which is in parentheses and may hold spaces: state ppid …
  const rest = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  return rest ? Number(rest[1]) : 0;
}

/** npm, npx, tsx, or the `sh -c` npm runs a script through. */
export function isWrapper(args: readonly string[]): boolean {
  const exe = basename(args[0] ?? "");
  if (/^(npm|npx|tsx)$/.test(exe)) return true;
  if (/^(sh|bash|dash)$/.test(exe)) return args[1] === "-c";
  if (/^node(js)?$/.test(exe) || exe === "")
    return args
      .slice(1, 3)
      .some((a) =>
        /(^|\/)(npm|npx|tsx)(-cli)?(\.c?js|\.mjs)?$|\/tsx\/dist\/cli\.[cm]?js$|\/bin\/(npm|npx)-cli\.js$/.test(
          a,
        ),
      );
  return false;
}

/** The wrapper processes directly above this one (closest first). */
function wrapperChain(): number[] {
  const chain: number[] = [];
  for (let pid = process.ppid; pid > 1 && chain.length < 8; pid = parentOf(pid)) {
    const cmdline = readProc(pid, "cmdline");
    if (cmdline === undefined || !isWrapper(cmdline.split("\0").filter((s) => s !== ""))) break;
    chain.push(pid);
  }
  return chain;
}

/**
 * Whether process `pid` runs. A zombie (killed, not yet reaped: common in containers whose
 * init does not reap) counts as gone; EPERM means it exists but belongs to another user.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
  const stat = readProc(pid, "stat");
  return (
    stat === undefined || stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  );
}

/** Polls the wrapper chain every `everyMs` (unref'd: never keeps the process up). Returns a stop function. */
export function exitWithWrappers(onOrphan: () => void, everyMs = 500): () => void {
  const chain = wrapperChain();
  if (chain.length === 0) return () => {};
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent || !chain.every(isAlive)) {
      clearInterval(timer);
      onOrphan();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
