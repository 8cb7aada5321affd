"""penguin-gym's environments under Gymnasium: Penguin and its FreeCell-family relatives.

``import penguin_gym`` registers every id as ``penguin_gym/<id>`` (``penguin_gym/Penguin-v3``,
…). The rules engine is the project's TypeScript one, run in a Node child process
(docs/python.md)::

    import gymnasium as gym
    import penguin_gym

    env = gym.make("penguin_gym/Penguin-v3", max_steps=300)
    obs, info = env.reset(seed=1_000_000)
    envs = gym.make_vec("penguin_gym/Penguin-v3", num_envs=64)  # one engine, one round trip
"""

from __future__ import annotations

import gymnasium as gym

from . import datasets
from .bridge import (
    BridgeError,
    BridgeTimeoutError,
    EngineDiedError,
    EngineNotFoundError,
    NodeNotFoundError,
)
from .env import PenguinEnv
from .options import ENV_IDS, PREVIOUS_ENV_IDS
from .vector import PenguinVectorEnv

__all__ = [
    "ENV_IDS",
    "BridgeError",
    "BridgeTimeoutError",
    "EngineDiedError",
    "EngineNotFoundError",
    "NodeNotFoundError",
    "PenguinEnv",
    "PenguinVectorEnv",
    "datasets",
]
__version__ = "0.1.0"

for _id in ENV_IDS + PREVIOUS_ENV_IDS:
    gym.register(
        id=f"penguin_gym/{_id}",
        entry_point="penguin_gym.env:PenguinEnv",
        vector_entry_point="penguin_gym.vector:PenguinVectorEnv",
        kwargs={"env_id": _id},
    )
