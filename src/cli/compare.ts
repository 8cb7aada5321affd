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
import { flag } from "../options/registry.js";
import { heartbeat } from "./progress.js";

interface CompareArgs {
  a: string;
  b: string;
  json: boolean;
}

/** Deals per block of bits: a block holds "played" and "won" bits for this many deal numbers. */
const BLOCK = 4096;

/**
 * Which deals a file played and won, in two bits per deal: deal numbers (`7`, `ms:7`) go into
 * blocks of BLOCK deals per rules label, so a file of millions of rows (eval plays ranges) takes
 * a few bytes per deal, not a string key each. Anything else in the deal column (a text seed)
 * goes to a plain map.
 */
class DealResults {
  /** "rules\0ms" or "rules\0" → block number → bits: [0, BLOCK/8) played, [BLOCK/8, BLOCK/4) won. */
  readonly blocks = new Map<string, Map<number, Uint8Array>>();
  readonly other = new Map<string, boolean>();
  size = 0;
  wins = 0;

  /** Records a deal; false when it was already there. */
  add(rules: string, deal: string, won: boolean): boolean {
    const m = /^(ms:)?(\d{1,15})$/.exec(deal);
    if (!m) {
      const key = `${rules}\0${deal}`;
      if (this.other.has(key)) return false;
      this.other.set(key, won);
    } else {
      const group = `${rules}\0${m[1] ?? ""}`;
      const n = Number(m[2]);
      let g = this.blocks.get(group);
      if (!g) this.blocks.set(group, (g = new Map()));
      const b = Math.floor(n / BLOCK);
      let bits = g.get(b);
      if (!bits) g.set(b, (bits = new Uint8Array(BLOCK / 4)));
      const i = n % BLOCK;
      const mask = 1 << (i & 7);
      if (bits[i >> 3]! & mask) return false;
      bits[i >> 3]! |= mask;
      if (won) bits[BLOCK / 8 + (i >> 3)]! |= mask;
    }
    this.size++;
    if (won) this.wins++;
    return true;
  }
}

interface Side {
  file: string;
  agent: string;
  won: DealResults;
}

function popcount(x: number): number {
  let c = 0;
  for (let v = x; v; v &= v - 1) c++;
  return c;
}

function readSide(file: string, onRow?: () => void): Side {
  const out: Side = { file, agent: "", won: new DealResults() };
  const agents = new Set<string>();
  let header: string[] = [];
  let at = { deal: -1, rules: -1, agent: -1, won: -1 };
  readCsvFile(file, "evaluation CSV", ({ fields: f }, n) => {
    onRow?.();
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
    if (!out.won.add(f[at.rules]!, f[at.deal]!, won === "true"))
      throw new UsageError(
        `${file} holds deal ${f[at.deal]} (${f[at.rules]}) twice: compare one player per file`,
      );
    const agent = f[at.agent]!;
    // At most two names are kept: one player per file, and the second one is the error.
    if (agents.size < 2) agents.add(agent);
    else if (!agents.has(agent))
      throw new UsageError(`${file} holds more than 2 players: compare one player per file`);
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

/** `onRows(n)`: the rows read so far, every few thousand (for progress lines). */
export function compareFiles(fa: string, fb: string, onRows?: (rows: number) => void): Comparison {
  let rows = 0;
  const tick = onRows && (() => ++rows % 4096 === 0 && onRows(rows));
  const sa = readSide(fa, tick);
  const sb = readSide(fb, tick);
  const A = sa.won;
  const B = sb.won;
  let missing = 0;
  let aOnly = 0;
  let bOnly = 0;
  // Deal numbers, block by block: played bits must match; won bits give the paired counts.
  const empty = new Uint8Array(BLOCK / 4);
  const groups = new Set([...A.blocks.keys(), ...B.blocks.keys()]);
  for (const g of groups) {
    const ga = A.blocks.get(g) ?? new Map<number, Uint8Array>();
    const gb = B.blocks.get(g) ?? new Map<number, Uint8Array>();
    for (const b of new Set([...ga.keys(), ...gb.keys()])) {
      const x = ga.get(b) ?? empty;
      const y = gb.get(b) ?? empty;
      for (let i = 0; i < BLOCK / 8; i++) {
        const both = x[i]! & y[i]!;
        missing += popcount(x[i]! ^ y[i]!);
        const wx = x[BLOCK / 8 + i]! & both;
        const wy = y[BLOCK / 8 + i]! & both;
        aOnly += popcount(wx & ~wy & 0xff);
        bOnly += popcount(wy & ~wx & 0xff);
      }
    }
  }
  for (const [k, a] of A.other) {
    const b = B.other.get(k);
    if (b === undefined) missing++;
    else if (a && !b) aOnly++;
    else if (b && !a) bOnly++;
  }
  for (const k of B.other.keys()) if (!A.other.has(k)) missing++;
  if (missing > 0)
    throw new UsageError(
      `the two files must cover the same deals: ${missing} deal(s) appear in only one of them`,
    );
  const n = A.size;
  const side = (agent: string, w: number): Comparison["a"] => {
    const i = wilson(w, n);
    return { agent, wins: w, winRate: n ? w / n : 0, wilson95: [i.low, i.high] };
  };
  return {
    deals: n,
    a: side(sa.agent, A.wins),
    b: side(sb.agent, B.wins),
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
      .option("json", flag("json", { default: false })) as unknown as Argv<CompareArgs>,
  handler: (a: CompareArgs) => {
    // Files of millions of rows take a while to read: a line every 10 s meanwhile.
    const beat = heartbeat("penguin compare", { unit: "rows" });
    let c: Comparison;
    try {
      c = compareFiles(a.a, a.b, (n) => beat.count(n));
    } finally {
      beat();
    }
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
