/**
 * The atlas's lost and unknown lists (experiments/lib/atlas-deals.ts): each list is written in
 * the shorter of its two forms, and either form reads back to exactly the deals written.
 */
import { describe, expect, it } from "vitest";
import { dealLines, parseDealsFile } from "../../experiments/lib/atlas-deals.js";
import { rangesText } from "../../experiments/lib/atlas-shard.js";

/** The deals of first … last that `keep` picks. */
const picked = (first: number, last: number, keep: (d: number) => boolean): number[] => {
  const out: number[] = [];
  for (let d = first; d <= last; d++) if (keep(d)) out.push(d);
  return out;
};

describe("atlas deal lists", () => {
  it("writes a few lost deals as ranges", () => {
    const text = dealLines("lost", [71, 1295, 1296, 1297, 1974], 1, 1_000_000);
    expect(text).toBe("lost 71 1295-1297 1974\n");
    expect(dealLines("unknown", [], 1, 1_000_000)).toBe("unknown\n");
  });

  it("writes half of the deals lost in no order as a bitset, 1,000 characters for 6,000 deals", () => {
    // A multiplicative hash keeps about 6 deals in 13, in runs of every length.
    const lost = picked(100_001, 120_000, (d) => (Math.imul(d, 2654435761) >>> 16) % 13 < 6);
    const text = dealLines("lost", lost, 100_001, 120_000);
    const lines = text.trimEnd().split("\n");
    expect(lines.map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual([
      "lost-bits 100001",
      "lost-bits 106001",
      "lost-bits 112001",
      "lost-bits 118001",
    ]);
    expect(lines[0]!.split(" ")[2]).toHaveLength(1000);
    // The documented layout, read directly: deal F+i is bit i%8 of byte i/8.
    const bytes = Buffer.from(lines[1]!.split(" ")[2]!, "base64");
    for (const i of [0, 1, 2, 3, 5, 8, 13, 4321, 5999])
      expect(((bytes[i >> 3]! >> (i & 7)) & 1) === 1).toBe(lost.includes(106_001 + i));
    expect(text.length * 10).toBeLessThan(rangesText(lost).length);
    expect(parseDealsFile(`# a comment\n${text}unknown 5\n`, "f")).toEqual({ lost, unknown: [5] });
  });

  it("keeps ranges where lost deals come in long runs", () => {
    const lost = picked(1, 1_000_000, (d) => d !== 803_796 && d !== 852_019);
    const text = dealLines("lost", lost, 1, 1_000_000);
    expect(text).toBe("lost 1-803795 803797-852018 852020-1000000\n");
    expect(parseDealsFile(text, "f").lost).toHaveLength(999_998);
  });

  it("refuses a list out of order or outside the range, and a damaged line", () => {
    expect(() => dealLines("lost", [5, 3], 1, 10)).toThrow(RangeError);
    expect(() => dealLines("lost", [11], 1, 10)).toThrow(/within 1-10/);
    expect(() => parseDealsFile("lost-bits 1 !!\n", "f")).toThrow(
      /f line 1: expected "<first deal> <base64>"/,
    );
    expect(() => parseDealsFile("won 1\n", "f")).toThrow(/f line 1: expected "lost"/);
  });
});
