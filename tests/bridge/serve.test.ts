// The bridge's frames, read back in TypeScript: requests from a file, replies to a file, compared
// with the environment played directly (the Python package's own tests drive it over pipes).
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  MAX_SLOTS,
  OP_OPEN,
  OP_RENDER,
  OP_RESET,
  OP_STEP,
  PROTOCOL_VERSION,
  serve,
} from "../../src/bridge/serve.js";
import { makeEnv, VecEnv } from "../../src/env/index.js";

function frame(op: number, payload: Uint8Array, slot = 0): Uint8Array {
  const out = new Uint8Array(8 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, true);
  out[4] = op;
  out[5] = slot;
  out.set(payload, 8);
  return out;
}
const json = (o: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(o));
const f64 = (x: number): Uint8Array => new Uint8Array(new Float64Array([x]).buffer);
const i32 = (xs: number[]): Uint8Array => new Uint8Array(new Int32Array(xs).buffer);

/**
 * Serves `requests` and returns the replies as { status, op, shared, payload }; with `shared`,
 * OPEN names a file for the bulk replies, and a reply found there is read back from its slot
 * (the slot its request named, of OPEN's sharedSlotBytes) once every request is served.
 */
function exchange(requests: Uint8Array[], shared = false) {
  const dir = mkdtempSync(join(tmpdir(), "bridge-"));
  const sharedFd = shared ? openSync(join(dir, "shared"), "w+") : undefined;
  if (sharedFd !== undefined) {
    const open = JSON.parse(new TextDecoder().decode(requests[0]!.subarray(8)));
    requests = [frame(OP_OPEN, json({ ...open, sharedFd })), ...requests.slice(1)];
  }
  const total = requests.reduce((n, r) => n + r.length, 0);
  const all = new Uint8Array(total);
  requests.reduce((at, r) => (all.set(r, at), at + r.length), 0);
  writeFileSync(join(dir, "in"), all);
  const input = openSync(join(dir, "in"), "r");
  const output = openSync(join(dir, "out"), "w");
  serve(input, output);
  closeSync(input);
  closeSync(output);
  const bytes = new Uint8Array(readFileSync(join(dir, "out")));
  const view = new DataView(bytes.buffer);
  const file = shared ? new Uint8Array(readFileSync(join(dir, "shared"))) : new Uint8Array(0);
  let slotBytes = 0;
  const replies: { status: number; op: number; shared: boolean; payload: Uint8Array }[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const len = view.getUint32(at, true);
    const inFile = bytes[at + 6] === 1;
    const from = requests[i]![5]! * slotBytes;
    const payload = inFile ? file.slice(from, from + len) : bytes.slice(at + 8, at + 8 + len);
    if (i === 0 && bytes[at + 4] === 0)
      slotBytes = JSON.parse(new TextDecoder().decode(payload)).sharedSlotBytes ?? 0;
    replies.push({ status: bytes[at + 4]!, op: bytes[at + 5]!, shared: inFile, payload });
    at += inFile ? 8 : 8 + len;
  }
  if (sharedFd !== undefined) closeSync(sharedFd);
  return replies;
}

