/**
 * The engine side of the Python bridge (docs/python.md, "Protocol"): one environment, or one
 * VecEnv, driven by length-prefixed binary frames on a pair of file descriptors (stdin and stdout
 * of a child process). Observations and masks travel as the env's own typed-array bytes, written
 * straight from its buffers, so a step costs one round trip and no per-step JSON. Stdin is read
 * synchronously (fs.readSync): the loop never waits on Node's event loop, which would add its
 * own latency to every step.
 *
 * A vector's RESET and STEP payloads (185 kB a step for 64 Penguin envs) go, when OPEN names
 * one, into a shared file (a memfd the Python side maps) with one pwritev; the pipe then carries
 * only the reply's 8-byte header. Through a pipe the same bytes would cost a kernel copy in, page
 * allocations, a copy out, and several wake-ups of the reader. The file is cut into slots of
 * `sharedSlotBytes` (OPEN's reply: the largest reply this vector can send) and each request names
 * the slot its reply goes to, so that the Python side can hand out arrays that view a slot, with
 * no copy, and send later replies to slots nobody views any more.
 *
 * Request:  u32 length of the payload, u8 op, u8 slot (of the shared file, for a vector's RESET
 *           and STEP; else 0), 2 zero bytes, payload.
 * Reply:    u32 length of the payload, u8 status (0 ok, 1 usage error, 2 internal error), u8 op,
 *           u8 where (0: the payload follows on the pipe; 1: it is in the shared file from the
 *           start of the request's slot), 1 zero byte, payload (an error's payload is its UTF-8
 *           message, on the pipe).
 * Payloads thus start 8-byte aligned in either direction.
 * All numbers are little-endian; payload layouts are listed in docs/python.md.
 */
import { fstatSync, readSync, writeSync, writevSync } from "node:fs";
import { UsageError } from "../errors.js";
import { ENV_IDS, makeEnv, VecEnv, type EnvOptions, type PenguinEnv } from "../env/index.js";

export const PROTOCOL_VERSION = 3;
export const OP_OPEN = 1;
export const OP_RESET = 2;
export const OP_STEP = 3;
export const OP_RENDER = 4;
const OK = 0;
const USAGE = 1;
const INTERNAL = 2;
/** A request is never larger than this (the OPEN JSON, or 65536 actions of 4 bytes). */
const MAX_REQUEST = 1 << 20;
/** Slots of the shared file a request may name (0 … MAX_SLOTS − 1). */
export const MAX_SLOTS = 8;

/** What OPEN asks for: one env (numEnvs 0) or a VecEnv of numEnvs. */
interface OpenRequest {
  protocol: number;
  id: string;
  options?: EnvOptions;
  numEnvs: number;
  /** A lone env's step from one unseeded episode's seed to the next (default 1). */
  seedStride?: number;
  /** An open file descriptor, inherited from the parent, for a vector's bulk replies. */
  sharedFd?: number;
}

