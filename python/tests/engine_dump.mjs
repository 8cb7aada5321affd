// The TypeScript side of the parity and dataset tests: plays the engine in-process (the built
// package, dist/) and prints what it saw as JSON, for the Python tests to compare byte for byte.
//
//   node engine_dump.mjs ROOT trajectory ID OPTIONS_JSON SEED STEPS PICK_SEED
//   node engine_dump.mjs ROOT vector ID OPTIONS_JSON N SEED STEPS PICK_SEED
//   node engine_dump.mjs ROOT decode DATASET_DIR
//
// Actions are uniformly random legal ones from the seeded Rng(PICK_SEED); they are printed too, so
// the Python side replays the same ones.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, mode, ...args] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(root, "dist/src", p)).href);
const { makeEnv, VecEnv, deal, resolveRules } = await load("index.js");
const { Rng } = await load("util/rng.js");
const b64 = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("base64");

function pick(mask, from, n, rnd) {
  let legal = 0;
  for (let a = 0; a < n; a++) legal += mask[from + a];
  let k = Math.floor(rnd() * legal);
  for (let a = 0; a < n; a++) if (mask[from + a] === 1 && k-- === 0) return a;
  throw new Error("no legal action");
}

function trajectory(id, options, seed, steps, pickSeed) {
  const env = makeEnv(id, options);
  const rnd = new Rng(pickSeed).uniform();
  const n = env.actionSpace.n;
  const obs = [];
  const masks = [];
  const out = { actions: [], rewards: [], terminated: [], truncated: [], seeds: [] };
  env.reset({ seed });
  const record = () => {
    obs.push(env.observation.slice());
    masks.push(env.actionMask.slice());
    out.seeds.push(env.info.seed);
  };
  record();
  for (let t = 0; t < steps; t++) {
    if (env.done) {
      env.reset(); // the next seed of the env's sequence; -1 tells Python to reset()
      out.actions.push(-1);
      out.rewards.push(0);
      out.terminated.push(false);
      out.truncated.push(false);
      record();
      continue;
    }
    const a = pick(env.actionMask, 0, n, rnd);
    const r = env.step(a);
    out.actions.push(a);
    out.rewards.push(r.reward);
    out.terminated.push(r.terminated);
    out.truncated.push(r.truncated);
    record();
  }
  const cat = (list, Make) => {
    const all = new Make(list.reduce((s, a) => s + a.length, 0));
    let at = 0;
    for (const a of list) all.set(a, (at += a.length) - a.length);
    return all;
  };
  return {
    ...out,
    rewards: b64(Float64Array.from(out.rewards)),
    obs: b64(cat(obs, Float32Array)),
    masks: b64(cat(masks, Uint8Array)),
    render: env.render(),
  };
}

function vector(id, options, n, seed, steps, pickSeed) {
  const vec = new VecEnv(n, id, options);
  const rnd = new Rng(pickSeed).uniform();
  const na = vec.numActions;
  const size = vec.obsSize;
  vec.reset({ seed });
  const out = { first: { obs: b64(vec.observations), masks: b64(vec.masks), seeds: [...vec.seeds] }, steps: [] };
  const actions = new Int32Array(n);
  for (let t = 0; t < steps; t++) {
    for (let i = 0; i < n; i++) actions[i] = pick(vec.masks, i * na, na, rnd);
    const r = vec.step(actions);
    const ended = [];
    for (let i = 0; i < n; i++)
      if (r.terminated[i] || r.truncated[i])
        ended.push({
          index: i,
          obs: b64(vec.finalObservations.subarray(i * size, (i + 1) * size)),
          mask: b64(vec.finalMasks.subarray(i * na, (i + 1) * na)),
          seed: vec.finalSeeds[i],
          steps: vec.finalSteps[i],
          cardsHome: vec.finalCardsHome[i],
          won: vec.finalWon[i] === 1,
          return: vec.finalReturns[i],
        });
    out.steps.push({
      actions: [...actions],
      obs: b64(r.observations),
      masks: b64(r.masks),
      rewards: b64(r.rewards),
      terminated: b64(r.terminated),
      truncated: b64(r.truncated),
      seeds: [...vec.seeds],
      ended,
    });
  }
  return out;
}

async function decode(dir) {
  const { unpackState, PACK_STRIDE } = await load("train/safety/pack.js");
  const { readNpy } = await load("train/safety/npy.js");
  const { COLUMN_CAP } = await load("engine/state.js");
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
  const { preset, ...options } = index.rules;
  const rules = resolveRules(preset, options);
  const rows = [];
  for (const shard of index.shards) {
    const read = (k) => readNpy(join(dir, shard.name, `${k}.npy`)).data;
    const before = read("before");
    const deals = read("deal");
    for (let i = 0; i < deals.length; i++) {
      const s = deal(rules, deals[i]);
      unpackState(before, i * PACK_STRIDE, s);
      const columns = [];
      for (let c = 0; c < s.nColumns; c++)
        columns.push([...s.cards.subarray(c * COLUMN_CAP, c * COLUMN_CAP + s.len[c])]);
      rows.push({ base: s.base, found: [...s.found], cells: [...s.cells], columns });
    }
  }
  return { rows };
}

const num = (t) => Number(t);
let result;
if (mode === "trajectory")
  result = trajectory(args[0], JSON.parse(args[1]), num(args[2]), num(args[3]), num(args[4]));
else if (mode === "vector")
  result = vector(args[0], JSON.parse(args[1]), num(args[2]), num(args[3]), num(args[4]), num(args[5]));
else if (mode === "decode") result = await decode(args[0]);
else throw new Error(`unknown mode ${mode}`);
process.stdout.write(JSON.stringify(result));
