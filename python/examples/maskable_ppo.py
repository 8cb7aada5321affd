"""MaskablePPO (sb3-contrib) on penguin_gym/Penguin-v3: a starting point, not a tuned recipe.

    pip install ./python sb3-contrib
    python python/examples/maskable_ppo.py

MaskablePPO reads the legal actions from the environment's ``action_masks()`` method, which
PenguinEnv provides. Each of the n_envs copies runs its own engine process; seed_stride=n_envs
makes the copies (seeded 1,000,000 + i by make_vec_env) play every training deal once between
them. Evaluation: the deals and move limit of ``penguin eval --seed 1 --deals 1000``.
"""

import math

import gymnasium as gym
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

import penguin_gym  # noqa: F401  (registers the ids)

N_ENVS = 8
envs = make_vec_env(
    "penguin_gym/Penguin-v3",
    n_envs=N_ENVS,
    seed=1_000_000,
    env_kwargs={"max_steps": 200, "seed_stride": N_ENVS},
)
model = MaskablePPO("MlpPolicy", envs, seed=1, verbose=1)
model.learn(total_timesteps=200_000)
envs.close()

env = gym.make("penguin_gym/Penguin-v3", max_steps=1000)
wins, n = 0, 1000
for seed in range(1, n + 1):
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    wins += info["won"]
env.close()
z = 1.959963984540054
p, d = wins / n, 1 + z * z / n
c, h = (p + z * z / (2 * n)) / d, z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
print(f"deals 1-{n}: {wins} won, {100 * p:.1f} % [{100 * (c - h):.1f}-{100 * (c + h):.1f}] (95 % Wilson)")
