"""The vector environment: declared autoreset mode (SAME_STEP) and what it does, seeds, errors."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import penguin_gym


def test_same_step_autoreset_against_twin_single_envs(engine):
    n, seed = 3, 1_500_000
    envs = gym.make_vec("penguin_gym/Penguin-v3", num_envs=n, max_steps=25, engine=engine)
    twins = [penguin_gym.PenguinEnv("Penguin-v3", max_steps=25, engine=engine) for _ in range(n)]
    try:
        assert isinstance(envs, penguin_gym.PenguinVectorEnv)
        assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        assert envs.observation_space.shape == (n, 693) and envs.single_action_space.n == 126
        obs, info = envs.reset(seed=seed)
        expected_seeds = [seed + i for i in range(n)]
        for i, t in enumerate(twins):
            o, _ = t.reset(seed=expected_seeds[i])
            assert np.array_equal(obs[i], o)
        assert info["seed"].tolist() == expected_seeds
        rng = np.random.default_rng(0)
        endings = 0
        for _ in range(80):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
            obs, rewards, term, trunc, info = envs.step(actions)
            for i, t in enumerate(twins):
                o, r, te, tr, ti = t.step(int(actions[i]))
                assert (rewards[i], term[i], trunc[i]) == (np.float32(r), te, tr)
                if te or tr:
                    endings += 1
                    # The ending step: its last observation and info are the final_* entries...
                    assert info["_final_obs"][i] and info["_final_info"][i]
                    assert np.array_equal(info["final_obs"][i], o)
                    assert np.array_equal(info["final_info"]["action_mask"][i], ti["action_mask"])
                    assert info["final_info"]["steps"][i] == ti["steps"]
                    assert info["final_info"]["seed"][i] == expected_seeds[i]
                    # ...and obs[i] already shows the next deal: seed + i + k * n.
                    expected_seeds[i] += n
                    o, ti = t.reset(seed=expected_seeds[i])
                    assert info["seed"][i] == expected_seeds[i]
                else:
                    assert "final_obs" not in info or not info["_final_obs"][i]
                assert np.array_equal(obs[i], o)
                assert np.array_equal(info["action_mask"][i], ti["action_mask"])
        assert endings >= n  # max_steps 25 over 80 steps: every sub-env restarted
    finally:
        envs.close()
        for t in twins:
            t.close()


def test_illegal_action_changes_nothing(engine):
    envs = penguin_gym.PenguinVectorEnv(2, "Penguin-v3", engine=engine)
    try:
        obs, info = envs.reset(seed=5)
        legal = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
        illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
        with pytest.raises(ValueError, match=rf"sub-env 1: action {illegal} .* is illegal here"):
            envs.step(np.array([legal[0], illegal]))
        with pytest.raises(ValueError, match="step needs 2 integer actions"):
            envs.step(np.array([0.5, 1.0]))
        twin = penguin_gym.PenguinVectorEnv(2, "Penguin-v3", engine=engine)
        try:
            twin.reset(seed=5)
            a = envs.step(np.array(legal))[0]
            b = twin.step(np.array(legal))[0]
            assert np.array_equal(a, b)  # the refused step left no trace
        finally:
            twin.close()
        with pytest.raises(ValueError, match="consecutive seeds"):
            envs.reset(seed=[1, 5])
        assert envs.reset(seed=[7, 8])[1]["seed"].tolist() == [7, 8]
    finally:
        envs.close()


def test_render_every_sub_env(engine):
    envs = penguin_gym.PenguinVectorEnv(2, "FreeCell-v3", render_mode="ansi", shuffle="microsoft", engine=engine)
    try:
        envs.reset(seed=1)
        first, second = envs.render()
        assert first.startswith("FreeCell-v3 seed 1 step 0/1000") and "JD 2D 9H JC 5D 7H 7C 5H" not in second
        assert second.startswith("FreeCell-v3 seed 2 step 0/1000")  # the id's registered limit
    finally:
        envs.close()


def test_returned_arrays_stay_as_they_were(engine):
    # The replies come through a file both processes map, and what step returns views it: later
    # steps must leave alone every array still held, also when more are held than the file has
    # slots (they then come as copies) and when every sub-env ends at once (the largest reply).
    envs = penguin_gym.PenguinVectorEnv(4, "Penguin-v3", max_steps=3, engine=engine)
    try:
        obs, info = envs.reset(seed=11)
        kept = [(obs, info["action_mask"], obs.copy(), info["action_mask"].copy())]
        rng = np.random.default_rng(3)
        ended = 0
        for _ in range(7):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
            obs, _, term, trunc, info = envs.step(actions)
            kept.append((obs, info["action_mask"], obs.copy(), info["action_mask"].copy()))
            if (term | trunc).any():
                ended += 1
                f = info["final_obs"][np.flatnonzero(term | trunc)[0]]
                kept.append((f, info["final_info"]["action_mask"], f.copy(), info["final_info"]["action_mask"].copy()))
        assert ended >= 2  # max_steps 3: every sub-env ended together at least twice
        for obs_now, mask_now, obs_then, mask_then in kept:
            assert np.array_equal(obs_now, obs_then) and np.array_equal(mask_now, mask_then)
            obs_now[:] = 0  # writable, and writing it changes nothing else
        assert not np.array_equal(kept[-1][2], np.zeros_like(kept[-1][2]))
    finally:
        envs.close()
