"""The engine runs on the CPU the Python process runs on, and follows it (colocate.py)."""

from __future__ import annotations

import os

import pytest

import penguin_gym

needs_two_cpus = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="needs Linux's sched_setaffinity and two CPUs",
)


@needs_two_cpus
def test_engine_follows_python_from_cpu_to_cpu(engine):
    mine = os.sched_getaffinity(0)
    env = penguin_gym.PenguinEnv("Penguin-v3", engine=engine)
    try:
        for cpu in sorted(mine)[:2]:
            os.sched_setaffinity(0, {cpu})  # Python moves: the next request takes the engine along
            env.reset(seed=1)
            assert os.sched_getaffinity(env._bridge.proc.pid) == {cpu}
    finally:
        os.sched_setaffinity(0, mine)
        env.close()


@needs_two_cpus
def test_engine_left_to_the_kernel_when_asked(engine, monkeypatch):
    monkeypatch.setenv("PENGUIN_GYM_PIN_ENGINE", "0")
    envs = penguin_gym.PenguinVectorEnv(2, "Penguin-v3", engine=engine)
    try:
        envs.reset(seed=1)
        assert os.sched_getaffinity(envs._bridge.proc.pid) == os.sched_getaffinity(0)
    finally:
        envs.close()
