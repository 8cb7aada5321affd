import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRules } from "../../src/engine/rules.js";
import { UsageError } from "../../src/errors.js";
import { deal } from "../../src/engine/deal.js";
import { ActionCodec } from "../../src/env/actions.js";
import { GreedyAgent } from "../../src/agents/greedy.js";
import { EpisodeRunner } from "../../src/eval/game-loop.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { seedRange } from "../../src/eval/deals.js";
import { initBackend } from "../../src/train/backend.js";
import {
  esBasis,
  linearScorer,
  readEsState,
  trainEs,
  weightsOf,
  type EsOptions,
  type EsState,
} from "../../src/train/es/es.js";
import { LinearPlayer } from "../../src/train/es/fitness.js";
import { ScorerView } from "../../src/players/scorer/agent.js";
import { ROW } from "../../src/players/scorer/features.js";
import { jsScorerOf, loadScorer } from "../../src/train/scorer/model.js";
import { PositionSet } from "../../src/agents/repeat-guard.js";
import { scratchDir } from "./helpers.js";

const rules = resolveRules("penguin");
/** A short move cap keeps these runs quick (the default is the game's registered limit). */
const TINY_STEPS = 400;
const tiny = (out: string, over: Partial<EsOptions> = {}): Partial<EsOptions> => ({
  out,
  maxSteps: TINY_STEPS,
  seed: 3,
  minutes: 0,
  generations: 4,
  pop: 4,
  deals: 12,
  valDeals: 24,
  valEvery: 2,
  lrSchedule: "constant",
  quiet: true,
  ...over,
});
const state = (dir: string): EsState => readEsState(dir)!;

