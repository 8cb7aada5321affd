import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deal } from "../../src/engine/deal.js";
import { applyMove } from "../../src/engine/moves.js";
import { resolveRules } from "../../src/engine/rules.js";
import { COLUMN_CAP } from "../../src/engine/state.js";
import { PositionSet } from "../../src/agents/repeat-guard.js";
import { ActionCodec } from "../../src/env/actions.js";
import { solve } from "../../src/solver/index.js";
import { PACK_STRIDE, unpackState, Unpacker } from "../../src/train/safety/pack.js";
import { decodeNpy, encodeNpy } from "../../src/train/safety/npy.js";
import { loadDataset } from "../../src/train/safety/dataset.js";
import { SafetyView } from "../../src/players/safety/agent.js";
import { decisionStarts } from "../../src/train/safety/choice.js";
import { lookaheadValues } from "../../src/train/safety/teacher.js";
import { LookaheadAgent } from "../../src/agents/lookahead.js";
import {
  defaultConfig,
  featuresOf,
  initWeights,
  loadSafety,
} from "../../src/players/safety/model.js";
import { scratchDir } from "./helpers.js";

const root = process.cwd();
const rules = resolveRules("penguin");
const dir = scratchDir("safety");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function penguin(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("node", ["bin/penguin.js", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
const shardBytes = (d: string): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const s of readdirSync(d)
    .filter((n) => n.startsWith("shard-"))
    .sort())
    for (const f of readdirSync(join(d, s)).sort())
      out[`${s}/${f}`] = readFileSync(join(d, s, f)).toString("base64");
  return out;
};

describe(".npy files", () => {
  it("round-trip every dtype and shape, with a header numpy accepts (64-byte aligned, NUMPY magic)", () => {
    const cases = [
      new Uint8Array([1, 2, 3, 4, 5, 6]),
      new Int8Array([-1, 0, 1, 2, 3, 4]),
      new Int16Array([-300, 2, 3, 4, 5, 6]),
      new Int32Array([1 << 30, -5, 3, 4, 5, 6]),
      new Float32Array([0.5, -1.25, 3, 4, 5, 6]),
    ];
    for (const a of cases) {
      const bytes = encodeNpy(a, [2, 3]);
      expect(String.fromCharCode(...bytes.subarray(1, 6))).toBe("NUMPY");
      const hlen = bytes[8]! | (bytes[9]! << 8);
      expect((10 + hlen) % 64).toBe(0);
      const back = decodeNpy(bytes);
      expect(back.shape).toEqual([2, 3]);
      expect(Array.from(back.data)).toEqual(Array.from(a));
      expect(back.data.constructor).toBe(a.constructor);
    }
    expect(decodeNpy(encodeNpy(new Int32Array([7]), [1])).shape).toEqual([1]);
    expect(() => decodeNpy(encodeNpy(new Int32Array([7, 8]), [2]).subarray(0, 70))).toThrow(
      /data bytes/,
    );
  });
});

describe("penguin dataset", () => {
  const a = join(dir, "a");
  it("labels every legal move of the positions played, checked against the solver; refuses reserved deals", () => {
    const r = penguin([
      "dataset",
      "--agent",
      "safe,greedy:heuristic=tuned",
      "--deals",
      "2",
      "--shard-deals",
      "1",
      "--max-states",
      "20000",
      "--out",
      a,
      "--quiet",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const idx = JSON.parse(readFileSync(join(a, "index.json"), "utf8"));
    expect(idx.shards.map((s: { name: string }) => s.name)).toEqual(["shard-00000", "shard-00001"]);
    const data = loadDataset([a]);
    expect(data.deal[0]).toBe(1_000_000);
    // The first position is the deal itself.
    const u = new Unpacker(rules);
    const start = deal(rules, 1_000_000);
    const s0 = u.state(data.before[0]!);
    unpackState(data.before, 0, s0);
    for (let c = 0; c < 7; c++) expect(s0.column(c)).toEqual(start.column(c));
    // Moves of decision 0 = the legal moves of the deal, each after-position = deal + move.
    const codec = new ActionCodec(rules);
    const mask = new Uint8Array(codec.n);
    const legal = codec.fillMask(start, mask);
    const first = [...data.decision.keys()].filter((k) => data.decision[k] === 0);
    expect(first.length).toBe(legal);
    // Every tenth label agrees with a fresh solve of its after-position; exactly one move per decision is played.
    let checked = 0;
    for (let k = 0; k < data.label.length; k += 10) {
      const s = u.state(data.after[k * PACK_STRIDE]!).clone();
      unpackState(data.after, k * PACK_STRIDE, s);
      s.rehash();
      const v = solve(s, { maxStates: 20000 });
      expect(data.label[k]).toBe(v.result === "solved" ? 1 : v.result === "unsolvable" ? 0 : -1);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    const played = new Int32Array(data.deal.length);
    for (let k = 0; k < data.label.length; k++)
      played[data.decision[k]!] = played[data.decision[k]!]! + data.played[k]!;
    expect(Array.from(played).every((n) => n === 1)).toBe(true);
    // The greedy game stops at its first losing move, if any: a lost played move is the last of its game.
    for (let k = 0; k < data.label.length; k++)
      if (data.played[k] === 1 && data.label[k] === 0)
        expect(data.decision[k]).toBe(data.deal.length - 1);
    const bad = penguin(["dataset", "--seed", "9990", "--deals", "20", "--out", join(dir, "bad")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--seed must be an integer from 100000/);
    expect(existsSync(join(dir, "bad"))).toBe(false);
  }, 60_000);

  it("resumes: 1 shard then 2 gives the bytes of one run of 2, with 2 workers", () => {
    const b = join(dir, "b");
    expect(
      penguin([
        "dataset",
        "--agent",
        "safe,greedy:heuristic=tuned",
        "--deals",
        "1",
        "--shard-deals",
        "1",
        "--out",
        b,
        "--quiet",
      ]).code,
    ).toBe(0);
    const r = penguin([
      "dataset",
      "--agent",
      "safe,greedy:heuristic=tuned",
      "--deals",
      "2",
      "--shard-deals",
      "1",
      "--workers",
      "2",
      "--out",
      b,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1\/2 shards already done/);
    expect(shardBytes(b)).toEqual(shardBytes(a));
    const other = penguin([
      "dataset",
      "--agent",
      "safe",
      "--deals",
      "2",
      "--shard-deals",
      "1",
      "--out",
      b,
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--agent safe,greedy:heuristic=tuned/);
  }, 60_000);

  it("trains a tiny safety network from the CLI, which penguin eval then plays", () => {
    const run = join(dir, "run");
    const t = penguin([
      "train",
      "--algo",
      "safety",
      "--data",
      a,
      "--out",
      run,
      "--safety-objective",
      "risk",
      "--choice-target",
      "winnable",
      "--safety-epochs",
      "0.5",
      "--safety-batch",
      "16",
      "--keep-safe",
      "1",
      "--validation-deals",
      "2",
      "--thresholds",
      "0.5",
      "--column-hidden",
      "8",
      "--head-hidden",
      "8",
    ]);
    expect(t.stderr.split("\n").filter((l) => l.startsWith("penguin:"))).toEqual([]);
    expect(t.code).toBe(0);
    expect(existsSync(join(run, "checkpoint", "model.json"))).toBe(true);
    const csv = join(dir, "eval.csv");
    const e = penguin([
      "eval",
      "--agent",
      "safety",
      "--agent-opt",
      `model=${run}`,
      "--deals",
      "3",
      "--seed",
      "1",
      "--out",
      csv,
    ]);
    expect(e.code).toBe(0);
    expect(readFileSync(csv, "utf8").trim().split("\n").length).toBe(4);
    expect(loadSafety(run).meta.play).toMatchObject({ threshold: 0.5 });
    const bad = penguin([
      "train",
      "--algo",
      "safety",
      "--data",
      a,
      "--out",
      join(dir, "never"),
      "--lost-weight",
      "0",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--lost-weight must be a number > 0/);
    expect(existsSync(join(dir, "never"))).toBe(false);
  }, 120_000);

  it("validates twice an epoch, mid-way and at its end, also when an epoch has an odd number of steps", () => {
    // 69 training moves in batches of 12: 5 steps an epoch. Validation once at step 2 and at step 5
    // of each epoch (an earlier version also validated at every multiple of 2 steps).
    const run = join(dir, "run-odd");
    const t = penguin([
      "train",
      "safety",
      "--data",
      a,
      "--out",
      run,
      "--safety-epochs",
      "2",
      "--safety-batch",
      "12",
      "--safety-objective",
      "risk",
      "--choice-target",
      "winnable",
      "--keep-safe",
      "1",
      "--validation-deals",
      "2",
      "--thresholds",
      "0.5",
      "--column-hidden",
      "8",
      "--head-hidden",
      "8",
    ]);
    expect(t.code).toBe(0);
    expect(t.stdout + t.stderr).toMatch(/training on 69 moves/);
    const [head, ...rows] = readFileSync(join(run, "metrics.csv"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    const steps = rows
      .filter((r) => r[head!.indexOf("val_loss")] !== "")
      .map((r) => Number(r[head!.indexOf("step")]));
    expect(steps).toEqual([2, 5, 7, 10]);
  }, 60_000);

  it("trains the choice objective on card rows with suits renamed; penguin eval plays it with its options and refuses bad ones", () => {
    const run = join(dir, "run-choice");
    const t = penguin([
      "train",
      "safety",
      "--data",
      a,
      "--out",
      run,
      "--safety-objective",
      "choice",
      "--suit-shuffle",
      "--safety-features",
      "cards",
      "--card-hidden",
      "6,4",
      "--safety-epochs",
      "0.5",
      "--safety-batch",
      "4",
      "--keep-safe",
      "1",
      "--validation-deals",
      "2",
      "--thresholds",
      "0.5",
      "--column-hidden",
      "8",
      "--head-hidden",
      "8",
    ]);
    expect(t.stderr.split("\n").filter((l) => l.startsWith("penguin:"))).toEqual([]);
    expect(t.code).toBe(0);
    const { weights } = loadSafety(run);
    expect(weights.config.objective).toBe("choice");
    expect(weights.config.cardHidden).toEqual([6, 4]);
    // A validation row: the loss above its floor (never negative) and the validation games' win rate.
    const [head, ...rows] = readFileSync(join(run, "metrics.csv"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    const v = rows.find((r) => r[head!.indexOf("val_loss")] !== "")!;
    expect(Number(v[head!.indexOf("val_loss")])).toBeGreaterThanOrEqual(0);
    expect(Number(v[head!.indexOf("val_win_rate")])).toBeGreaterThanOrEqual(0);
    const csv = join(dir, "eval-choice.csv");
    const e = penguin([
      "eval",
      "--agent",
      "safety",
      "--agent-opt",
      `model=${run}`,
      "--agent-opt",
      "order=net",
      "--deals",
      "2",
      "--seed",
      "1",
      "--out",
      csv,
    ]);
    expect(e.stderr).toBe("");
    expect(readFileSync(csv, "utf8")).toMatch(/order=net/);
    const bad = penguin([
      "eval",
      "--agent",
      "safety",
      "--agent-opt",
      `model=${run}`,
      "--agent-opt",
      "order=best",
      "--deals",
      "1",
      "--out",
      join(dir, "never.csv"),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/order must be greedy or net/);
    expect(existsSync(join(dir, "never.csv"))).toBe(false);
  }, 120_000);

  it("trains a network whose card rows carry their links, and refuses to start one from a network that reads other inputs", () => {
    const run = join(dir, "run-links");
    const t = penguin([
      "train",
      "safety",
      "--data",
      a,
      "--out",
      run,
      "--safety-objective",
      "choice",
      "--suit-shuffle",
      "--safety-features",
      "links",
      "--card-hidden",
      "6,4",
      "--safety-epochs",
      "0.5",
      "--safety-batch",
      "4",
      "--keep-safe",
      "1",
      "--validation-deals",
      "2",
      "--thresholds",
      "0.5",
      "--column-hidden",
      "8",
      "--head-hidden",
      "8",
    ]);
    expect(t.stderr.split("\n").filter((l) => l.startsWith("penguin:"))).toEqual([]);
    expect(t.code).toBe(0);
    const { weights } = loadSafety(join(run, "last"));
    expect(featuresOf(weights.config)).toBe("links");
    expect(weights.config.cardHidden).toEqual([6, 4]);
    // The card-row network of the test above, asked to read the links: refused before any folder is made.
    const never = join(dir, "never-links");
    const bad = penguin([
      "train",
      "safety",
      "--model",
      join(dir, "run-choice"),
      "--data",
      a,
      "--out",
      never,
      "--safety-objective",
      "choice",
      "--safety-features",
      "links",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/reads the cards features; give --safety-features cards/);
    expect(existsSync(never)).toBe(false);
  }, 120_000);

  it("trains the choice objective towards lookahead's values, and refuses a temperature out of range", () => {
    const run = join(dir, "run-look");
    const t = penguin([
      "train",
      "safety",
      "--data",
      a,
      "--out",
      run,
      "--safety-objective",
      "choice",
      "--choice-target",
      "lookahead",
      "--temperature",
      "1",
      "--safety-epochs",
      "0.5",
      "--safety-batch",
      "4",
      "--keep-safe",
      "1",
      "--validation-deals",
      "2",
      "--thresholds",
      "0.5",
      "--safety-shuffle",
      "0",
      "--safety-order",
      "net",
      "--column-hidden",
      "8",
      "--head-hidden",
      "8",
    ]);
    expect(t.stderr.split("\n").filter((l) => l.startsWith("penguin:"))).toEqual([]);
    expect(t.code).toBe(0);
    expect(readFileSync(join(run, "train.log"), "utf8")).toMatch(
      /lookahead's values as target \(T = 1\)/,
    );
    expect(loadSafety(run).meta.play).toMatchObject({ order: "net", shuffle: 0 });
    const bad = penguin([
      "train",
      "safety",
      "--data",
      a,
      "--out",
      join(dir, "never-run"),
      "--safety-objective",
      "choice",
      "--choice-target",
      "lookahead",
      "--temperature",
      "0",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--temperature/);
    expect(existsSync(join(dir, "never-run"))).toBe(false);
    const risk = penguin([
      "train",
      "safety",
      "--data",
      a,
      "--out",
      join(dir, "never-run"),
      "--safety-objective",
      "risk",
      "--choice-target",
      "lookahead",
    ]);
    expect(risk.code).toBe(2);
    expect(risk.stderr).toMatch(/--choice-target lookahead needs --safety-objective choice/);
    expect(existsSync(join(dir, "never-run"))).toBe(false);
  }, 120_000);
});

describe("the lookahead teacher", () => {
  it("values every winnable move of a dataset as the lookahead agent compares them, and no other move", () => {
    const data = loadDataset([join(dir, "a")]);
    const first = decisionStarts(data);
    const values = lookaheadValues(data, first, rules, () => true);
    const unpacker = new Unpacker(rules);
    let checked = 0;
    for (let d = 0; d < data.deal.length; d++) {
      let all = true;
      let best = -1;
      for (let k = first[d]!; k < first[d + 1]!; k++) {
        if (data.label[k] !== 1) {
          expect(values[k]).toBeNaN();
          all = false;
          continue;
        }
        expect(values[k]).toBeGreaterThanOrEqual(-1000);
        expect(values[k]).toBeLessThanOrEqual(1000);
        if (best < 0 || values[k]! > values[best]!) best = k;
      }
      // Where every move is winnable and the best value is unique, it is the move lookahead plays from that position.
      const top = best >= 0 ? values[best]! : NaN;
      let ties = 0;
      for (let k = first[d]!; k < first[d + 1]!; k++) if (values[k] === top) ties++;
      if (!all || best < 0 || ties !== 1) continue;
      const s = unpacker.state(data.before[d * PACK_STRIDE]!).clone();
      unpackState(data.before, d * PACK_STRIDE, s);
      const codec = new ActionCodec(rules);
      const mask = new Uint8Array(codec.n);
      const actionMoves = new Int32Array(codec.n);
      codec.fillMask(s, mask, actionMoves);
      const agent = new LookaheadAgent({});
      agent.reset(s.clone());
      const a = agent.act({ state: s, mask, observation: new Float32Array(0), codec, actionMoves });
      expect(actionMoves[a]).toBe(data.move[best]);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe("the safety network", () => {
  it.each([
    ["mean and max pooling", "basic", 0],
    ["structural features and attention", "structure", 2],
    ["flipper costs", "flippers", 0],
    ["card rows and attention", "cards", 2],
    ["card rows with links", "links", 0],
  ] as const)(
    "plays the weights it trained: the JavaScript forward pass equals the tf one (%s)",
    async (_, structure, heads) => {
      const { BatchEncoder } = await import("../../src/train/safety/batch.js");
      const { TfSafety } = await import("../../src/train/safety/network.js");
      const { initBackend, tf } = await import("../../src/train/backend.js");
      const { JsSafety } = await import("../../src/players/safety/model.js");
      const { COLUMN_WIDTH, FLIPPER_WIDTH } = await import("../../src/players/safety/encode.js");
      await initBackend();
      const data = loadDataset([join(dir, "a")]);
      const w = initWeights(defaultConfig(7, [16, 8], [12], structure, heads), 5);
      const enc = new BatchEncoder(rules, data, w.config);
      const GW = enc.globalWidth;
      const B = 24;
      const cols = new Float32Array(B * 7 * COLUMN_WIDTH);
      const flips = new Float32Array(B * FLIPPER_WIDTH);
      const globals = new Float32Array(B * GW);
      for (let r = 0; r < B; r++) enc.encode(r * 7, r, cols, flips, globals);
      const net = new TfSafety(w);
      const z = tf.tidy(() =>
        net.forward(
          tf.tensor2d(cols, [B * 7, COLUMN_WIDTH]),
          tf.tensor2d(flips, [B, FLIPPER_WIDTH]),
          tf.tensor2d(globals, [B, GW]),
          B,
        ),
      );
      const tfLogits = Array.from(z.dataSync());
      z.dispose();
      net.dispose();
      const js = new JsSafety(w);
      for (let r = 0; r < B; r++)
        expect(
          js.logit(cols, r * 7 * COLUMN_WIDTH, flips, r * FLIPPER_WIDTH, globals, r * GW),
        ).toBeCloseTo(tfLogits[r]!, 4);
      expect(new Set(tfLogits.map((v) => v.toFixed(4))).size).toBeGreaterThan(3);
    },
  );

  it.each([
    ["mean and max pooling", "basic", 0],
    ["structural features and attention", "structure", 4],
    ["flipper costs", "flippers", 0],
    ["card rows", "cards", 0],
    ["card rows with links", "links", 0],
  ] as const)(
    "scores a move the same whatever the order of the columns and flippers (%s)",
    (_, structure, heads) => {
      const w = initWeights(defaultConfig(7, [16], [16], structure, heads), 3);
      const codec = new ActionCodec(rules);
      const s = deal(rules, 42);
      // Play a few moves so flippers hold cards.
      const mask = new Uint8Array(codec.n);
      const am = new Int32Array(codec.n);
      for (let i = 0; i < 6; i++) {
        codec.fillMask(s, mask, am);
        applyMove(s, am[mask.indexOf(1)]!);
      }
      const t = s.clone();
      // Swap columns 0 and 3 and reverse the flippers.
      for (let d = 0; d < COLUMN_CAP; d++)
        [t.cards[d], t.cards[3 * COLUMN_CAP + d]] = [s.cards[3 * COLUMN_CAP + d]!, s.cards[d]!];
      [t.len[0], t.len[3]] = [s.len[3]!, s.len[0]!];
      for (let i = 0; i < 7; i++) t.cells[i] = s.cells[6 - i]!;
      t.rehash();
      const risks = (x: typeof s): number[] => {
        const v = new SafetyView(codec, w);
        v.look(x, new PositionSet());
        return Array.from(v.risk)
          .filter((_, a) => v.view.guarded[a] === 1)
          .sort();
      };
      const r1 = risks(s);
      const r2 = risks(t);
      expect(r1.length).toBeGreaterThan(2);
      r1.forEach((r, i) => expect(r2[i]).toBeCloseTo(r, 6));
    },
  );
});
