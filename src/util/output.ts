/**
 * Where an output path really writes, and writing it without damage.
 *
 * - A regular file, or a path that does not exist yet, is replaced whole: the text goes to a
 *   temp file beside it, which is renamed over it, so a reader never sees half a file.
 * - A symlink is followed (to the end of its chain, even when the last target does not exist
 *   yet) and its target is written; the link itself stays a link.
 * - A directory, a block device or a socket is refused with a UsageError naming what it is.
 * - A character device (`/dev/null`, a terminal, `/dev/stdout`) or a FIFO is never replaced. A
 *   whole-file output (`writeOutput`) writes to it directly, as a stream; a resumable output,
 *   which must be read back, refuses it. A FIFO with no reader is refused instead of waiting.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describeCode, OutputError, UsageError } from "../errors.js";
import { isAlive } from "./parent.js";
import { printable } from "./text.js";

export type OutputTarget =
  /** A regular file (or a new one) at `path`, the end of any symlink chain. */
  | { readonly kind: "file"; readonly path: string; readonly exists: boolean }
  /** A character device or FIFO: written in place, never replaced or read back. */
  | { readonly kind: "stream"; readonly path: string; readonly what: string };

function kindOf(st: Stats): string {
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "a directory";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

function errCode(e: unknown): string {
  return (e as { code?: string }).code ?? (e instanceof Error ? e.message : String(e));
}

/** Follows symlinks from `path` to the first path that is not one (it may not exist). */
function followLinks(path: string): string {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch (e) {
      if (errCode(e) === "ENOENT") return p;
      throw e;
    }
    if (!st.isSymbolicLink()) return p;
    p = resolve(dirname(p), readlinkSync(p));
  }
  throw new UsageError(`${printable(path)}: too many levels of symbolic links`);
}

/**
 * What writing `path` means. `stream`: whether a device or FIFO may be written directly (only
 * for outputs that are never read back). `what` names the option in messages, e.g. "--out".
 */
export function outputTarget(path: string, o: { stream: boolean; what?: string }): OutputTarget {
  const label = `${o.what ? `${o.what} ` : ""}${printable(path)}`;
  if (path.trim() === "") throw new UsageError(`${o.what ?? "output"} needs a file name`);
  let st: Stats | undefined;
  try {
    // The kernel follows the links: this also resolves /dev/stdout → /proc/self/fd/1 → a pipe.
    st = statSync(path);
  } catch (e) {
    if (errCode(e) !== "ENOENT") throw new UsageError(`cannot write ${label}: ${errCode(e)}`);
  }
  if (!st) {
    // A new file, or a dangling link: create the link's final target.
    const real = followLinks(path);
    let parent: Stats;
    try {
      parent = statSync(dirname(real));
    } catch {
      throw new UsageError(
        `cannot write ${label}: its folder ${printable(dirname(real))} does not exist`,
      );
    }
    if (!parent.isDirectory())
      throw new UsageError(`cannot write ${label}: ${printable(dirname(real))} is not a folder`);
    return { kind: "file", path: real, exists: false };
  }
  if (st.isFile()) return { kind: "file", path: realpathSync(path), exists: true };
  const what = kindOf(st);
  if (st.isDirectory()) throw new UsageError(`${label} is a directory: name a file inside it`);
  const streamable =
    st.isCharacterDevice() || st.isFIFO() || (st.isSocket() && inheritedFd(path) !== undefined);
  if (streamable && o.stream) return { kind: "stream", path, what };
  if (streamable)
    throw new UsageError(
      `${label} is ${what}: this output is read back to resume a run, so it must be a regular file`,
    );
  throw new UsageError(`${label} is ${what}: name a regular file`);
}

