/**
 * `penguin dataset`: exact move-safety labels of training deals, written as shards of `.npy`
 * arrays plus `index.json` (format in docs/train-safety.md). Shard k holds deals
 * dealStart + k·shardDeals …; each shard is written complete under a temporary name and renamed,
 * and the index lists the finished ones, so a killed run continues at the first missing shard
 * and the files are the same for any number of workers.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { resolveRules, rulesLabel, type Rules } from "../../engine/rules.js";
import { UsageError } from "../../errors.js";
import { createAgent } from "../../agents/registry.js";
import type { AgentOptions } from "../../agents/agent.js";
import { PACK_STRIDE } from "./pack.js";
import { writeAtomic } from "../../util/files.js";
import { TaskPool, workerModule } from "../../util/pool.js";
import { checkSeeds } from "../splits.js";
import { emptyBlock, labelGame, type LabelPlayer } from "./label.js";
import { readNpy, writeNpy, type NpyArray } from "./npy.js";
import { MAX_RUN_FILE_BYTES, readTextFile } from "../../util/read.js";
import { lockFolder } from "../../util/lock.js";
import { makeFolder, removeStaleTemps, writeFailure } from "../../util/output.js";

const FORMAT = "penguin-move-safety";
const FORMAT_VERSION = 1;

/** `safe[:shuffle=0.2][:back=1]`, or any registered agent with options: `greedy:heuristic=tuned`, `safety:model=DIR`. */
export interface PlayerSpec {
  readonly name: string;
  readonly options: Readonly<Record<string, string>>;
}

export function parsePlayers(text: string): PlayerSpec[] {
  const out: PlayerSpec[] = [];
  for (const item of text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean)) {
    const [name, ...kv] = item.split(":");
    const options: Record<string, string> = {};
    for (const p of kv) {
      const eq = p.indexOf("=");
      if (eq <= 0) throw new UsageError(`--agent: "${p}" in "${item}" is not key=value`);
      options[p.slice(0, eq)] = p.slice(eq + 1);
    }
    if (name === "safe") {
      for (const k of Object.keys(options))
        if (k !== "shuffle" && k !== "back" && k !== "order")
          throw new UsageError(
            `--agent: the safe player takes only shuffle=P, back=0|1 and order=greedy|lookahead, not ${k}`,
          );
      if (options.back !== undefined && options.back !== "0" && options.back !== "1")
        throw new UsageError(`--agent: safe:back must be 0 or 1, got ${options.back}`);
      if (
        options.order !== undefined &&
        options.order !== "greedy" &&
        options.order !== "lookahead"
      )
        throw new UsageError(
          `--agent: safe:order must be greedy or lookahead, got ${options.order}`,
        );
      const p = Number(options.shuffle ?? "0.2");
      if (!(p >= 0 && p <= 1))
        throw new UsageError(`--agent: safe:shuffle must be from 0 to 1, got ${options.shuffle}`);
    }
    out.push({ name: name!, options });
  }
  if (out.length === 0)
    throw new UsageError(
      "--agent: name at least one player (safe, greedy:heuristic=tuned, safety:model=DIR, …)",
    );
  return out;
}

function playerLabel(p: PlayerSpec): string {
  return [p.name, ...Object.entries(p.options).map(([k, v]) => `${k}=${v}`)].join(":");
}

export interface ShardInit {
  readonly rules: Rules;
  readonly players: readonly PlayerSpec[];
  readonly maxStates: number;
  readonly maxSteps: number;
}
export interface ShardTask {
  readonly shard: number;
  readonly seeds: readonly number[];
  /** Index in the player list of each seed. */
  readonly players: readonly number[];
}
export interface ShardArrays {
  readonly shard: number;
  readonly arrays: Record<string, { data: NpyArray; shape: number[] }>;
  readonly games: number;
  readonly gamesWon: number;
  readonly ms: number;
}
export interface ShardContext {
  readonly init: ShardInit;
  readonly players: LabelPlayer[];
}

export async function setupPlayers(init: ShardInit): Promise<ShardContext> {
  const players: LabelPlayer[] = [];
  for (const p of init.players) {
    if (p.name === "safe")
      players.push({
        kind: "safe",
        shuffle: Number(p.options.shuffle ?? "0.2"),
        back: p.options.back !== "0",
        order: p.options.order === "lookahead" ? "lookahead" : "greedy",
      });
    else
      players.push({
        kind: "agent",
        agent: await createAgent(p.name, p.options as AgentOptions, init.rules),
      });
  }
  return { init, players };
}