const bytes = (a: ArrayBufferView): Uint8Array =>
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Reads what is there into buf[from…] (blocking until at least one byte), or 0 at the end. */
function readSome(fd: number, buf: Uint8Array, from: number): number {
  for (;;) {
    try {
      return readSync(fd, buf, from, buf.length - from, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EOF") return 0;
      // A non-blocking stdin (inherited that way) has nothing yet: wait a little, then retry.
      if (code !== "EAGAIN") throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/**
 * Request frames from a file descriptor, read synchronously. The Python side sends one request
 * and waits for its reply, so one read usually brings exactly one whole frame; more, or less, is
 * handled too.
 */
class FrameReader {
  buf = new Uint8Array(1 << 16);
  /** A view of `buf` for the frames' lengths (kept: one per frame would cost an allocation). */
  view = new DataView(this.buf.buffer);
  start = 0;
  end = 0;
  constructor(readonly fd: number) {}

  /** Makes n bytes available from `start`; false if the input ends first. */
  #fill(n: number): boolean {
    if (this.start + n > this.buf.length) {
      const next = n > this.buf.length ? new Uint8Array(n) : this.buf;
      next.set(this.buf.subarray(this.start, this.end));
      this.end -= this.start;
      this.start = 0;
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    while (this.end - this.start < n) {
      const got = readSome(this.fd, this.buf, this.end);
      if (got === 0) return false;
      this.end += got;
    }
    return true;
  }

  /** The next frame (its payload is valid until the next call), or undefined at the end of input. */
  next(): { op: number; slot: number; at: number; len: number } | undefined {
    if (!this.#fill(8)) {
      if (this.end === this.start) return undefined;
      throw new Error("input ended inside a frame header");
    }
    const len = this.view.getUint32(this.start, true);
    const op = this.buf[this.start + 4]!;
    const slot = this.buf[this.start + 5]!;
    if (len > MAX_REQUEST) throw new Error(`bad request length ${len}`);
    if (!this.#fill(8 + len)) throw new Error("input ended inside a frame");
    const at = this.start + 8;
    this.start += 8 + len;
    if (this.start === this.end) this.start = this.end = 0;
    return { op, slot, at, len };
  }
}

/**
 * Writes every byte of `parts` (writev may stop early on a full pipe): at the fd's current
 * position, or from `position` on (a file).
 */
function writeAll(fd: number, parts: Uint8Array[], position: number | null = null): void {
  let total = 0;
  for (const p of parts) total += p.length;
  // Usually one call writes everything (zero-length parts are fine in a writev).
  const w =
    parts.length === 1 ? writeSomeOf(fd, parts[0]!, position) : writevOrWait(fd, parts, position);
  if (w < total) writeRest(fd, parts, w, position);
}

function writeSomeOf(fd: number, part: Uint8Array, position: number | null): number {
  try {
    return writeSync(fd, part, 0, part.length, position);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EAGAIN") return 0;
    throw e;
  }
}

function writevOrWait(fd: number, parts: Uint8Array[], position: number | null): number {
  try {
    return writevSync(fd, parts, position ?? undefined);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EAGAIN") return 0;
    throw e;
  }
}

/** Writes what a first write left of `parts` (`done` bytes went), waiting while the pipe is full. */
function writeRest(fd: number, parts: Uint8Array[], done: number, position: number | null): void {
  const list = parts.filter((p) => p.length > 0);
  let at = position === null ? null : position + done;
  let w = done;
  for (;;) {
    while (list.length > 0 && w >= list[0]!.length) w -= list.shift()!.length;
    if (list.length === 0) return;
    if (w > 0) list[0] = list[0]!.subarray(w);
    w = list.length === 1 ? writeSomeOf(fd, list[0]!, at) : writevOrWait(fd, list, at);
    if (w === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    if (at !== null) at += w;
  }
}

/** One env behind the protocol: fills the reply parts of RESET, STEP and RENDER. */
interface Served {
  describe(): Record<string, unknown>;
  /** The largest RESET or STEP payload (a vector's, with every episode ending at once). */
  maxReply: number;
  reset(seed: number | undefined): Uint8Array[];
  step(actions: Int32Array): Uint8Array[];
  render(index: number): string;
}

/**
 * A lone PenguinEnv. RESET and STEP reply: f64 reward, f64 seed, f64 episodeReturn, i32 steps,
 * i32 legalActions, u8 terminated, truncated, won, repeated, cardsHome, 3 zero bytes
 * (40 bytes), then f32 observation[obsSize], then u8 mask[n].
 */
function serveOne(env: PenguinEnv): Served {
  const head = new ArrayBuffer(40);
  const f64 = new Float64Array(head, 0, 3);
  const i32 = new Int32Array(head, 24, 2);
  const u8 = new Uint8Array(head, 32, 8);
  const parts = [new Uint8Array(head), bytes(env.observation), bytes(env.info.actionMask)];
  const maxReply = 40 + env.observation.byteLength + env.info.actionMask.length;
  const fill = (reward: number, terminated: boolean, truncated: boolean): Uint8Array[] => {
    const info = env.info;
    f64[0] = reward;
    f64[1] = info.seed;
    f64[2] = info.episodeReturn;
    i32[0] = info.steps;
    i32[1] = info.legalActions;
    u8[0] = terminated ? 1 : 0;
    u8[1] = truncated ? 1 : 0;
    u8[2] = info.won ? 1 : 0;
    u8[3] = info.repeated ? 1 : 0;
    u8[4] = info.cardsHome;
    return parts;
  };
  return {
    maxReply,
    describe: () => ({
      numEnvs: 0,
      obsSize: env.encoder.size,
      numActions: env.codec.n,
      low: env.observationSpace.low,
      high: env.observationSpace.high,
      rewardRange: env.rewardRange,
      maxSteps: env.settings.maxSteps,
      shuffle: env.settings.shuffle,
    }),
    reset(seed) {
      env.reset(seed === undefined ? {} : { seed });
      // A deal with no legal action is over at reset: say so, as a step would.
      return fill(0, env.done && env.info.legalActions === 0, false);
    },
    step(actions) {
      const r = env.step(actions[0]!);
      return fill(r.reward, r.terminated, r.truncated);
    },
    render: () => env.render(),
  };
}

/** Stores integer x (|x| < 2^53) as a little-endian int64 at word pair i of `words`. */
function setInt64(words: Int32Array, i: number, x: number): void {
  words[2 * i] = x % 0x100000000;
  words[2 * i + 1] = Math.floor(x / 0x100000000);
}

/**
 * A VecEnv(n), autoreset "same-step". RESET and STEP reply in one layout (RESET's rewards,
 * flags and finals are 0), its info fields already in the types Gymnasium's info holds so that
 * the Python side only views them: i64 seeds[n],
 * finalSeeds[n]; f64 finalReturns[n]; i64 finalSteps[n], finalCardsHome[n]; u32 k (episodes
 * that ended on this step), u32 zero; i32 endedIndex[n] (the first k: their sub-envs, in order;
 * the rest 0); f32 rewards[n]; f32 observations[n × obsSize]; u8 terminated[n], truncated[n],
 * ended[n], finalWon[n]; u8 masks[n × actions], finalMasks[n × actions]; zero bytes to a
 * multiple of 8; f32 finalObservations[k × obsSize]. The final* rows of sub-envs whose episode
 * did not end are 0, as Gymnasium's final_info wants them.
 */
function serveVec(vec: VecEnv): Served {
  const n = vec.n;
  const size = vec.obsSize;
  const na = vec.numActions;
  const seeds = new Int32Array(2 * n);
  const wide = new ArrayBuffer(32 * n + 8 + 4 * n); // finalSeeds … endedIndex
  const fSeeds = new Int32Array(wide, 0, 2 * n);
  const fReturns = new Float64Array(wide, 8 * n, n);
  const fSteps = new Int32Array(wide, 16 * n, 2 * n);
  const fHome = new Int32Array(wide, 24 * n, 2 * n);
  const count = new Uint32Array(wide, 32 * n, 2);
  const endedIndex = new Int32Array(wide, 32 * n + 8, n);
  const flags = new Uint8Array(4 * n); // terminated, truncated, ended, finalWon
  const fMasks = new Uint8Array(n * na);
  const fObs = new Float32Array(n * size);
  /** The first k final observations as bytes, by k (made once each: a step would allocate two views). */
  const finals: Uint8Array[] = [];
  const pad = new Uint8Array((8 - ((52 * n + 4 * n * size + 2 * n * na) % 8)) % 8);
  const maxReply = 8 * n + wide.byteLength + 4 * n + 4 * n * size + 4 * n + 2 * n * na + pad.length;
  const parts: Uint8Array[] = [
    bytes(seeds),
    new Uint8Array(wide),
    bytes(vec.rewards),
    bytes(vec.observations),
    flags,
    bytes(vec.masks),
    fMasks,
    pad,
    new Uint8Array(0), // the final observations of this step
  ];
  return {
    maxReply: maxReply + 4 * n * size,
    describe: () => ({
      numEnvs: n,
      obsSize: size,
      numActions: na,
      low: vec.observationSpace.low,
      high: vec.observationSpace.high,
      rewardRange: vec.envs[0]!.rewardRange,
      maxSteps: vec.envs[0]!.settings.maxSteps,
      shuffle: vec.envs[0]!.settings.shuffle,
      autoresetMode: vec.autoresetMode,
    }),
    reset(seed) {
      vec.reset(seed === undefined ? {} : { seed });
      for (let i = 0; i < n; i++) setInt64(seeds, i, vec.seeds[i]!);
      new Uint8Array(wide).fill(0);
      flags.fill(0);
      fMasks.fill(0);
      parts[parts.length - 1] = new Uint8Array(0);
      return parts;
    },
    step(actions) {
      const r = vec.step(actions);
      let k = 0;
      for (let i = 0; i < n; i++) {
        const ended = r.terminated[i]! | r.truncated[i]!;
        // A sub-env's seed changes only when its episode ends (RESET writes them all).
        if (ended) setInt64(seeds, i, vec.seeds[i]!);
        flags[i] = r.terminated[i]!;
        flags[n + i] = r.truncated[i]!;
        // Rows that end now, or ended on the previous step (theirs still hold it), are written.
        if (!ended && flags[2 * n + i] === 0) continue;
        flags[2 * n + i] = ended;
        setInt64(fSeeds, i, ended ? vec.finalSeeds[i]! : 0);
        fReturns[i] = ended ? vec.finalReturns[i]! : 0;
        setInt64(fSteps, i, ended ? vec.finalSteps[i]! : 0);
        setInt64(fHome, i, ended ? vec.finalCardsHome[i]! : 0);
        flags[3 * n + i] = ended ? vec.finalWon[i]! : 0;
        if (!ended) {
          fMasks.fill(0, i * na, (i + 1) * na);
          continue;
        }
        fMasks.set(vec.finalMasks.subarray(i * na, (i + 1) * na), i * na);
        fObs.set(vec.finalObservations.subarray(i * size, (i + 1) * size), k * size);
        endedIndex[k++] = i;
      }
      endedIndex.fill(0, k);
      count[0] = k;
      parts[parts.length - 1] = finals[k] ??= bytes(fObs.subarray(0, k * size));
      return parts;
    },
    render: (index) => {
      if (!Number.isInteger(index) || index < 0 || index >= n)
        throw new UsageError(`render index must be from 0 to ${n - 1}, got ${index}`);
      return vec.envs[index]!.render();
    },
  };
}

/** What OPEN sets up: the env behind the protocol, and where its bulk replies go. */
interface Opened {
  served: Served;
  /** RESET and STEP payloads go to this file (at their slot) instead of the pipe. */
  sharedFd: number | undefined;
}

/** Bytes per slot of the shared file: the largest reply, rounded up to whole 4 kB pages. */
const slotBytes = (served: Served): number => Math.ceil(served.maxReply / 4096) * 4096;

function open(text: string): Opened {
  let req: OpenRequest;
  try {
    req = JSON.parse(text) as OpenRequest;
  } catch {
    throw new UsageError("OPEN payload is not JSON");
  }
  if (req.protocol !== PROTOCOL_VERSION)
    throw new UsageError(
      `the Python package speaks bridge protocol ${req.protocol}, this engine speaks ${PROTOCOL_VERSION}: install matching versions`,
    );
  const n = req.numEnvs;
  if (!Number.isInteger(n) || n < 0 || n > 65536)
    throw new UsageError(`numEnvs must be an integer from 0 to 65536, got ${n}`);
  const fd = req.sharedFd;
  if (fd !== undefined) {
    if (n === 0) throw new UsageError("sharedFd is for a vector (numEnvs > 0)");
    if (!Number.isInteger(fd) || fd < 0 || !isFile(fd))
      throw new UsageError(`sharedFd must be an open file descriptor of a file, got ${fd}`);
  }
  if (n > 0) return { served: serveVec(new VecEnv(n, req.id, req.options ?? {})), sharedFd: fd };
  const env = makeEnv(req.id, req.options ?? {});
  const stride = req.seedStride ?? 1;
  if (!Number.isInteger(stride) || stride < 1 || stride > 65536)
    throw new UsageError(`seed_stride must be an integer from 1 to 65536, got ${stride}`);
  env.seedStride = stride;
  return { served: serveOne(env), sharedFd: undefined };
}

function isFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves requests from `input` until it ends (the Python side closed the pipe), replying on
 * `output`. Usage errors (bad option, illegal action) are replied and the env stays as it was.
 */
export function serve(input: number, output: number): void {
  const head = new Uint8Array(8);
  const headView = new DataView(head.buffer);
  const headOnly = [head];
  const frames = new FrameReader(input);
  let served: Served | undefined;
  let sharedFd: number | undefined;
  let slot = 0;
  let actions = new Int32Array(0);
  const reply = (status: number, op: number, parts: Uint8Array[], shared = false): void => {
    let len = 0;
    for (const p of parts) len += p.length;
    headView.setUint32(0, len, true);
    head[4] = status;
    head[5] = op;
    head[6] = shared ? 1 : 0;
    if (shared) {
      // The payload first, then the header that tells the other side it is there.
      writeAll(sharedFd!, parts, slot * slotBytes(served!));
      writeAll(output, headOnly);
    } else writeAll(output, [head, ...parts]);
  };
  for (;;) {
    const f = frames.next();
    if (!f) return;
    const { op, at, len } = f;
    slot = f.slot;
    const req = frames.buf;
    try {
      if (op === OP_OPEN) {
        ({ served, sharedFd } = open(new TextDecoder().decode(req.subarray(at, at + len))));
        const about: Record<string, unknown> = {
          protocol: PROTOCOL_VERSION,
          ids: ENV_IDS,
          ...served.describe(),
        };
        if (sharedFd !== undefined) about.sharedSlotBytes = slotBytes(served);
        reply(OK, op, [new TextEncoder().encode(JSON.stringify(about))]);
        continue;
      }
      if (!served) throw new UsageError("the first request must be OPEN");
      if (slot >= MAX_SLOTS)
        throw new UsageError(`slot must be from 0 to ${MAX_SLOTS - 1}, got ${slot}`);
      if (op === OP_RESET) {
        if (len !== 8) throw new UsageError("RESET takes an 8-byte seed (NaN for none)");
        const seed = new DataView(req.buffer, at, 8).getFloat64(0, true);
        reply(OK, op, served.reset(Number.isNaN(seed) ? undefined : seed), sharedFd !== undefined);
      } else if (op === OP_STEP) {
        // A view of the request buffer when aligned (the usual case), else a copy.
        if (at % 4 !== 0) actions = new Int32Array(req.slice(at, at + len).buffer, 0, len >> 2);
        else if (
          actions.buffer !== req.buffer ||
          actions.byteOffset !== at ||
          actions.length !== len >> 2
        )
          actions = new Int32Array(req.buffer, at, len >> 2);
        reply(OK, op, served.step(actions), sharedFd !== undefined);
      } else if (op === OP_RENDER) {
        if (len !== 4) throw new UsageError("RENDER takes a 4-byte sub-env index");
        const index = new DataView(req.buffer, at, 4).getUint32(0, true);
        reply(OK, op, [new TextEncoder().encode(served.render(index))]);
      } else throw new UsageError(`unknown op ${op}`);
    } catch (e) {
      const usage = e instanceof UsageError;
      const text = usage ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e);
      reply(usage ? USAGE : INTERNAL, op, [new TextEncoder().encode(text)]);
    }
  }
}
