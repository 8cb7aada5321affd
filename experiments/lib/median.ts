import { mcnemarExact } from "../../src/eval/stats.js";

/** The median of a list of timings (the lower middle one of an even count); the scripts and benches share it. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;

/**
 * A 95 % interval for the median of xs (at least 95 % coverage), from order statistics: from the
 * j-th smallest to the j-th largest, j as large as the sign test allows (the chance that fewer
 * than j values fall on one side of the median, doubled, at most 5 %); null for fewer than 6
 * values. For paired timing ratios: an interval below 1 says one side was faster in most rounds.
 */
export function medianInterval(xs: readonly number[]): [number, number] | null {
  const s = [...xs].sort((a, b) => a - b);
  let j = 0;
  while (j < s.length / 2 && mcnemarExact(j, s.length - j) <= 0.05) j++;
  return j === 0 ? null : [s[j - 1]!, s[s.length - j]!];
}