export function labelShard(ctx: ShardContext, task: ShardTask): ShardArrays {
  const t0 = performance.now();
  const b = emptyBlock();
  task.seeds.forEach((seed, i) => {
    const p = task.players[i]!;
    labelGame(
      ctx.init.rules,
      seed,
      ctx.players[p]!,
      p,
      { maxStates: ctx.init.maxStates, maxSteps: ctx.init.maxSteps },
      b,
    );
  });
  const D = b.deal.length;
  const M = b.label.length;
  return {
    shard: task.shard,
    games: b.games,
    gamesWon: b.gamesWon,
    ms: performance.now() - t0,
    arrays: {
      before: { data: Uint8Array.from(b.before), shape: [D, PACK_STRIDE] },
      deal: { data: Int32Array.from(b.deal), shape: [D] },
      ply: { data: Int16Array.from(b.ply), shape: [D] },
      player: { data: Uint8Array.from(b.player), shape: [D] },
      after: { data: Uint8Array.from(b.after), shape: [M, PACK_STRIDE] },
      decision: { data: Int32Array.from(b.decision), shape: [M] },
      move: { data: Int32Array.from(b.move), shape: [M] },
      action: { data: Int16Array.from(b.action), shape: [M] },
      label: { data: Int8Array.from(b.label), shape: [M] },
      dist: { data: Int16Array.from(b.dist), shape: [M] },
      played: { data: Uint8Array.from(b.played), shape: [M] },
      states: { data: Int32Array.from(b.states), shape: [M] },
    },
  };
}

export function shardTransfer(r: ShardArrays): ArrayBuffer[] {
  return Object.values(r.arrays).map((a) => a.data.buffer as ArrayBuffer);
}

export interface ShardEntry {
  readonly name: string;
  readonly firstDeal: number;
  readonly deals: number;
  readonly decisions: number;
  readonly moves: number;
  readonly winnable: number;
  readonly lost: number;
  readonly unknown: number;
  readonly solverCalls: number;
  readonly gamesWon: number;
  readonly seconds: number;
}

export interface DatasetIndex {
  format: string;
  version: number;
  rules: Rules;
  rulesLabel: string;
  players: string[];
  dealStart: number;
  deals: number;
  shardDeals: number;
  maxStates: number;
  maxSteps: number;
  packStride: number;
  shards: ShardEntry[];
}

export interface DatasetOptions {
  readonly rules: Rules;
  readonly players: readonly PlayerSpec[];
  readonly deals: number;
  readonly dealStart: number;
  readonly shardDeals: number;
  readonly maxStates: number;
  readonly maxSteps: number;
  readonly workers: number;
  readonly out: string;
}

const shardName = (k: number): string => `shard-${String(k).padStart(5, "0")}`;