/** n for /dev/stdout, /dev/stderr, /dev/fd/n and /proc/self/fd/n (followed through links). */
function inheritedFd(path: string): number | undefined {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    const m =
      /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(p) ??
      (/^\/dev\/std(out|err)$/.exec(p) ? [p, p.endsWith("out") ? "1" : "2"] : null);
    if (m) return Number(m[1]);
    try {
      if (!lstatSync(p).isSymbolicLink()) return undefined;
      p = resolve(dirname(p), readlinkSync(p));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Opens a stream target for writing; a FIFO nobody reads is refused instead of blocking. */
function openStream(t: Extract<OutputTarget, { kind: "stream" }>): { fd: number; own: boolean } {
  // The process's own stdout/stderr (a pipe or socket when run by another program): write to it.
  const inherited = inheritedFd(t.path);
  if (inherited !== undefined) return { fd: inherited, own: false };
  return { fd: openPath(t), own: true };
}

function openPath(t: Extract<OutputTarget, { kind: "stream" }>): number {
  try {
    // O_NONBLOCK makes open(2) fail with ENXIO when a FIFO has no reader; on success a reader
    // is there, so the blocking open below returns at once.
    closeSync(openSync(t.path, constants.O_WRONLY | constants.O_NONBLOCK));
    return openSync(t.path, constants.O_WRONLY);
  } catch (e) {
    if (errCode(e) === "ENXIO")
      throw new UsageError(
        `${printable(t.path)} is a FIFO that no process is reading: start the reader first`,
      );
    throw new UsageError(`cannot write ${printable(t.path)}: ${errCode(e)}`);
  }
}

function writeAll(fd: number, data: Uint8Array): void {
  for (let off = 0; off < data.length; ) off += writeSync(fd, data, off, data.length - off);
}

let tempCounter = 0;

/** A temp file beside `path` that no other process (pid) and no other call (counter) picks. */
function tempPathFor(path: string): string {
  return `${path}.${process.pid}.${++tempCounter}.tmp`;
}

/**
 * Writes `data` as the whole content of `path`: atomically by rename for a regular file (the
 * symlink's target when `path` is a link), directly for a device or FIFO (see outputTarget).
 */
export function writeOutput(
  path: string,
  data: string | Uint8Array,
  o: { what?: string } = {},
): void {
  const t = outputTarget(path, { stream: true, what: o.what });
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  if (t.kind === "stream") {
    const { fd, own } = openStream(t);
    try {
      writeAll(fd, bytes);
    } finally {
      if (own) closeSync(fd);
    }
    return;
  }
  writeFileAtomic(t.path, bytes);
}

/** Temp file + rename onto a regular file's path (callers resolve links first: outputTarget). */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = tempPathFor(path);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "wx");
    writeAll(fd, typeof data === "string" ? Buffer.from(data) : data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw writeFailure(path, e, "the file is as it was");
  }
}

/**
 * A file built piece by piece (a merge of many shards) that appears at its path only when
 * `commit()` is called: a temp file renamed over a regular file, or the stream itself.
 */
export class OutputWriter {
  #fd: number;
  #own = true;
  readonly #tmp: string | undefined;

