import { describe, expect, it } from "vitest";
import { median, medianInterval } from "../../experiments/lib/median.js";

const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => n - i);

describe("median and its interval", () => {
  it("takes the lower middle value of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(median(upTo(11))).toBe(6);
  });

  it("gives the order statistics of the sign test's tables", () => {
    // Binomial(n, 1/2): for n = 20, 2·P(X ≤ 5) = 0.041 and 2·P(X ≤ 6) = 0.115, so the 6th
    // smallest to the 6th largest; for n = 11, the 2nd to the 10th; for n = 6, the extremes.
    expect(medianInterval(upTo(20))).toEqual([6, 15]);
    expect(medianInterval(upTo(11))).toEqual([2, 10]);
    expect(medianInterval(upTo(6))).toEqual([1, 6]);
  });

  it("gives none for too few values to reach 95 %", () => {
    // n = 5: even the extremes cover only 1 − 2/32 = 93.75 %.
    expect(medianInterval(upTo(5))).toBeNull();
  });
});
