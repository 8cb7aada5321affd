"""The single environment under Gymnasium: registration, spaces, check_env on every id, masks,
render, options, illegal actions."""

from __future__ import annotations

import os

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import penguin_gym
from penguin_gym import ENV_IDS

# Observation size and action count per id (docs/env.md's table).
SHAPES = {
    "Penguin-v3": (693, 126),
    "PenguinRelaxed-v3": (693, 714),
    "Opus-v3": (693, 108),
    "PenguinBeakHome-v3": (693, 126),
    "BakersGame-v3": (752, 888),
    "KingsOnlyBakersGame-v3": (752, 120),
    "FreeCell-v3": (752, 888),
    "EightOff-v3": (752, 160),
    "SeahavenTowers-v3": (870, 168),
    "Stalactites-v3": (752, 130),
}


def test_every_engine_id_is_registered(engine):
    env = penguin_gym.PenguinEnv("Penguin-v3", engine=engine)
    try:
        assert env.engine_ids == ENV_IDS  # the Python list is the engine's own
    finally:
        env.close()
    for env_id in ENV_IDS + penguin_gym.options.PREVIOUS_ENV_IDS:
        spec = gym.spec(f"penguin_gym/{env_id}")
        assert spec.kwargs == {"env_id": env_id}
        assert spec.vector_entry_point == "penguin_gym.vector:PenguinVectorEnv"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_check_env_and_spaces(engine, env_id):
    env = gym.make(f"penguin_gym/{env_id}", engine=engine)
    try:
        size, n = SHAPES[env_id]
        space = env.observation_space
        assert isinstance(space, gym.spaces.Box) and space.dtype == np.float32
        assert space.shape == (size,) and (space.low == 0).all() and (space.high == 5).all()
        assert env.action_space == gym.spaces.Discrete(n)
        check_env(env.unwrapped)
        obs, info = env.reset(seed=1_000_000)
        assert obs.dtype == np.float32 and obs in space
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (n,)
        assert int(mask.sum()) == info["legal_actions"]
        assert (env.unwrapped.action_masks() == (mask == 1)).all()
    finally:
        env.close()


def test_render_ansi_and_options(engine):
    env = gym.make("penguin_gym/Penguin-v3", render_mode="ansi", max_steps=7, cells=5, engine=engine)
    try:
        obs, info = env.reset(seed=5)
        text = env.render()
        assert text.startswith("Penguin-v3 seed 5 step 0/7\n")
        assert "flippers: a --  b --  c --  d --  e --\n" in text  # 5 flippers, not 7
        rng = np.random.default_rng(3)
        steps = 0
        while True:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        assert truncated or terminated
        assert steps <= 7 and info["steps"] == steps
        if truncated:
            assert steps == 7
    finally:
        env.close()


def live_children() -> list[int]:
    """Pids of this process's children that have not exited (Linux /proc)."""
    out = []
    for d in os.listdir("/proc"):
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            out.append(int(d))
    return out


def test_bad_options_name_what_is_allowed(engine):
    before = live_children()
    with pytest.raises(ValueError, match="cells must be an integer from 0 to 8, got 9") as refused:
        penguin_gym.PenguinEnv("Penguin-v3", cells=9, engine=engine)
    # The engine was ended at once, not left to the garbage collector (the traceback still
    # holds the half-built environment).
    assert refused.tb is not None and live_children() == before
    with pytest.raises(ValueError, match="unknown reward \"score\"; allowed: cards, win"):
        penguin_gym.PenguinEnv("Penguin-v3", reward="score", engine=engine)
    with pytest.raises(ValueError, match="unknown env id 'Penguin-v0'; known: Penguin-v3"):
        penguin_gym.PenguinEnv("Penguin-v0", engine=engine)
    with pytest.raises(TypeError, match="flippers"):
        gym.make("penguin_gym/Penguin-v3", flippers=3, engine=engine)


def test_illegal_actions(engine):
    env = penguin_gym.PenguinEnv("Penguin-v3", engine=engine)
    strict = penguin_gym.PenguinEnv("Penguin-v3", illegal_action="raise", engine=engine)
    try:
        for e in (env, strict):
            _, info = e.reset(seed=5)
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
        before = strict.reset(seed=5)[0].copy()
        with pytest.raises(ValueError, match=rf"action {illegal} \(\"[^\"]+\"\) is illegal here"):
            strict.step(illegal)
        legal = int(np.flatnonzero(strict._mask)[0])
        obs, *_ = strict.step(legal)  # the refused action changed nothing
        assert not np.array_equal(obs, before)
        with pytest.raises(ValueError, match="out of range: allowed integers 0..125"):
            strict.step(126)
        obs, reward, terminated, truncated, info = env.step(illegal)
        assert (terminated, truncated, reward, info["illegal_action"]) == (True, False, 0.0, True)
        with pytest.raises(ValueError, match="the episode is over"):
            env.step(legal)
        _, info = env.reset()
        assert info["seed"] == 6  # the next deal of the sequence, playable again
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert info["steps"] == 1 and "illegal_action" not in info
    finally:
        env.close()
        strict.close()


def test_unseeded_resets_follow_gymnasium(engine):
    a = penguin_gym.PenguinEnv("Penguin-v3", engine=engine)
    b = penguin_gym.PenguinEnv("Penguin-v3", engine=engine)
    try:
        _, ia = a.reset()
        _, ib = b.reset()
        # A first reset without a seed draws one (training range), so two envs differ...
        assert 1_000_000 <= ia["seed"] < 2**31 and ia["seed"] != ib["seed"]
        # ...and later unseeded resets continue the sequence, as in TypeScript.
        assert a.reset()[1]["seed"] == ia["seed"] + 1
        a.reset(seed=42)
        assert a.reset()[1]["seed"] == 43
    finally:
        a.close()
        b.close()
    c = penguin_gym.PenguinEnv("Penguin-v3", seed_stride=3, engine=engine)
    try:
        c.reset(seed=10)
        assert [c.reset()[1]["seed"] for _ in range(2)] == [13, 16]
    finally:
        c.close()
    with pytest.raises(ValueError, match="seed_stride must be an integer from 1 to 65536, got 0"):
        penguin_gym.PenguinEnv("Penguin-v3", seed_stride=0, engine=engine)
