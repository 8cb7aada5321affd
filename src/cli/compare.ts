/**
 * `penguin compare a.csv b.csv`: two players' evaluation CSVs (`penguin eval --out`) on the same
 * deals, side by side: each win rate with its Wilson interval, then the paired view — deals only
 * one of them won — and the exact McNemar p-value of "they win equally often". Pairing removes the
 * deals' own difficulty, which two separate intervals cannot.
 */
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../errors.js";
import { mcnemarExact } from "../eval/stats.js";
import { wilson } from "../util/wilson.js";
import { readCsvFile } from "../util/csv.js";

interface CompareArgs {
  a: string;
  b: string;
  json: boolean;
}

interface Side {
  file: string;
  agent: string;
  /** won per "rules/deal" key. */
  won: Map<string, boolean>;
}

function readSide(file: string): Side {
  const out: Side = { file, agent: "", won: new Map() };
  const agents = new Set<string>();
  let header: string[] = [];
  let at = { deal: -1, rules: -1, agent: -1, won: -1 };
  readCsvFile(file, "evaluation CSV", ({ fields: f }, n) => {
    if (n === 0) {
      header = f;
      const col = (name: string): number => {
        const i = header.indexOf(name);
        if (i < 0)
          throw new UsageError(
            `${file} is not an evaluation CSV: it has no "${name}" column (expected the header of penguin eval --out)`,
          );
        return i;
      };
      at = { deal: col("deal"), rules: col("rules"), agent: col("agent"), won: col("won") };
      return;
    }
    if (f.length !== header.length)
      throw new UsageError(
        `${file} line ${n + 1} has ${f.length} fields, expected ${header.length}`,
      );
    const won = f[at.won];
    if (won !== "true" && won !== "false")
      throw new UsageError(
        `${file} line ${n + 1}: won is ${JSON.stringify(won)}, expected true or false`,
      );
    const key = `${f[at.rules]}/${f[at.deal]}`;
    if (out.won.has(key))
      throw new UsageError(
        `${file} holds deal ${f[at.deal]} (${f[at.rules]}) twice: compare one player per file`,
      );
    out.won.set(key, won === "true");
    agents.add(f[at.agent]!);
  });
  if (header.length === 0)
    throw new UsageError(`${file} is empty: expected the CSV of penguin eval --out`);
  if (agents.size !== 1)
    throw new UsageError(
      `${file} holds ${agents.size} players (${[...agents].join(", ") || "none"}): compare one player per file`,
    );
  out.agent = [...agents][0]!;
  return out;
}

export interface Comparison {
  deals: number;
  a: { agent: string; wins: number; winRate: number; wilson95: [number, number] };
  b: { agent: string; wins: number; winRate: number; wilson95: [number, number] };
  aOnly: number;
  bOnly: number;
  mcnemarP: number;
}

export function compareFiles(fa: string, fb: string): Comparison {
  const A = readSide(fa);
  const B = readSide(fb);
  const missing =
    [...A.won.keys()].filter((k) => !B.won.has(k)).length +
    [...B.won.keys()].filter((k) => !A.won.has(k)).length;
  if (missing > 0)
    throw new UsageError(
      `the two files must cover the same deals: ${missing} deal(s) appear in only one of them`,
    );
  let wa = 0;
  let wb = 0;
  let aOnly = 0;
  let bOnly = 0;
  for (const [k, a] of A.won) {
    const b = B.won.get(k)!;
    if (a) wa++;
    if (b) wb++;
    if (a && !b) aOnly++;
    if (b && !a) bOnly++;
  }
  const n = A.won.size;
  const side = (agent: string, w: number): Comparison["a"] => {
    const i = wilson(w, n);
    return { agent, wins: w, winRate: n ? w / n : 0, wilson95: [i.low, i.high] };
  };
  return {
    deals: n,
    a: side(A.agent, wa),
    b: side(B.agent, wb),
    aOnly,
    bOnly,
    mcnemarP: mcnemarExact(aOnly, bOnly),
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

export const compareCommand: CommandModule<object, CompareArgs> = {
  command: "compare <a> <b>",
  describe:
    "compare two players' evaluation CSVs on the same deals (win rates, paired McNemar test)",
  builder: (y: Argv<object>) =>
    y
      .positional("a", {
        type: "string",
        demandOption: true,
        describe: "CSV of penguin eval --out",
      })
      .positional("b", {
        type: "string",
        demandOption: true,
        describe: "CSV of penguin eval --out, same deals",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "print one JSON object",
      }) as unknown as Argv<CompareArgs>,
  handler: (a: CompareArgs) => {
    const c = compareFiles(a.a, a.b);
    if (a.json) {
      console.log(JSON.stringify(c));
      return;
    }
    for (const s of [c.a, c.b])
      console.log(
        `${s.agent}: ${s.wins}/${c.deals} = ${pct(s.winRate)} (95% Wilson ${pct(s.wilson95[0])}–${pct(s.wilson95[1])})`,
      );
    console.log(
      `won by ${c.a.agent} only: ${c.aOnly}; by ${c.b.agent} only: ${c.bOnly}; exact McNemar p = ${c.mcnemarP.toPrecision(3)}`,
    );
  },
};
