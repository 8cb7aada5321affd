/**
 * The engine side of the Python bridge (docs/python.md, "Protocol"): one environment, or one
 * VecEnv, driven by length-prefixed binary frames on a pair of file descriptors (stdin and stdout
 * of a child process). Observations and masks travel as the env's own typed-array bytes, written
 * straight from its buffers with one writev per reply, so a step costs one round trip and no
 * per-step JSON. Stdin is read synchronously (fs.readSync): the loop never waits on Node's event
 * loop, which would add its own latency to every step.
 *
 * Request:  u32 length of the payload, u8 op, 3 zero bytes, payload.
 * Reply:    u32 length of the payload, u8 status (0 ok, 1 usage error, 2 internal error), u8 op,
 *           2 zero bytes, payload (an error's payload is its UTF-8 message).
 * Payloads thus start 8-byte aligned in either direction.
 * All numbers are little-endian; payload layouts are listed in docs/python.md.
 */
import { readSync, writeSync, writevSync } from "node:fs";
import { UsageError } from "../errors.js";
import { ENV_IDS, makeEnv, VecEnv, type EnvOptions, type PenguinEnv } from "../env/index.js";

export const PROTOCOL_VERSION = 1;
export const OP_OPEN = 1;
export const OP_RESET = 2;
export const OP_STEP = 3;
export const OP_RENDER = 4;
const OK = 0;
const USAGE = 1;
const INTERNAL = 2;
/** A request is never larger than this (the OPEN JSON, or 65536 actions of 4 bytes). */
const MAX_REQUEST = 1 << 20;

/** What OPEN asks for: one env (numEnvs 0) or a VecEnv of numEnvs. */
interface OpenRequest {
  protocol: number;
  id: string;
  options?: EnvOptions;
  numEnvs: number;
  /** A lone env's step from one unseeded episode's seed to the next (default 1). */
  seedStride?: number;
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
    }
    while (this.end - this.start < n) {
      const got = readSome(this.fd, this.buf, this.end);
      if (got === 0) return false;
      this.end += got;
    }
    return true;
  }

  /** The next frame (its payload is valid until the next call), or undefined at the end of input. */
  next(): { op: number; at: number; len: number } | undefined {
    if (!this.#fill(8)) {
      if (this.end === this.start) return undefined;
      throw new Error("input ended inside a frame header");
    }
    const len = new DataView(this.buf.buffer, this.start, 8).getUint32(0, true);
    const op = this.buf[this.start + 4]!;
    if (len > MAX_REQUEST) throw new Error(`bad request length ${len}`);
    if (!this.#fill(8 + len)) throw new Error("input ended inside a frame");
    const at = this.start + 8;
    this.start += 8 + len;
    if (this.start === this.end) this.start = this.end = 0;
    return { op, at, len };
  }
}

/** Writes every byte of `parts` (writev may stop early on a full pipe). */
function writeAll(fd: number, parts: Uint8Array[]): void {
  const list = parts.filter((p) => p.length > 0);
  while (list.length > 0) {
    let w: number;
    try {
      w = list.length === 1 ? writeSync(fd, list[0]!) : writevSync(fd, list);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        continue;
      }
      throw e;
    }
    while (list.length > 0 && w >= list[0]!.length) w -= list.shift()!.length;
    if (w > 0) list[0] = list[0]!.subarray(w);
  }
}

