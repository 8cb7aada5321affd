/**
 * The atlas's lists of proved-lost and unknown deals (`results/atlas/deals/<row>.txt`), in
 * whichever of two forms is shorter for the list:
 *
 * - ranges, `lost 71 1295-1297 …`, lines of about 100 characters: best where few deals are lost
 *   or where they come in long runs (Penguin 7 flippers, or Penguin 0, lost almost everywhere);
 * - a bitset, `lost-bits <from> <base64>`, one line per 6,000 deals from `from`: deal from + i is
 *   in the list when bit i % 8 (least significant first) of byte ⌊i / 8⌋ is set. Where a row
 *   loses about half its deals in no order (Penguin 4, Baker's Game), ranges cost about 7
 *   characters a lost deal and the bitset 1⅓ bits a deal of the row, 20 times less.
 *
 * The choice depends only on the list, so the file stays a function of the verdicts.
 */
import { UsageError } from "../../src/errors.js";
import { rangesText, parseRanges } from "./atlas-shard.js";

/** Deals per bitset line: 750 bytes, 1,000 base64 characters. */
const BITS_PER_LINE = 6000;
const RANGE_LINE = 100;

/** Ranges, wrapped into lines of at most ~100 characters each starting with `label`. */
function rangeLines(label: string, deals: readonly number[]): string {
  if (deals.length === 0) return `${label}\n`;
  let out = "";
  let line = label;
  for (const w of rangesText(deals).split(" ")) {
    if (line.length + 1 + w.length > RANGE_LINE && line !== label) {
      out += `${line}\n`;
      line = label;
    }
    line += ` ${w}`;
  }
  return `${out}${line}\n`;
}

/** The bitset lines of `deals` (sorted, within first … last). */
function bitLines(label: string, deals: readonly number[], first: number, last: number): string {
  let out = "";
  let k = 0;
  for (let from = first; from <= last; from += BITS_PER_LINE) {
    const n = Math.min(BITS_PER_LINE, last - from + 1);
    const bytes = new Uint8Array(Math.ceil(n / 8));
    while (k < deals.length && deals[k]! < from + n) {
      const i = deals[k]! - from;
      bytes[i >> 3]! |= 1 << (i & 7);
      k++;
    }
    out += `${label}-bits ${from} ${Buffer.from(bytes).toString("base64")}\n`;
  }
  return out;
}

/**
 * One list's lines: the shorter of ranges and bitset (ranges on a tie). `deals` must be sorted,
 * distinct and within first … last.
 */
export function dealLines(
  label: "lost" | "unknown",
  deals: readonly number[],
  first: number,
  last: number,
): string {
  for (let i = 0; i < deals.length; i++)
    if (!(deals[i]! >= first && deals[i]! <= last && (i === 0 || deals[i]! > deals[i - 1]!)))
      throw new RangeError(`${label} deals must be sorted, distinct and within ${first}-${last}`);
  const ranges = rangeLines(label, deals);
  const bits = bitLines(label, deals, first, last);
  return bits.length < ranges.length ? bits : ranges;
}

/** The lost and unknown deals of a deals file's text, whichever form each list is in. */
export function parseDealsFile(text: string, what: string): { lost: number[]; unknown: number[] } {
  const lists = { lost: [] as number[], unknown: [] as number[] };
  text.split("\n").forEach((line, i) => {
    if (line === "" || line.startsWith("#")) return;
    const where = `${what} line ${i + 1}`;
    const m = /^(lost|unknown)(-bits)?(?: (.*))?$/.exec(line);
    if (!m)
      throw new UsageError(`${where}: expected "lost", "unknown", "lost-bits" or "unknown-bits"`);
    const list = lists[m[1] as "lost" | "unknown"];
    if (!m[2]) {
      // A loop, not push(...): a list of a million deals would overflow the call stack.
      for (const d of parseRanges(m[3] ?? "", where)) list.push(d);
      return;
    }
    const b = /^(\d+) ([A-Za-z0-9+/]*={0,2})$/.exec(m[3] ?? "");
    if (!b) throw new UsageError(`${where}: expected "<first deal> <base64>" after ${m[1]}-bits`);
    const from = Number(b[1]);
    const bytes = Buffer.from(b[2]!, "base64");
    for (let j = 0; j < bytes.length * 8; j++)
      if (bytes[j >> 3]! & (1 << (j & 7))) list.push(from + j);
  });
  return lists;
}
