"""Clear errors, never a hang: Node missing or too old, the engine killed or silent, closing."""

from __future__ import annotations

import os
import signal
import stat
import time

import numpy as np
import pytest

import penguin_gym
from penguin_gym import BridgeTimeoutError, EngineDiedError, EngineNotFoundError, NodeNotFoundError


def test_node_not_found(engine, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no node anywhere on PATH
    monkeypatch.delenv("PENGUIN_NODE", raising=False)
    with pytest.raises(NodeNotFoundError, match="Node.js not found: there is no `node` on PATH"):
        penguin_gym.PenguinEnv("Penguin-v3", engine=engine)
    with pytest.raises(NodeNotFoundError, match="Node.js not found at '/nowhere/node'"):
        penguin_gym.PenguinEnv("Penguin-v3", node="/nowhere/node", engine=engine)


def test_node_too_old(engine, tmp_path):
    fake = tmp_path / "node"
    fake.write_text("#!/bin/sh\necho v18.19.0\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    with pytest.raises(NodeNotFoundError, match=r"Node.js 18.19.0 at .* is too old: the engine needs \^20.19.0"):
        penguin_gym.PenguinEnv("Penguin-v3", node=fake, engine=engine)


def test_engine_not_found(tmp_path):
    with pytest.raises(EngineNotFoundError, match="no penguin-gym engine found in"):
        penguin_gym.PenguinEnv("Penguin-v3", engine=tmp_path)


def test_child_killed_mid_episode(engine):
    env = penguin_gym.PenguinEnv("Penguin-v3", engine=engine)
    _, info = env.reset(seed=9)
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    os.kill(env._bridge.proc.pid, signal.SIGKILL)
    t0 = time.monotonic()
    with pytest.raises(EngineDiedError, match=r"was killed by signal 9 during STEP; this environment is closed"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert time.monotonic() - t0 < 10
    with pytest.raises(penguin_gym.BridgeError, match="the environment is closed"):
        env.reset()
    env.close()  # closing a dead env is fine


def test_vector_child_killed(engine):
    envs = penguin_gym.PenguinVectorEnv(4, "Penguin-v3", engine=engine)
    envs.reset(seed=9)
    envs._bridge.proc.kill()
    with pytest.raises(EngineDiedError):
        envs.step(np.zeros(4, np.int64))
    envs.close()


def test_silent_engine_times_out(engine):
    env = penguin_gym.PenguinEnv("Penguin-v3", engine=engine, timeout=0.5)
    env.reset(seed=1)
    pid = env._bridge.proc.pid
    os.kill(pid, signal.SIGSTOP)  # alive but never answering
    t0 = time.monotonic()
    with pytest.raises(BridgeTimeoutError, match="gave no reply to RESET within 0.5 s and was stopped"):
        env.reset(seed=2)
    assert time.monotonic() - t0 < 5
    assert env._bridge.proc.poll() is not None  # the engine was ended


def test_silent_vector_engine_times_out(engine):
    # A vector's step waits in a blocking read: the watchdog stops the engine at the deadline.
    envs = penguin_gym.PenguinVectorEnv(2, "Penguin-v3", engine=engine, timeout=0.5)
    _, info = envs.reset(seed=1)
    actions = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
    os.kill(envs._bridge.proc.pid, signal.SIGSTOP)
    t0 = time.monotonic()
    with pytest.raises(BridgeTimeoutError, match="gave no reply to STEP within 0.5 s and was stopped"):
        envs.step(actions)
    assert 0.5 <= time.monotonic() - t0 < 5
    assert envs._bridge.proc.poll() is not None
    envs.close()


def test_close_ends_the_child(engine):
    env = penguin_gym.PenguinEnv("Penguin-v3", engine=engine)
    env.reset(seed=1)
    proc = env._bridge.proc
    env.close()
    assert proc.poll() == 0  # stdin closed: the engine exited by itself
    env.close()
