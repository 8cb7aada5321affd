"""Throughput of the bridge: ``python -m penguin_gym.bench [--seconds S] [--json]``.

Plays uniformly random legal actions (numpy's seeded generator, from ``info["action_mask"]``)
through one ``PenguinEnv`` and through one ``PenguinVectorEnv`` of 64, resets included, and
reports steps per CPU second of both processes together, Python's and the Node engine's (every
thread of each, from the kernel's per-process CPU clocks), so the figure is comparable with the
TypeScript bench's in-process steps per CPU second and other jobs on a shared machine do not
count. It also reports the CPU each process spent per step (env) or per batch step (vector), in
microseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Callable

import numpy as np

from .env import PenguinEnv
from .vector import PenguinVectorEnv


def _child_cpu(pid: int) -> float:
    """CPU seconds of process `pid` so far, all its threads: Linux's per-process CPU clock (to
    the nanosecond), else /proc's user + system (to the clock tick)."""
    try:
        # The clock id glibc's clock_getcpuclockid(pid) returns: (~pid << 3) | CPUCLOCK_SCHED.
        return time.clock_gettime(((~pid) << 3) | 2)
    except (OSError, AttributeError):
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rate(pid: int, body: Callable[[], int], seconds: float, warmup: float) -> tuple[float, float, float]:
    """Steps per CPU second (this process plus the engine's) of `body`, after `warmup` CPU
    seconds of it (a fresh engine process needs about half a second before V8 has compiled its
    hot paths, and a slower start would be counted against the bridge); and the CPU seconds
    per step of each process, Python's and the engine's."""
    warm = time.process_time() + _child_cpu(pid)
    while time.process_time() + _child_cpu(pid) - warm < warmup:
        body()
    steps = 0
    p0, e0 = time.process_time(), _child_cpu(pid)
    p, e = p0, e0
    while (p - p0) + (e - e0) < seconds:
        steps += body()
        p, e = time.process_time(), _child_cpu(pid)
    return steps / ((p - p0) + (e - e0)), (p - p0) / steps, (e - e0) / steps


def env_steps_per_sec(
    env_id: str, seconds: float, warmup: float = 1.0, **kw: object
) -> tuple[float, float, float]:
    """Steps per CPU second of one env, and the CPU seconds per step of Python and the engine."""
    env = PenguinEnv(env_id, **kw)  # type: ignore[arg-type]
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    mask = env._mask
    assert env._bridge is not None

    def body() -> int:
        nonlocal mask
        for _ in range(200):
            legal = np.flatnonzero(mask)
            _, _, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
            if term or trunc:
                _, info = env.reset()
            mask = info["action_mask"]
        return 200

    try:
        return _rate(env._bridge.proc.pid, body, seconds, warmup)
    finally:
        env.close()


class RandomLegal:
    """One uniformly random legal action per row of an (n × actions) mask (1 = legal, 0 not):
    the k-th legal action of each row, k = floor(u × legal count) with u from ``rng.random(n)``,
    as the TypeScript bench picks. The legal actions of the whole batch are found at once (as
    booleans: numpy scans them several times faster than int8), and each row's are the slice
    between two binary searches."""

    # The uniform numbers are drawn this many batches at a time: the same numbers, in the same
    # order, as one draw of n a batch (the generator fills an array in order), for one call to it.
    BATCHES = 256

    def __init__(self, num_envs: int, num_actions: int, rng: np.random.Generator) -> None:
        self.rng = rng
        self.n = num_envs
        self.bounds = np.arange(0, (num_envs + 1) * num_actions, num_actions)  # rows' first ids
        self.row_start = self.bounds[:-1]
        self.u = np.empty((0, num_envs))
        self.used = 0

    def __call__(self, masks: np.ndarray) -> np.ndarray:
        legal = masks.view(np.bool_).reshape(-1).nonzero()[0]
        at = legal.searchsorted(self.bounds)
        first = at[:-1]
        if self.used == len(self.u):
            self.u = self.rng.random((self.BATCHES, self.n))
            self.used = 0
        k = self.u[self.used]
        self.used += 1
        k *= at[1:] - first
        first += k.astype(np.intp)
        actions = legal.take(first)
        actions -= self.row_start
        return actions


def vec_steps_per_sec(
    env_id: str, seconds: float, num_envs: int = 64, warmup: float = 1.0, **kw: object
) -> tuple[float, float, float]:
    """Sub-env steps per CPU second of a vector, and the CPU seconds per batch step of Python
    and the engine."""
    envs = PenguinVectorEnv(num_envs, env_id, **kw)  # type: ignore[arg-type]
    random_legal = RandomLegal(num_envs, envs.num_actions, np.random.default_rng(1))
    _, info = envs.reset(seed=1)
    masks = info["action_mask"]
    assert envs._bridge is not None

    def body() -> int:
        nonlocal masks
        for _ in range(16):
            _, _, _, _, info = envs.step(random_legal(masks))
            masks = info["action_mask"]
        return 16 * num_envs

    try:
        rate, python, engine = _rate(envs._bridge.proc.pid, body, seconds, warmup)
        return rate, python * num_envs, engine * num_envs
    finally:
        envs.close()


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m penguin_gym.bench", description=__doc__)
    p.add_argument("--id", default="Penguin-v3", help="env id (default Penguin-v3)")
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure (default 2)")
    p.add_argument(
        "--warmup", type=float, default=1.0, help="CPU seconds played before each figure (default 1)"
    )
    p.add_argument("--num-envs", type=int, default=64, help="vector size (default 64)")
    p.add_argument("--engine", default=None, help="penguin-gym folder (found when omitted)")
    p.add_argument(
        "--max-steps", type=int, default=500, help="move limit (default 500, the in-process bench's)"
    )
    p.add_argument(
        "--only", choices=("env", "vec"), default=None, help="measure one environment or the vector only"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args()
    figures: dict[str, object] = {"envId": a.id}
    if a.only in (None, "env"):
        rate, python, engine = env_steps_per_sec(
            a.id, a.seconds, a.warmup, engine=a.engine, max_steps=a.max_steps
        )
        figures["bridgeEnvStepsPerSec"] = round(rate)
        figures["bridgeEnvPythonMicros"] = round(python * 1e6, 2)
        figures["bridgeEnvEngineMicros"] = round(engine * 1e6, 2)
    if a.only in (None, "vec"):
        rate, python, engine = vec_steps_per_sec(
            a.id, a.seconds, a.num_envs, a.warmup, engine=a.engine, max_steps=a.max_steps
        )
        figures["bridgeVecEnvStepsPerSec"] = round(rate)
        figures["bridgeVecPythonMicros"] = round(python * 1e6, 1)
        figures["bridgeVecEngineMicros"] = round(engine * 1e6, 1)
        figures["bridgeNumEnvs"] = a.num_envs
    if a.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k}: {v:,}" if isinstance(v, int) else f"{k}: {v}")


if __name__ == "__main__":
    main()
