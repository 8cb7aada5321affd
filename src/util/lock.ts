/**
 * An exclusive lock on an output file, so two runs never append to the same file: a lock file
 * `<file>.lock` beside it, created with O_EXCL and holding `pid host`. A lock whose process is
 * gone (same host, no such pid) is stale, left by a killed run, and is taken over; a lock held
 * by a live process, or by another host (which cannot be checked from here), is a UsageError.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describeCode, OutputError, UsageError } from "../errors.js";
import { removeStaleTemps } from "./output.js";
import { isAlive } from "./parent.js";
import { printable } from "./text.js";

export interface Lock {
  readonly path: string;
  release(): void;
}

/** Whether the lock at `path` was left by a process that no longer runs. */
function isStale(path: string): { stale: boolean; holder: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8").slice(0, 300);
  } catch {
    return { stale: false, holder: "another process" };
  }
  const m = /^(\d+) (\S+)\n?$/.exec(text);
  if (!m) {
    // Created but not yet written (or cut short by a kill): stale only once it is old.
    let age = 0;
    try {
      age = Date.now() - statSync(path).mtimeMs;
    } catch {
      return { stale: true, holder: "" };
    }
    return { stale: age > 10_000, holder: "another process" };
  }
  const pid = Number(m[1]);
  const host = m[2]!;
  const holder = `process ${pid} on ${printable(host)}`;
  if (host !== hostname()) return { stale: false, holder };
  return { stale: pid !== process.pid && !isAlive(pid), holder };
}

const held = new Set<string>();
let exitHook = false;

/**
 * Takes the lock of `file` (an output path with links resolved), or throws UsageError. An
 * existing file is also locked by its inode (device and inode number, in the system's temp
 * folder), so two paths of one file (hard links) cannot be written at once either.
 */
export function lockFile(file: string): Lock {
  const own = lockPath(`${file}.lock`, file);
  // This run is now the file's one writer: temp files of killed writers (file.PID.N.tmp) go.
  removeStaleTemps(dirname(file), `${basename(file)}.`);
  let st: Stats | undefined;
  try {
    st = statSync(file);
  } catch {
    return own;
  }
  try {
    mkdirSync(INODE_LOCKS, { recursive: true });
    const inode = lockPath(join(INODE_LOCKS, `${st.dev}-${st.ino}.lock`), file);
    return {
      path: own.path,
      release() {
        inode.release();
        own.release();
      },
    };
  } catch (e) {
    own.release();
    throw e;
  }
}

/** Folder of the inode locks (see lockFile). */
const INODE_LOCKS = join(tmpdir(), "penguin-gym-locks");

/** Takes the lock of a whole output folder (a dataset, a training run): `dir/.lock`. */
export function lockFolder(dir: string): Lock {
  return lockPath(join(dir, ".lock"), dir);
}

/** Takes the lock file at `path` for the output `file`, or throws UsageError. */
function lockPath(path: string, file: string): Lock {
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx");
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== "EEXIST")
        throw new UsageError(`cannot create the lock ${printable(path)}: ${code ?? String(e)}`);
      let { stale, holder } = isStale(path);
      // A holder killed a moment ago may still be exiting: give it a second to be gone.
      for (
        let waited = 0;
        !stale && waited < 1000 && holder.endsWith(` on ${hostname()}`);
        waited += 50
      ) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        ({ stale, holder } = isStale(path));
      }
      if (stale) {
        rmSync(path, { force: true });
        continue;
      }
      throw new UsageError(
        `${printable(file)} is being written by ${holder} (lock ${printable(path)}); wait for it to finish, or delete the lock if that run is gone`,
      );
    }
    try {
      writeSync(fd, `${process.pid} ${hostname()}\n`);
    } catch (e) {
      // A full disk: an empty lock left here would block the next run for nothing.
      closeSync(fd);
      rmSync(path, { force: true });
      throw new OutputError(`cannot write the lock ${printable(path)}: ${describeCode(e)}`);
    }
    closeSync(fd);
    held.add(path);
    if (!exitHook) {
      exitHook = true;
      // process.exit() from a signal handler skips finally blocks; the lock goes anyway.
      process.on("exit", () => {
        for (const p of held) rmSync(p, { force: true });
      });
    }
    return {
      path,
      release() {
        if (held.delete(path)) rmSync(path, { force: true });
      },
    };
  }
  throw new UsageError(`cannot take the lock ${printable(path)}: another run keeps replacing it`);
}
