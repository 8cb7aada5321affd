/**
 * `penguin compare a.csv b.csv`: two players' evaluation CSVs (`penguin eval --out`) on the same
 * deals, side by side: each win rate with its Wilson interval, then the paired view — deals only
 * one of them won — and the exact McNemar p-value of "they win equally often". Pairing removes the
 * deals' own difficulty, which two separate intervals cannot.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../errors.js";
import { mcnemarExact } from "../eval/stats.js";
import { wilson } from "../util/wilson.js";
import { parseCsv } from "./merge.js";

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
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const { records } = parseCsv(readFileSync(file, "utf8"));
  const header = records[0]?.fields ?? [];
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new UsageError(`${file} is not an evaluation CSV: it has no "${name}" column (expected the header of penguin eval --out)`);
    return i;
  };
  const [deal, rules, agent, won] = [col("deal"), col("rules"), col("agent"), col("won")];
  const out: Side = { file, agent: "", won: new Map() };
  const agents = new Set<string>();
  for (const r of records.slice(1)) {
    const f = r.fields;
    if (f.length !== header.length) continue;
    const key = `${f[rules]}/${f[deal]}`;
    if (out.won.has(key)) throw new UsageError(`${file} holds deal ${f[deal]} (${f[rules]}) twice: compare one player per file`);
    out.won.set(key, f[won] === "true");
    agents.add(f[agent]!);
  }
  if (agents.size !== 1) throw new UsageError(`${file} holds ${agents.size} players (${[...agents].join(", ") || "none"}): compare one player per file`);
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
  const missing = [...A.won.keys()].filter((k) => !B.won.has(k)).length + [...B.won.keys()].filter((k) => !A.won.has(k)).length;
  if (missing > 0) throw new UsageError(`the two files must cover the same deals: ${missing} deal(s) appear in only one of them`);
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
  return { deals: n, a: side(A.agent, wa), b: side(B.agent, wb), aOnly, bOnly, mcnemarP: mcnemarExact(aOnly, bOnly) };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

export const compareCommand: CommandModule<object, CompareArgs> = {
  command: "compare <a> <b>",
  describe: "compare two players' evaluation CSVs on the same deals (win rates, paired McNemar test)",
  builder: (y: Argv<object>) =>
    y
      .positional("a", { type: "string", demandOption: true, describe: "CSV of penguin eval --out" })
      .positional("b", { type: "string", demandOption: true, describe: "CSV of penguin eval --out, same deals" })
      .option("json", { type: "boolean", default: false, describe: "print one JSON object" }) as unknown as Argv<CompareArgs>,
  handler: (a: CompareArgs) => {
    const c = compareFiles(a.a, a.b);
    if (a.json) {
      console.log(JSON.stringify(c));
      return;
    }
    for (const s of [c.a, c.b]) console.log(`${s.agent}: ${s.wins}/${c.deals} = ${pct(s.winRate)} (95% Wilson ${pct(s.wilson95[0])}–${pct(s.wilson95[1])})`);
    console.log(`won by ${c.a.agent} only: ${c.aOnly}; by ${c.b.agent} only: ${c.bOnly}; exact McNemar p = ${c.mcnemarP.toPrecision(3)}`);
  },
};
