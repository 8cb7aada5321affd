/**
 * Sharding. An experiment plays deal indices 0 … N−1 (deal seed = seed + index), each under every
 * condition. `--shard i/n` (0 ≤ i < n, 0-based like SLURM_ARRAY_TASK_ID from 0 and Kubernetes'
 * JOB_COMPLETION_INDEX) plays the contiguous block [floor(i·N/n), floor((i+1)·N/n)). The n blocks
 * are disjoint, cover 0 … N−1 and differ in size by at most one; since rows are written deal by
 * deal, the shard files laid end to end in shard order are the unsharded file.
 */
import { UsageError } from "../../src/errors.js";

export interface Shard {
  readonly index: number;
  readonly count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(count) || count < 1 || count > 1_000_000 || index >= count)
    throw new UsageError(
      `--shard must be i/n with 1 ≤ n ≤ 1000000 and 0 ≤ i < n (e.g. 0/4 … 3/4), got ${JSON.stringify(text)}`,
    );
  return { index, count };
}

/** Deal indices [start, end) of a shard of `total` deals (all of them without a shard). */
export function shardRange(total: number, shard?: Shard): { start: number; end: number } {
  if (!shard) return { start: 0, end: total };
  // index·total < 1e6 · 1e8 (the option parser's caps) stays exact below 2^53.
  return {
    start: Math.floor((shard.index * total) / shard.count),
    end: Math.floor(((shard.index + 1) * total) / shard.count),
  };
}

export function shardLabel(shard?: Shard): string {
  return shard ? `shard-${shard.index}-of-${shard.count}` : "";
}
