"""Throughput of the bridge: ``python -m penguin_gym.bench [--seconds S] [--json]``.

Plays uniformly random legal actions (numpy's seeded generator, from ``info["action_mask"]``)
through one ``PenguinEnv`` and through one ``PenguinVectorEnv`` of 64, resets included, and
reports steps per CPU second of both processes together, Python's and the Node engine's (read
from /proc), so the figure is comparable with the TypeScript bench's in-process steps per CPU
second and other jobs on a shared machine do not skew it.
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
    """CPU seconds (user + system) of process `pid` so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rate(pid: int, body: Callable[[], int], seconds: float, warmup: float) -> float:
    """Steps per CPU second (this process plus the engine's) of `body`, after `warmup` CPU
    seconds of it: a fresh engine process needs about half a second before V8 has compiled
    its hot paths, and a slower start would be counted against the bridge."""

    def cpu() -> float:
        return time.process_time() + _child_cpu(pid)

    warm = cpu()
    while cpu() - warm < warmup:
        body()
    steps = 0
    t0 = cpu()
    t = t0
    while t - t0 < seconds:
        steps += body()
        t = cpu()
    return steps / (t - t0)


def env_steps_per_sec(env_id: str, seconds: float, warmup: float = 1.0, **kw: object) -> float:
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


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of `masks` (n × actions, 1 = legal)."""
    # ndarray methods rather than numpy's functions (no Python-level wrapper), integers compared.
    counts = masks.cumsum(axis=1, dtype=np.int32)
    pick = (rng.random(len(masks)) * counts[:, -1]).astype(np.int32)
    return (counts > pick[:, None]).argmax(axis=1)


def vec_steps_per_sec(
    env_id: str, seconds: float, num_envs: int = 64, warmup: float = 1.0, **kw: object
) -> float:
    envs = PenguinVectorEnv(num_envs, env_id, **kw)  # type: ignore[arg-type]
    rng = np.random.default_rng(1)
    _, info = envs.reset(seed=1)
    masks = info["action_mask"]
    assert envs._bridge is not None

    def body() -> int:
        nonlocal masks
        for _ in range(16):
            _, _, _, _, info = envs.step(random_legal(masks, rng))
            masks = info["action_mask"]
        return 16 * num_envs

    try:
        return _rate(envs._bridge.proc.pid, body, seconds, warmup)
    finally:
        envs.close()


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m penguin_gym.bench", description=__doc__)
    p.add_argument("--id", default="Penguin-v2", help="env id (default Penguin-v2)")
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure (default 2)")
    p.add_argument(
        "--warmup", type=float, default=1.0, help="CPU seconds played before each figure (default 1)"
    )
    p.add_argument("--num-envs", type=int, default=64, help="vector size (default 64)")
    p.add_argument("--engine", default=None, help="penguin-gym folder (found when omitted)")
    p.add_argument(
        "--max-steps", type=int, default=500, help="move limit (default 500, the in-process bench's)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args()
    figures = {
        "envId": a.id,
        "bridgeEnvStepsPerSec": round(
            env_steps_per_sec(a.id, a.seconds, a.warmup, engine=a.engine, max_steps=a.max_steps)
        ),
        "bridgeVecEnvStepsPerSec": round(
            vec_steps_per_sec(
                a.id, a.seconds, a.num_envs, a.warmup, engine=a.engine, max_steps=a.max_steps
            )
        ),
        "bridgeNumEnvs": a.num_envs,
    }
    if a.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k}: {v:,}" if isinstance(v, int) else f"{k}: {v}")


if __name__ == "__main__":
    main()