/** Reads and checks `dir/index.json` (UsageError naming the file when it is damaged). */
export function readIndex(dir: string): DatasetIndex {
  const file = join(dir, "index.json");
  let idx: DatasetIndex;
  try {
    idx = JSON.parse(
      readTextFile(file, { maxBytes: MAX_RUN_FILE_BYTES, what: "dataset index" }),
    ) as DatasetIndex;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(
      `${file} is missing or damaged (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
    );
  }
  if (idx.format !== FORMAT || idx.version !== FORMAT_VERSION || !Array.isArray(idx.shards))
    throw new UsageError(`${file} is not a ${FORMAT} v${FORMAT_VERSION} index`);
  // Indexes written before a rule option existed lack it; the preset's value is what they were labelled under.
  const { preset, ...options } = idx.rules;
  return { ...idx, rules: resolveRules(preset, options) };
}

function writeShard(
  dir: string,
  r: ShardArrays,
  k: number,
  firstDeal: number,
  deals: number,
): ShardEntry {
  const name = shardName(k);
  const final = join(dir, name);
  const tmp = `${final}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [key, a] of Object.entries(r.arrays))
    writeNpy(join(tmp, `${key}.npy`), a.data, a.shape);
  rmSync(final, { recursive: true, force: true });
  renameSync(tmp, final);
  const label = r.arrays.label!.data;
  const states = r.arrays.states!.data;
  let winnable = 0,
    lost = 0,
    unknown = 0,
    calls = 0;
  for (let i = 0; i < label.length; i++) {
    if (label[i] === 1) winnable++;
    else if (label[i] === 0) lost++;
    else unknown++;
    if (states[i]! > 0) calls++;
  }
  return {
    name,
    firstDeal,
    deals,
    decisions: r.arrays.deal!.data.length,
    moves: label.length,
    winnable,
    lost,
    unknown,
    solverCalls: calls,
    gamesWon: r.gamesWon,
    seconds: Math.round(r.ms) / 1000,
  };
}

type LabelTask = ShardTask & { first: number };

/** Generates (or continues) a dataset; returns its index. `stop()` true ends after the shards in flight. */
export async function runDataset(
  o: DatasetOptions,
  log: (line: string) => void,
  stop: () => boolean = () => false,
): Promise<DatasetIndex> {
  checkSeeds("labelling", "--seed/--deals", o.dealStart, o.deals);
  const players = o.players.map(playerLabel);
  const idx = openIndex(o, players);
  makeFolder(o.out);
  // One run per folder; the lock goes when this process exits, however it ends.
  const lock = lockFolder(o.out);
  try {
    // The index is there from the start, so a run killed in its first shard can be resumed.
    writeIndex(o.out, idx);
    const nShards = Math.ceil(o.deals / o.shardDeals);
    const tasks = missingShards(o, idx, nShards, players.length);
    log(
      `dataset ${o.out}: ${nShards - tasks.length}/${nShards} shards already done, ${tasks.length} to label (${o.workers} worker${o.workers === 1 ? "" : "s"})`,
    );
    await labelShards(o, tasks, shardSaver(o, idx, tasks, log), stop);
    return idx;
  } finally {
    lock.release();
  }
}

/**
 * The index the run writes: a fresh one, or the one in o.out when it was made with the same
 * options (its finished shards kept, its deals raised to o.deals). Refuses any other folder.
 */
function openIndex(o: DatasetOptions, players: string[]): DatasetIndex {
  const fresh: DatasetIndex = {
    format: FORMAT,
    version: FORMAT_VERSION,
    rules: o.rules,
    rulesLabel: rulesLabel(o.rules),
    players,
    dealStart: o.dealStart,
    deals: o.deals,
    shardDeals: o.shardDeals,
    maxStates: o.maxStates,
    maxSteps: o.maxSteps,
    packStride: PACK_STRIDE,
    shards: [],
  };
  if (existsSync(o.out) && !statSync(o.out).isDirectory())
    throw new UsageError(`--out ${o.out} is not a directory`);
  // Shard folders and index temp files of killed runs (their process gone) go first.
  removeStaleTemps(o.out);
  if (!existsSync(join(o.out, "index.json"))) {
    if (existsSync(o.out) && readdirSync(o.out).some((n) => n !== ".lock"))
      throw new UsageError(
        `--out ${o.out} exists and holds no ${FORMAT} index; name a new or empty directory`,
      );
    return fresh;
  }
  const old = readIndex(o.out);
  for (const k of ["rulesLabel", "dealStart", "shardDeals", "maxStates", "maxSteps"] as const)
    if (old[k] !== fresh[k])
      throw new UsageError(
        `${o.out} was made with ${k} = ${JSON.stringify(old[k])}, not ${JSON.stringify(fresh[k])}; use another --out or the same options`,
      );
  if (old.players.join(",") !== players.join(","))
    throw new UsageError(
      `${o.out} was made with --agent ${old.players.join(",")}; use another --out or the same players`,
    );
  return { ...old, deals: Math.max(old.deals, o.deals) };
}

function writeIndex(dir: string, idx: DatasetIndex): void {
  writeAtomic(join(dir, "index.json"), `${JSON.stringify(idx, null, 1)}\n`);
}

/**
 * The shards of the first nShards the index does not list yet. The players take turns by deal
 * across the whole dataset, so a deal gets the same player whichever run labels it.
 */
function missingShards(
  o: DatasetOptions,
  idx: DatasetIndex,
  nShards: number,
  nPlayers: number,
): LabelTask[] {
  const done = new Set(idx.shards.map((s) => s.name));
  const tasks: LabelTask[] = [];
  for (let k = 0; k < nShards; k++) {
    if (done.has(shardName(k))) continue;
    const first = o.dealStart + k * o.shardDeals;
    const n = Math.min(o.shardDeals, o.deals - k * o.shardDeals);
    const seeds = Array.from({ length: n }, (_, i) => first + i);
    tasks.push({
      shard: k,
      seeds,
      players: seeds.map((_, i) => (k * o.shardDeals + i) % nPlayers),
      first,
    });
  }
  return tasks;
}

/** What to do with a labelled shard: write it, list it in the index, log it with the labelling speed. */
function shardSaver(
  o: DatasetOptions,
  idx: DatasetIndex,
  tasks: readonly LabelTask[],
  log: (line: string) => void,
): (r: ShardArrays) => void {
  const cpu0 = process.cpuUsage();
  let labels = 0;
  return (r) => {
    const t = tasks.find((x) => x.shard === r.shard)!;
    const e = writeShardOrFail(o.out, r, t);
    idx.shards = [...idx.shards.filter((s) => s.name !== e.name), e].sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    writeIndex(o.out, idx);
    labels += e.moves;
    const c = process.cpuUsage(cpu0);
    const cpuS = (c.user + c.system) / 1e6;
    log(
      `${e.name}: deals ${e.firstDeal}–${e.firstDeal + e.deals - 1}, ${e.decisions} positions, ${e.moves} moves (${e.lost} lost, ${e.unknown} unknown), ${e.gamesWon}/${e.deals} games won; ${(labels / cpuS).toFixed(0)} labels per CPU-second`,
    );
  };
}

/** writeShard; on a failed write (a full disk) the shard's temp folder goes, the finished shards and index stay. */
function writeShardOrFail(dir: string, r: ShardArrays, t: LabelTask): ShardEntry {
  try {
    return writeShard(dir, r, r.shard, t.first, t.seeds.length);
  } catch (err) {
    rmSync(join(dir, `${shardName(r.shard)}.tmp-${process.pid}`), {
      recursive: true,
      force: true,
    });
    throw writeFailure(
      join(dir, shardName(r.shard)),
      err,
      "the shards before it are kept; rerun the same command to resume",
    );
  }
}

/** Labels the shards in this process (one worker) or a pool of o.workers, saving each as it comes. */
async function labelShards(
  o: DatasetOptions,
  tasks: readonly LabelTask[],
  save: (r: ShardArrays) => void,
  stop: () => boolean,
): Promise<void> {
  const init: ShardInit = {
    rules: o.rules,
    players: o.players,
    maxStates: o.maxStates,
    maxSteps: o.maxSteps,
  };
  if (o.workers <= 1) {
    const ctx = await setupPlayers(init);
    for (const t of tasks) {
      if (stop()) break;
      save(labelShard(ctx, t));
      await new Promise((r) => setImmediate(r));
    }
    return;
  }
  const pool = new TaskPool<ShardInit, ShardTask, ShardArrays>(
    workerModule("./worker.js", import.meta.url),
    init,
    o.workers,
    "dataset",
  );
  try {
    await pool.run(tasks, (_, r) => save(r), stop);
  } finally {
    await pool.close();
  }
}

/** Every shard's arrays concatenated (decision indices made global), for training. */
export interface SafetyData {
  readonly index: DatasetIndex;
  readonly before: Uint8Array;
  readonly deal: Int32Array;
  readonly after: Uint8Array;
  readonly decision: Int32Array;
  readonly move: Int32Array;
  readonly label: Int8Array;
  readonly played: Uint8Array;
  /** Solver line length from the position after each move (−1 unless winnable). */
  readonly dist: Int16Array;
}

export function loadDataset(dirs: readonly string[]): SafetyData {
  const parts: Record<string, NpyArray[]> = {
    before: [],
    deal: [],
    after: [],
    decision: [],
    move: [],
    label: [],
    played: [],
    dist: [],
  };
  let index: DatasetIndex | undefined;
  let offset = 0;
  for (const dir of dirs) {
    const idx = readIndex(dir);
    if (index && idx.rulesLabel !== index.rulesLabel)
      throw new UsageError(`${dir} holds rules ${idx.rulesLabel}, not ${index.rulesLabel}`);
    index ??= idx;
    for (const s of idx.shards) {
      const read = (k: string): NpyArray => readNpy(join(dir, s.name, `${k}.npy`)).data;
      const dec = read("decision") as Int32Array;
      const deal = read("deal");
      parts.decision!.push(dec.map((d) => d + offset));
      offset += deal.length;
      parts.deal!.push(deal);
      for (const k of ["before", "after", "move", "label", "played", "dist"])
        parts[k]!.push(read(k));
    }
  }
  if (!index) throw new UsageError("no dataset given");
  const cat = <A extends NpyArray>(k: string, make: (n: number) => A): A => {
    const list = parts[k]!;
    const out = make(list.reduce((n, a) => n + a.length, 0));
    let at = 0;
    for (const a of list) {
      out.set(a as never, at);
      at += a.length;
    }
    return out;
  };
  return {
    index,
    before: cat("before", (n) => new Uint8Array(n)),
    deal: cat("deal", (n) => new Int32Array(n)),
    after: cat("after", (n) => new Uint8Array(n)),
    decision: cat("decision", (n) => new Int32Array(n)),
    move: cat("move", (n) => new Int32Array(n)),
    label: cat("label", (n) => new Int8Array(n)),
    played: cat("played", (n) => new Uint8Array(n)),
    dist: cat("dist", (n) => new Int16Array(n)),
  };
}
