/**
 * Generalised advantage estimation (Schulman et al. 2016) over a rollout stored time-major:
 * index t * envs + e. `dones[t*envs+e]` = 1 when the episode of env e ended at step t (terminated
 * or truncated: like CleanRL we do not bootstrap through truncation, which at the game's
 * registered move limit (defaultMaxSteps) only ever cuts off hopeless games). `lastValues` are V(s_T) for the observation after the last
 * step, used where the episode goes on past the rollout.
 */
export function computeGae(
  rewards: Float32Array,
  values: Float32Array,
  dones: Uint8Array,
  lastValues: Float32Array,
  envs: number,
  steps: number,
  gamma: number,
  lambda: number,
  advantages: Float32Array,
  returns: Float32Array,
): void {
  for (let e = 0; e < envs; e++) {
    let next = 0;
    for (let t = steps - 1; t >= 0; t--) {
      const i = t * envs + e;
      const notDone = dones[i] ? 0 : 1;
      const nextValue = t === steps - 1 ? lastValues[e]! : values[i + envs]!;
      const delta = rewards[i]! + gamma * nextValue * notDone - values[i]!;
      next = delta + gamma * lambda * notDone * next;
      advantages[i] = next;
      returns[i] = next + values[i]!;
    }
  }
}

/** Linear learning-rate annealing from `lr` to `lr * finalFraction` over the run. */
export function scheduledLr(
  lr: number,
  progress: number,
  schedule: "linear" | "constant",
  finalFraction = 0,
): number {
  if (schedule === "constant") return lr;
  const p = Math.min(1, Math.max(0, progress));
  return lr * (1 - p * (1 - finalFraction));
}