/** One env behind the protocol: fills the reply parts of RESET, STEP and RENDER. */
interface Served {
  describe(): Record<string, unknown>;
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

/**
 * A VecEnv(n), autoreset "same-step". RESET reply: f64 seeds[n], f32 observations[n × obsSize],
 * u8 masks[n × actions]. STEP reply: f64 seeds[n], f32 rewards[n], f32 observations, u8
 * terminated[n], truncated[n], masks; then, 8-byte aligned, the k episodes that ended on this
 * step: u32 k, u32 zero, f64 finalSeeds[k], f32 finalReturns[k], i32 finalSteps[k], i32
 * index[k], f32 finalObservations[k × obsSize], u8 finalCardsHome[k], finalWon[k], finalMasks[k ×
 * actions].
 */
function serveVec(vec: VecEnv): Served {
  const n = vec.n;
  const size = vec.obsSize;
  const na = vec.numActions;
  const seeds = bytes(vec.seeds);
  const obs = bytes(vec.observations);
  const masks = bytes(vec.masks);
  const flags = new Uint8Array(2 * n);
  const pad = new Uint8Array((8 - ((8 * n + 4 * n + 4 * n * size + 2 * n + n * na) % 8)) % 8);
  const count = new Uint32Array(2);
  const fSeeds = new Float64Array(n);
  const fReturns = new Float32Array(n);
  const fSteps = new Int32Array(n);
  const fIndex = new Int32Array(n);
  const fObs = new Float32Array(n * size);
  const fHome = new Uint8Array(n);
  const fWon = new Uint8Array(n);
  const fMasks = new Uint8Array(n * na);
  const rewards = bytes(vec.rewards);
  const quiet = [seeds, rewards, obs, flags, masks, pad, bytes(count)];
  return {
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
      return [seeds, obs, masks];
    },
    step(actions) {
      const r = vec.step(actions);
      let k = 0;
      for (let i = 0; i < n; i++) {
        flags[i] = r.terminated[i]!;
        flags[n + i] = r.truncated[i]!;
        if (!r.terminated[i] && !r.truncated[i]) continue;
        fSeeds[k] = vec.finalSeeds[i]!;
        fReturns[k] = vec.finalReturns[i]!;
        fSteps[k] = vec.finalSteps[i]!;
        fIndex[k] = i;
        fHome[k] = vec.finalCardsHome[i]!;
        fWon[k] = vec.finalWon[i]!;
        fObs.set(vec.finalObservations.subarray(i * size, (i + 1) * size), k * size);
        fMasks.set(vec.finalMasks.subarray(i * na, (i + 1) * na), k * na);
        k++;
      }
      count[0] = k;
      if (k === 0) return quiet;
      return [
        seeds,
        rewards,
        obs,
        flags,
        masks,
        pad,
        bytes(count),
        bytes(fSeeds.subarray(0, k)),
        bytes(fReturns.subarray(0, k)),
        bytes(fSteps.subarray(0, k)),
        bytes(fIndex.subarray(0, k)),
        bytes(fObs.subarray(0, k * size)),
        fHome.subarray(0, k),
        fWon.subarray(0, k),
        fMasks.subarray(0, k * na),
      ];
    },
    render: (index) => {
      if (!Number.isInteger(index) || index < 0 || index >= n)
        throw new UsageError(`render index must be from 0 to ${n - 1}, got ${index}`);
      return vec.envs[index]!.render();
    },
  };
}

function open(text: string): Served {
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
  if (n > 0) return serveVec(new VecEnv(n, req.id, req.options ?? {}));
  const env = makeEnv(req.id, req.options ?? {});
  const stride = req.seedStride ?? 1;
  if (!Number.isInteger(stride) || stride < 1 || stride > 65536)
    throw new UsageError(`seed_stride must be an integer from 1 to 65536, got ${stride}`);
  env.seedStride = stride;
  return serveOne(env);
}

/**
 * Serves requests from `input` until it ends (the Python side closed the pipe), replying on
 * `output`. Usage errors (bad option, illegal action) are replied and the env stays as it was.
 */
export function serve(input: number, output: number): void {
  const head = new Uint8Array(8);
  const headView = new DataView(head.buffer);
  const frames = new FrameReader(input);
  let served: Served | undefined;
  let actions = new Int32Array(0);
  const reply = (status: number, op: number, parts: Uint8Array[]): void => {
    let len = 0;
    for (const p of parts) len += p.length;
    headView.setUint32(0, len, true);
    head[4] = status;
    head[5] = op;
    writeAll(output, [head, ...parts]);
  };
  for (;;) {
    const f = frames.next();
    if (!f) return;
    const { op, at, len } = f;
    const req = frames.buf;
    const payload = req.subarray(at, at + len);
    try {
      if (op === OP_OPEN) {
        served = open(new TextDecoder().decode(payload));
        const about = { protocol: PROTOCOL_VERSION, ids: ENV_IDS, ...served.describe() };
        reply(OK, op, [new TextEncoder().encode(JSON.stringify(about))]);
        continue;
      }
      if (!served) throw new UsageError("the first request must be OPEN");
      if (op === OP_RESET) {
        if (len !== 8) throw new UsageError("RESET takes an 8-byte seed (NaN for none)");
        const seed = new DataView(req.buffer, at, 8).getFloat64(0, true);
        reply(OK, op, served.reset(Number.isNaN(seed) ? undefined : seed));
      } else if (op === OP_STEP) {
        // A view of the request buffer when aligned (the usual case), else a copy.
        if (at % 4 !== 0) actions = new Int32Array(payload.slice().buffer, 0, len >> 2);
        else if (
          actions.buffer !== req.buffer ||
          actions.byteOffset !== at ||
          actions.length !== len >> 2
        )
          actions = new Int32Array(req.buffer, at, len >> 2);
        reply(OK, op, served.step(actions));
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