  constructor(readonly target: OutputTarget) {
    if (target.kind === "stream") {
      ({ fd: this.#fd, own: this.#own } = openStream(target));
      this.#tmp = undefined;
    } else {
      this.#tmp = tempPathFor(target.path);
      try {
        this.#fd = openSync(this.#tmp, "wx");
      } catch (e) {
        throw new UsageError(`cannot write ${printable(target.path)}: ${errCode(e)}`);
      }
    }
  }

  write(data: string | Uint8Array): void {
    try {
      writeAll(this.#fd, typeof data === "string" ? Buffer.from(data) : data);
    } catch (e) {
      throw writeFailure(this.target.path, e, this.#tmp ? "nothing was replaced" : undefined);
    }
  }

  commit(): void {
    try {
      if (this.#tmp) fsyncSync(this.#fd);
      if (this.#own) closeSync(this.#fd);
      this.#fd = -1;
      if (this.#tmp) renameSync(this.#tmp, this.target.path);
    } catch (e) {
      throw writeFailure(this.target.path, e, this.#tmp ? "nothing was replaced" : undefined);
    }
  }

  /** Drops what was written (nothing appears at the path). */
  abort(): void {
    if (this.#fd >= 0 && this.#own) closeSync(this.#fd);
    this.#fd = -1;
    if (this.#tmp) rmSync(this.#tmp, { force: true });
  }
}

/** The regular file an output that is read back (a resumable CSV) writes; anything else is refused. */
export function resumableTarget(
  path: string,
  what = "--out",
): Extract<OutputTarget, { kind: "file" }> {
  const t = outputTarget(path, { stream: false, what });
  if (t.kind !== "file") throw new Error("unreachable: stream targets are refused above");
  return t;
}

/**
 * The error for a write to `path` that failed: a full disk or an I/O error is an OutputError
 * (exit 1) saying what was `kept`; a folder the user may not write is a UsageError (exit 2).
 */
export function writeFailure(path: string, e: unknown, kept?: string): Error {
  if (e instanceof UsageError || e instanceof OutputError) return e;
  const code = (e as { code?: string }).code;
  const what = `cannot write ${printable(path)}: ${describeCode(e)}`;
  if (code === "EACCES" || code === "EPERM" || code === "EROFS")
    return new UsageError(`${what}; name a folder this user may write`);
  if (code === "EPIPE") return e as Error;
  return new OutputError(kept ? `${what}; ${kept}` : what);
}

/**
 * Creates the output folder `dir` (and its parents). A path that is a file, a FIFO or a
 * device, or a folder that cannot be created, is a UsageError naming it and why.
 */
export function makeFolder(dir: string, what = "--out"): void {
  const label = `${what} ${printable(dir)}`;
  let st: Stats | undefined;
  try {
    st = statSync(dir);
  } catch {}
  if (st && !st.isDirectory())
    throw new UsageError(
      `${label} is ${kindOf(st) === "file" ? "a file" : kindOf(st)}: name a folder`,
    );
  if (st) return;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e0) {
    // A recursive mkdir reports ENOENT for a read-only parent: the first missing folder, made
    // alone, gives the real reason.
    let e = e0;
    let first = resolve(dir);
    while (!existsSync(dirname(first)) && dirname(first) !== first) first = dirname(first);
    try {
      mkdirSync(first);
    } catch (e1) {
      e = e1;
    }
    const code = (e as { code?: string }).code;
    if (code === "ENOSPC" || code === "EIO") throw writeFailure(dir, e);
    throw new UsageError(`cannot create ${label}: ${describeCode(e)}`);
  }
}

/**
 * Checks, without creating anything, that the folder `dir` could be created: its nearest
 * existing ancestor is a folder this user may write (else a UsageError naming why).
 */
export function checkCreatable(dir: string, what = "--out"): void {
  let p = resolve(dir);
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  const fail = (why: string): never => {
    throw new UsageError(`cannot create ${what} ${printable(dir)}: ${why}`);
  };
  let st: Stats | undefined;
  try {
    st = statSync(p);
  } catch (e) {
    fail(describeCode(e));
  }
  if (!st?.isDirectory()) fail(`${printable(p)} is not a folder`);
  try {
    accessSync(p, constants.W_OK);
  } catch (e) {
    fail(describeCode(e));
  }
}

/**
 * Removes temporary files and folders a killed run left in `dir`: names `prefix` + `.PID.N.tmp`
 * (writeFileAtomic, OutputWriter) or `prefix` + `.tmp-PID` (a checkpoint's or a shard's folder)
 * whose process is gone. A live process's temp files are left alone.
 */
export function removeStaleTemps(dir: string, prefix = ""): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /\.(\d+)\.\d+\.tmp$/.exec(name) ?? /\.tmp-(\d+)$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
