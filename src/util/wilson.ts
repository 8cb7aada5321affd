/** The Wilson score interval, the one confidence interval every win rate here is reported with. */
import { describeValue, InvalidArgumentError } from "../errors.js";

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** 95% Wilson score interval for `wins` successes in `n` trials (z = 1.96 by default). */
export function wilson(wins: number, n: number, z = 1.959963984540054): Interval {
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
    throw new InvalidArgumentError(
      `wilson: n must be a count of trials (an integer ≥ 0), got ${describeValue(n)}`,
    );
  if (typeof wins !== "number" || !Number.isSafeInteger(wins) || wins < 0 || wins > n)
    throw new InvalidArgumentError(
      `wilson: wins must be an integer from 0 to n (${n}), got ${describeValue(wins)}`,
    );
  if (typeof z !== "number" || !(z > 0 && Number.isFinite(z)))
    throw new InvalidArgumentError(`wilson: z must be a positive number, got ${describeValue(z)}`);
  if (n === 0) return { low: 0, high: 1 };
  const p = wins / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
