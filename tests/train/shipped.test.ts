// The checkpoints shipped in results/ must still play the games their committed CSVs record:
// a change to an encoder, a loader, the guard or the search that moves any trajectory shows up
// here as a changed row, instead of silently leaving stale figures in the docs.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveRules } from "../../src/engine/rules.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { seedRange } from "../../src/eval/deals.js";
import { parseCsvText } from "../../src/util/csv.js";

const root = join(import.meta.dirname, "../..");
const DEALS = 6;

/** won, cards home and moves of the first rows of a committed eval CSV (timing left out). */
function recorded(csv: string, count: number): string[] {
  const [header, ...rows] = parseCsvText(readFileSync(join(root, csv), "utf8"), csv).records.map(
    (r) => r.fields,
  );
  const at = (name: string): number => header!.indexOf(name);
  return rows
    .slice(0, count)
    .map((f) => `${f[at("deal")]} ${f[at("won")]} ${f[at("cards_home")]} ${f[at("moves")]}`);
}

const cases: {
  name: string;
  agent: string;
  options: Record<string, string>;
  csv: string;
  cells?: number;
  /** The CSV's first deal (default 1). */
  first?: number;
}[] = [
  {
    name: "first safety network",
    agent: "safety",
    options: { model: "results/train-safety/run" },
    csv: "results/train-safety/safety-1-1000.csv",
  },
  {
    name: "attention safety network",
    agent: "safety",
    options: { model: "results/train-safety/run-att" },
    csv: "results/train-safety/safety-att-1-1000.csv",
  },
  {
    name: "choice-objective safety network",
    agent: "safety",
    options: { model: "results/train-safety/run-choice" },
    csv: "results/train-safety/safety-choice-1-1000.csv",
  },
  {
    name: "lookahead-target safety network",
    agent: "safety",
    options: { model: "results/train-safety/run-look" },
    csv: "results/train-safety/safety-look-1-1000.csv",
  },
  {
    name: "safety network with flipper release costs",
    agent: "safety",
    options: { model: "results/train-safety/run-flippers" },
    csv: "results/train-safety/safety-flippers-1-1000.csv",
  },
  {
    name: "safety network with card rows",
    agent: "safety",
    options: { model: "results/train-safety/run-cards" },
    csv: "results/train-safety/safety-cards-1-1000.csv",
  },
  {
    name: "safety network with card rows, 4 epochs",
    agent: "safety",
    options: { model: "results/train-safety/run-cards-4ep" },
    csv: "results/train-safety/safety-cards-4ep-1-1000.csv",
  },
  {
    name: "safety network whose card rows carry their links, trained from scratch",
    agent: "safety",
    options: { model: "results/train-safety/run-links-scratch/last" },
    csv: "results/train-safety/safety-links-scratch-last-1-1000.csv",
  },
  {
    name: "the base network fine-tuned on its own games (results/learn/r1-w5/last)",
    agent: "safety",
    options: { model: "results/learn/r1-w5/last" },
    csv: "results/learn/test/safety-r1-w5-10001-20000.csv",
    first: 10001,
  },
  {
    name: "the network the package ships (--agent safety without a model) is that network",
    agent: "safety",
    options: {},
    csv: "results/learn/test/safety-r1-w5-10001-20000.csv",
    first: 10001,
  },
  {
    name: "safety network with card rows, 4 epochs, played with 5 flippers",
    agent: "safety",
    options: { model: "results/train-safety/run-cards-4ep" },
    csv: "results/train-safety/safety-cards-4ep-f5-1-1000.csv",
    cells: 5,
  },
  {
    name: "lookahead-target safety network tuned at 5 flippers",
    agent: "safety",
    options: { model: "results/train-safety/run-look-f5" },
    csv: "results/train-safety/safety-look-f5-tuned-1-1000.csv",
    cells: 5,
  },
  {
    name: "ES scorer",
    agent: "scorer",
    options: { model: "results/train-es" },
    csv: "results/train-safety/es-1-1000.csv",
  },
  {
    name: "guided search, network at the root, 300 positions",
    agent: "guided",
    options: { order: "safety-root", model: "results/train-safety/run", nodes: "300" },
    csv: "results/guided/guided-safety-root-300-1-1000.csv",
  },
];

describe("shipped checkpoints replay their recorded games", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const options = Object.fromEntries(
        Object.entries(c.options).map(([k, v]) => [k, k === "model" ? join(root, v) : v]),
      );
      const rows: string[] = [];
      for await (const r of evaluate({
        agent: c.agent,
        agentOptions: options,
        rules: resolveRules("penguin", c.cells === undefined ? {} : { cells: c.cells }),
        deals: seedRange(c.first ?? 1, DEALS),
        timing: false,
      })) {
        rows.push(`${r.deal} ${r.won} ${r.cardsHome} ${r.moves}`);
      }
      expect(rows).toEqual(recorded(c.csv, DEALS));
    }, 60_000);
  }
});

describe("the shipped safety network", () => {
  it("is the run's network byte for byte, with its operating point", () => {
    const run = join(root, "results/learn/r1-w5/last");
    const shipped = join(root, "models/safety");
    expect(readFileSync(join(shipped, "weights.bin"))).toEqual(
      readFileSync(join(run, "weights.bin")),
    );
    const a = JSON.parse(readFileSync(join(shipped, "model.json"), "utf8"));
    const b = JSON.parse(readFileSync(join(run, "model.json"), "utf8"));
    expect(a.weightsSha256).toBe(b.weightsSha256);
    expect(a.meta.play).toEqual(b.meta.play);
    expect(JSON.stringify(a)).not.toContain("/work/");
  });
});