describe("bridge frames", () => {
  it("one env: OPEN, RESET, STEP, an illegal STEP, RENDER", () => {
    const env = makeEnv("Penguin-v3", { maxSteps: 50 });
    env.reset({ seed: 5 });
    const legal = env.legalActions()[0]!;
    const illegal = env.info.actionMask.indexOf(0);
    const replies = exchange([
      frame(
        OP_OPEN,
        json({
          protocol: PROTOCOL_VERSION,
          id: "Penguin-v3",
          options: { maxSteps: 50 },
          numEnvs: 0,
        }),
      ),
      frame(OP_RESET, f64(5)),
      frame(OP_STEP, i32([legal])),
      frame(OP_STEP, i32([illegal])),
      frame(OP_RENDER, new Uint8Array(4)),
    ]);
    expect(replies.map((r) => [r.status, r.op])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 3],
      [0, 4],
    ]);
    const about = JSON.parse(new TextDecoder().decode(replies[0]!.payload));
    expect(about).toMatchObject({
      protocol: PROTOCOL_VERSION,
      obsSize: 693,
      numActions: 126,
      maxSteps: 50,
    });
    const reset = replies[1]!.payload;
    expect(new DataView(reset.buffer).getFloat64(8, true)).toBe(5); // the seed
    expect(reset.slice(40, 40 + 693 * 4)).toEqual(new Uint8Array(env.observation.slice().buffer));
    const r = env.step(legal);
    const step = replies[2]!.payload;
    expect(new DataView(step.buffer).getFloat64(0, true)).toBe(r.reward);
    expect(new DataView(step.buffer).getInt32(24, true)).toBe(1); // steps
    expect(step.slice(40, 40 + 693 * 4)).toEqual(new Uint8Array(env.observation.slice().buffer));
    expect(step.slice(40 + 693 * 4)).toEqual(env.info.actionMask);
    expect(new TextDecoder().decode(replies[3]!.payload)).toMatch(/is illegal here/);
    expect(new TextDecoder().decode(replies[4]!.payload)).toBe(env.render());
  });

  it("a vector: replies go to the slots of the shared file their requests name; a step's carries the ended episodes", () => {
    const vec = new VecEnv(3, "Penguin-v3", { maxSteps: 1 });
    vec.reset({ seed: 7 });
    const actions = [0, 1, 2].map((i) => vec.envs[i]!.legalActions()[0]!);
    const replies = exchange(
      [
        frame(
          OP_OPEN,
          json({
            protocol: PROTOCOL_VERSION,
            id: "Penguin-v3",
            options: { maxSteps: 1 },
            numEnvs: 3,
          }),
        ),
        frame(OP_RESET, f64(7), 1),
        frame(OP_STEP, i32(actions), 2),
      ],
      true,
    );
    // The largest reply (every episode ending at once) fits a slot, and both replies stayed.
    const about = JSON.parse(new TextDecoder().decode(replies[0]!.payload));
    const largest = 52 * 3 + 8 + 4 * 3 * 693 + 2 * 3 * 126 + 4 /* to 8 bytes */ + 4 * 3 * 693;
    expect(about.sharedSlotBytes).toBe(Math.ceil(largest / 4096) * 4096);
    expect(new DataView(replies[1]!.payload.buffer).getBigInt64(0, true)).toBe(7n);
    expect(replies[1]!.payload.slice(48 * 3 + 8, 48 * 3 + 8 + 4 * 3 * 693)).toEqual(
      new Uint8Array(vec.observations.slice().buffer),
    );
    expect(replies.map((r) => [r.status, r.op, r.shared])).toEqual([
      [0, 1, false],
      [0, 2, true],
      [0, 3, true],
    ]);
    vec.step(actions);
    const p = replies[2]!.payload;
    const dv = new DataView(p.buffer);
    const n = 3;
    const int64s = (at: number) => [0, 1, 2].map((i) => Number(dv.getBigInt64(at + 8 * i, true)));
    expect(int64s(0)).toEqual([10, 11, 12]); // the next deals' seeds
    expect(int64s(8 * n)).toEqual([7, 8, 9]); // the seeds of the episodes that ended
    expect(int64s(24 * n)).toEqual([1, 1, 1]); // their steps: maxSteps 1 ended every sub-env
    expect(dv.getUint32(40 * n, true)).toBe(3);
    const atObs = 48 * n + 8;
    expect(p.slice(atObs, atObs + 4 * n * 693)).toEqual(
      new Uint8Array(vec.observations.slice().buffer),
    );
    const atFlags = atObs + 4 * n * 693;
    expect([...p.slice(atFlags + n, atFlags + 3 * n)]).toEqual([1, 1, 1, 1, 1, 1]); // truncated, ended
    const atFinals = Math.ceil((atFlags + 4 * n + 2 * n * 126) / 8) * 8;
    expect(p.slice(atFinals)).toEqual(new Uint8Array(vec.finalObservations.slice().buffer));
  });

  it("refuses a protocol it does not speak, and ends at the end of input", () => {
    const replies = exchange([frame(OP_OPEN, json({ protocol: 9, id: "Penguin-v3", numEnvs: 0 }))]);
    expect(replies[0]!.status).toBe(1);
    expect(new TextDecoder().decode(replies[0]!.payload)).toMatch(
      new RegExp(`protocol 9, this engine speaks ${PROTOCOL_VERSION}`),
    );
  });

  it("refuses a slot past the last", () => {
    const replies = exchange(
      [
        frame(OP_OPEN, json({ protocol: PROTOCOL_VERSION, id: "Penguin-v3", numEnvs: 2 })),
        frame(OP_RESET, f64(1), MAX_SLOTS),
      ],
      true,
    );
    expect(replies[1]!.status).toBe(1);
    expect(new TextDecoder().decode(replies[1]!.payload)).toBe(
      `slot must be from 0 to ${MAX_SLOTS - 1}, got ${MAX_SLOTS}`,
    );
  });

  it("refuses a shared file for one env, or a descriptor that is not an open file", () => {
    const replies = exchange([
      frame(
        OP_OPEN,
        json({ protocol: PROTOCOL_VERSION, id: "Penguin-v3", numEnvs: 0, sharedFd: 0 }),
      ),
      frame(
        OP_OPEN,
        json({ protocol: PROTOCOL_VERSION, id: "Penguin-v3", numEnvs: 2, sharedFd: 999 }),
      ),
    ]);
    expect(replies.map((r) => new TextDecoder().decode(r.payload))).toEqual([
      "sharedFd is for a vector (numEnvs > 0)",
      "sharedFd must be an open file descriptor of a file, got 999",
    ]);
  });
});
