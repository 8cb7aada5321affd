/** The median of a list of timings (the lower middle one of an even count); the scripts and benches share it. */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;
