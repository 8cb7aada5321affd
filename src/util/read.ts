/**
 * Reading input files with bounded memory. Every read refuses what is not a regular file (a
 * directory, a device such as /dev/full or /dev/zero that never ends, a FIFO that would block)
 * and anything larger than the caller's cap, with a UsageError naming the file and the limit.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { UsageError } from "../errors.js";
import { printable } from "./text.js";

export const KiB = 1024;
export const MiB = 1024 * KiB;

function errCode(e: unknown): string {
  return (e as { code?: string }).code ?? (e instanceof Error ? e.message : String(e));
}

function sizeText(bytes: number): string {
  return bytes >= MiB
    ? `${(bytes / MiB).toFixed(1)} MiB`
    : bytes >= KiB
      ? `${(bytes / KiB).toFixed(1)} KiB`
      : `${bytes} bytes`;
}

/**
 * Opens `path` for reading if it is a regular file (O_NONBLOCK, so opening a FIFO cannot hang
 * before it is refused). `what` names it in messages ("board file", "shard CSV"). `flags`
 * "r+" opens it for reading and writing (a file being resumed).
 */
export function openRegularFile(
  path: string,
  what: string,
  flags: "r" | "r+" = "r",
): { fd: number; size: number } {
  const name = `${what} ${printable(path)}`;
  let fd: number;
  try {
    fd = openSync(
      path,
      (flags === "r" ? constants.O_RDONLY : constants.O_RDWR) | constants.O_NONBLOCK,
    );
  } catch (e) {
    const code = errCode(e);
    if (code === "ENOENT") throw new UsageError(`${name} does not exist`);
    if (code === "EISDIR") throw new UsageError(`${name} is a directory: name a file`);
    throw new UsageError(`cannot read ${name}: ${code}`);
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    const kind = st.isDirectory()
      ? "a directory"
      : st.isFIFO()
        ? "a FIFO (named pipe)"
        : st.isCharacterDevice()
          ? "a character device"
          : "not a regular file";
    throw new UsageError(`${name} is ${kind}: name a regular file`);
  }
  return { fd, size: st.size };
}

/** The whole of a regular file as UTF-8 text, refused when larger than `maxBytes`. */
export function readTextFile(path: string, o: { maxBytes: number; what: string }): string {
  return readBytesFile(path, o).toString("utf8");
}

/**
 * A run's or a dataset's JSON and CSV bookkeeping (config.json, index.json, state files,
 * metrics.csv): far above what any run writes, far below the memory a runaway file would take.
 */
export const MAX_RUN_FILE_BYTES = 64 * MiB;

/** Checkpoints (network weights, optimiser state): far above any network here, far below the memory. */
export const MAX_CHECKPOINT_BYTES = 512 * MiB;

/** The whole of a regular file, refused when larger than `maxBytes`. */
export function readBytesFile(path: string, o: { maxBytes: number; what: string }): Buffer {
  const { fd, size } = openRegularFile(path, o.what);
  try {
    const tooBig = (): UsageError =>
      new UsageError(
        `${o.what} ${printable(path)} is larger than ${sizeText(o.maxBytes)} (${sizeText(Math.max(size, o.maxBytes + 1))}): not a file this tool reads`,
      );
    if (size > o.maxBytes) throw tooBig();
    // Read at most maxBytes + 1 whatever fstat said: a file may grow while it is read.
    const buf = Buffer.allocUnsafe(Math.min(o.maxBytes + 1, Math.max(size + 1, 64 * KiB)));
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (got > o.maxBytes) throw tooBig();
        break;
      }
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > o.maxBytes) throw tooBig();
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Throws the UsageError openRegularFile would (missing, directory, device, FIFO); else nothing. */
export function checkRegularFile(path: string, what: string): void {
  closeSync(openRegularFile(path, what).fd);
}

/**
 * The lines of a stream (without their ends, a final unterminated line included), each at most
 * `maxChars` long: a longer line (say from /dev/zero, which has none) is a UsageError quoting
 * only its first few characters, thrown as soon as the limit is passed, so memory stays small.
 */
export async function* boundedLines(
  input: AsyncIterable<Buffer | string>,
  o: { maxChars: number; what: string },
): AsyncGenerator<string> {
  let pending = "";
  let n = 0;
  const tooLong = (text: string): UsageError =>
    new UsageError(
      `${o.what} line ${n + 1} is longer than ${o.maxChars} characters (it starts "${printable(text.slice(0, 20))}…")`,
    );
  for await (const chunk of input) {
    pending += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
      const line = pending.slice(0, i).replace(/\r$/, "");
      pending = pending.slice(i + 1);
      if (line.length > o.maxChars) throw tooLong(line);
      n++;
      yield line;
    }
    if (pending.length > o.maxChars) throw tooLong(pending);
  }
  if (pending !== "") yield pending;
}