describe("evolution strategies on the linear action-scorer", () => {
  it("the starting weights play as greedy(tuned): the same outcome on all 40 deals (one tie-break for both)", () => {
    const { w0 } = esBasis();
    const player = new LinearPlayer(rules);
    const runner = new EpisodeRunner(rules, new GreedyAgent({ heuristic: "tuned" }));
    let same = 0;
    for (let seed = 1_500_000; seed < 1_500_040; seed++) {
      const a = player.play(w0, seed, 1000);
      const b = runner.play(deal(rules, seed), seed, 1000);
      if (a.won === b.won && a.cardsHome === b.cardsHome) same++;
    }
    // Both break score ties by the engine's move order (src/agents/repeat-guard.ts).
    expect(same).toBe(40);
  });

  it("a tiny run on a small fixed deal set raises its fitness there", async () => {
    const out = scratchDir("es-improve");
    const seeds = Array.from({ length: 30 }, (_, i) => 2_000_000 + i);
    await trainEs(
      tiny(out, {
        generations: 10,
        pop: 6,
        deals: seeds.length,
        fixedDeals: true,
        valDeals: 20,
        valEvery: 5,
        seed: 1,
        workers: 2,
      }),
    );
    const { w0, scale } = esBasis();
    const trained = weightsOf(Float64Array.from(state(out).theta), w0, scale);
    const player = new LinearPlayer(rules);
    const before = player.score(weightsOf(new Float64Array(ROW), w0, scale), seeds, TINY_STEPS);
    const after = player.score(trained, seeds, TINY_STEPS);
    expect(after.fitness).toBeGreaterThan(before.fitness + 1);
    expect(state(out).nextSeed).toBe(2_000_000);
  }, 120_000);

  it("gives the same weights with 1 or 2 workers, and a killed and resumed run matches an uninterrupted one", async () => {
    const a = scratchDir("es-w1");
    const b = scratchDir("es-w2");
    const c = scratchDir("es-resume");
    await trainEs(tiny(a, { workers: 1, generations: 5 }));
    await trainEs(tiny(b, { workers: 2, generations: 5 }));
    expect(state(b)).toEqual({ ...state(a), seconds: state(b).seconds });
    // Run c to generation 2 and keep its state; go on to 3 (which also validates, as a run's last
    // generation); then "kill" it back to the state of generation 2, as if it died before saving.
    await trainEs(tiny(c, { generations: 2 }));
    cpSync(join(c, "resume"), join(c, "resume-at2"), { recursive: true });
    await trainEs({ out: c, generations: 3, quiet: true }, true);
    rmSync(join(c, "resume"), { recursive: true });
    cpSync(join(c, "resume-at2"), join(c, "resume"), { recursive: true });
    await trainEs({ out: c, generations: 5, quiet: true }, true);
    const sa = state(a);
    const sc = state(c);
    for (const k of [
      "generation",
      "nextSeed",
      "theta",
      "adamM",
      "adamV",
      "rng",
      "best",
      "bestTheta",
    ] as const)
      expect(sc[k]).toEqual(sa[k]);
    // metrics.csv: every column but the timings is the same.
    const cols = (dir: string): string[] =>
      readFileSync(join(dir, "metrics.csv"), "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(",").slice(0, 6).join(","));
    expect(cols(c)).toEqual(cols(a));
    expect(readFileSync(join(c, "checkpoint", "weights.bin"))).toEqual(
      readFileSync(join(a, "checkpoint", "weights.bin")),
    );
    // The checkpoint plays through the common evaluation path.
    const rows = [];
    for await (const row of evaluate({
      agent: "scorer",
      agentOptions: { model: a },
      rules,
      deals: seedRange(1, 3),
      timing: false,
    }))
      rows.push(row);
    expect(rows).toHaveLength(3);
  }, 120_000);

  it("the saved network scores every legal action exactly as the weights do", async () => {
    await initBackend();
    const { w0 } = esBasis();
    const w = w0.map((x, j) => Math.fround(x + (j % 5) * 0.1 - 0.2));
    const out = scratchDir("es-net");
    const { saveScorer } = await import("../../src/train/scorer/model.js");
    await saveScorer(out, linearScorer(w, new ActionCodec(rules).n, 1));
    const js = jsScorerOf(await loadScorer(out));
    const view = new ScorerView(new ActionCodec(rules));
    const seen = new PositionSet();
    let checked = 0;
    for (let seed = 10; seed < 15; seed++) {
      view.look(deal(rules, seed), seen);
      for (let a = 0; a < view.mask.length; a++) {
        if (view.guarded[a] !== 1) continue;
        // JsScorer adds the (zero) head after the skip path, in the same order: the same double.
        let v = 0;
        for (let j = 0; j < ROW; j++) v += view.rows[a * ROW + j]! * w[j]!;
        expect(js.logit(view.rows, a * ROW)).toBe(v);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("refuses bad input with one line naming what is allowed", async () => {
    const out = scratchDir("es-bad");
    await expect(trainEs(tiny(out, { generations: 0 }))).rejects.toThrow(
      /--es-generations N or --max-minutes M/,
    );
    await expect(trainEs(tiny(out, { pop: 0 }))).rejects.toThrow(UsageError);
    await expect(trainEs(tiny(out, { sigma: -1 }))).rejects.toThrow(/--es-sigma must be > 0/);
    await expect(trainEs(tiny(out, { valStart: 500 }))).rejects.toThrow(
      /validation seeds 500–523 include seeds below 100000, which are reserved for evaluation/,
    );
    await expect(
      trainEs(tiny(out, { generations: 0, minutes: 1, lrSchedule: "linear" })),
    ).rejects.toThrow(/give it a number of generations/);
    await expect(trainEs({ out, quiet: true }, true)).rejects.toThrow(/no resume\/ checkpoint/);
    await trainEs(tiny(out, { generations: 1 }));
    await expect(trainEs(tiny(out))).rejects.toThrow(/already holds an ES run/);
    const bin = join(out, "resume", "tensors.bin");
    const good = readFileSync(bin);
    const bad = Buffer.from(good);
    bad[5] = bad[5]! ^ 0xff;
    writeFileSync(bin, bad);
    await expect(trainEs({ out, quiet: true }, true)).rejects.toThrow(
      /tensors\.bin does not match its recorded SHA-256/,
    );
    writeFileSync(bin, good);
    writeFileSync(join(out, "resume", "state.json"), "{ truncated");
    await expect(trainEs({ out, quiet: true }, true)).rejects.toThrow(
      /state\.json does not match its recorded SHA-256/,
    );
  }, 60_000);

  it("the shipped checkpoint (results/train-es) replays its recorded evaluation of deals 1-40", async () => {
    const recorded = readFileSync(join("results", "train-safety", "es-1-1000.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1, 41)
      .map((l) => l.split(","));
    const rows = [];
    for await (const row of evaluate({
      agent: "scorer",
      agentOptions: { model: join("results", "train-es") },
      rules,
      deals: seedRange(1, 40),
      timing: false,
    }))
      rows.push(row);
    expect(
      rows.map((r) => [String(r.deal), String(r.won), String(r.cardsHome), String(r.moves)]),
    ).toEqual(recorded.map((f) => [f[0], f[3], f[4], f[5]]));
    // and it does win deals (the recorded file: 494 of 1000)
    expect(rows.filter((r) => r.won).length).toBeGreaterThan(10);
  });
});
