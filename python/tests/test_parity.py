"""Parity: for the same seed and actions, the Python environments give the TypeScript
environment's observations, masks, rewards, terminations and truncations byte for byte."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import b64, dump

import penguin_gym

# (id, options): default rules, another layout, rank foundations, base cards carried home,
# reward "win" with a short move limit (so truncations happen), Microsoft deals. Every case ends an
# episode within its 300 steps.
CASES = [
    ("Penguin-v3", {}),
    ("FreeCell-v3", {"maxSteps": 250}),  # random play there can outlast 300 steps
    ("Stalactites-v3", {}),
    ("PenguinBeakHome-v3", {}),
    ("PenguinRelaxed-v3", {"reward": "win", "maxSteps": 30}),
    ("BakersGame-v3", {"shuffle": "microsoft", "maxSteps": 60}),
]
PY_NAMES = {"maxSteps": "max_steps", "reward": "reward", "shuffle": "shuffle"}


@pytest.mark.parametrize(("env_id", "options"), CASES)
def test_single_env_parity(engine, env_id, options):
    seed, steps = 1_000_003, 300
    ts = dump("trajectory", env_id, json.dumps(options), seed, steps, 7)
    kwargs = {PY_NAMES[k]: v for k, v in options.items()}
    env = penguin_gym.PenguinEnv(env_id, render_mode="ansi", engine=engine, **kwargs)
    try:
        ts_obs = b64(ts["obs"], np.float32).reshape(-1, env.obs_size)
        ts_masks = b64(ts["masks"], np.uint8).reshape(len(ts_obs), -1)
        ts_rewards = b64(ts["rewards"], np.float64)
        obs, info = env.reset(seed=seed)
        rows = [(obs.copy(), info["action_mask"].copy())]
        rewards, terms, truncs, seeds = [], [], [], [info["seed"]]
        for a in ts["actions"]:
            if a == -1:
                obs, info = env.reset()
                r, term, trunc = 0.0, False, False
            else:
                obs, r, term, trunc, info = env.step(a)
            rows.append((obs.copy(), info["action_mask"].copy()))
            rewards.append(r)
            terms.append(term)
            truncs.append(trunc)
            seeds.append(info["seed"])
        assert len(rows) == len(ts_obs)
        assert np.stack([o for o, _ in rows]).tobytes() == ts_obs.tobytes()
        assert np.stack([m for _, m in rows]).view(np.uint8).tobytes() == ts_masks.tobytes()
        assert np.array(rewards, np.float64).tobytes() == ts_rewards.tobytes()
        assert terms == ts["terminated"] and truncs == ts["truncated"]
        assert seeds == ts["seeds"]
        assert env.render() == ts["render"]
        assert any(terms) or any(truncs)  # the run crossed at least one episode end
    finally:
        env.close()


@pytest.mark.parametrize(("env_id", "options", "num_envs"), [("Penguin-v3", {}, 5), ("Stalactites-v3", {"maxSteps": 40}, 3)])
def test_vector_env_parity(engine, env_id, options, num_envs):
    seed, steps = 2_000_000, 120
    ts = dump("vector", env_id, json.dumps(options), num_envs, seed, steps, 11)
    kwargs = {PY_NAMES[k]: v for k, v in options.items()}
    envs = penguin_gym.PenguinVectorEnv(num_envs, env_id, engine=engine, **kwargs)
    try:
        obs, info = envs.reset(seed=seed)
        assert obs.tobytes() == b64(ts["first"]["obs"], np.uint8).tobytes()
        assert info["action_mask"].tobytes() == b64(ts["first"]["masks"], np.uint8).tobytes()
        assert info["seed"].tolist() == ts["first"]["seeds"]
        endings = 0
        for step in ts["steps"]:
            obs, rewards, term, trunc, info = envs.step(np.array(step["actions"]))
            assert obs.tobytes() == b64(step["obs"], np.uint8).tobytes()
            assert info["action_mask"].tobytes() == b64(step["masks"], np.uint8).tobytes()
            assert rewards.tobytes() == b64(step["rewards"], np.uint8).tobytes()
            assert term.view(np.uint8).tobytes() == b64(step["terminated"], np.uint8).tobytes()
            assert trunc.view(np.uint8).tobytes() == b64(step["truncated"], np.uint8).tobytes()
            assert info["seed"].tolist() == step["seeds"]
            ended = [e["index"] for e in step["ended"]]
            assert np.flatnonzero(term | trunc).tolist() == ended
            for e in step["ended"]:
                i = e["index"]
                assert info["final_obs"][i].tobytes() == b64(e["obs"], np.uint8).tobytes()
                fi = info["final_info"]
                assert fi["action_mask"][i].tobytes() == b64(e["mask"], np.uint8).tobytes()
                assert (fi["seed"][i], fi["steps"][i], fi["cards_home"][i], fi["won"][i]) == (
                    e["seed"], e["steps"], e["cardsHome"], e["won"]
                )
                assert np.float32(fi["episode_return"][i]) == np.float32(e["return"])
                endings += 1
        assert endings > 0
    finally:
        envs.close()
