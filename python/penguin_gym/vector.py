"""N environments of one id as a ``gymnasium.vector.VectorEnv``, stepped by one TypeScript
``VecEnv`` in one Node child process: one round trip per batch step.

Autoreset mode: SAME_STEP, the TypeScript VecEnv's. When sub-env i's episode ends on a step,
that step's reward, terminated and truncated belong to the ending episode; its last observation
is in ``info["final_obs"][i]`` and its last info in ``info["final_info"]`` (row i, flagged by
``info["_final_info"]``), while ``obs[i]`` and ``info["action_mask"][i]`` already show the first
position of the next deal.
"""

from __future__ import annotations

import math
import os
import struct
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .bridge import OP_RENDER, OP_RESET, OP_STEP, Bridge
from .env import action_int
from .options import RANDOM_SEED_HIGH, RANDOM_SEED_LOW, check_env_id, engine_options

_SEED = struct.Struct("<d")
_NO_SEED = _SEED.pack(math.nan)


class PenguinVectorEnv(VectorEnv):
    """`num_envs` copies of one id (options as for ``PenguinEnv``). ``reset(seed=s)`` deals
    sub-env i from s + i; its k-th later episode plays s + i + k × num_envs, so the batch plays
    s, s + 1, s + 2, … with no deal twice. Actions must be legal (see ``info["action_mask"]``):
    an illegal one raises ValueError naming the sub-env and changes nothing.
    """

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 8,
        env_id: str = "Penguin-v3",
        render_mode: str | None = None,
        *,
        node: str | os.PathLike[str] | None = None,
        engine: str | os.PathLike[str] | None = None,
        timeout: float = 30.0,
        **options: Any,
    ) -> None:
        check_env_id(env_id)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        n = action_int(num_envs)
        if not 1 <= n <= 65536:
            raise ValueError(f"num_envs must be an integer from 1 to 65536, got {num_envs}")
        self._bridge: Bridge | None = None
        self._bridge = Bridge(
            env_id, engine_options(options), n, node=node, engine=engine, timeout=timeout
        )
        about = self._bridge.about
        if about.get("autoresetMode") != "same-step":
            raise RuntimeError(f"the engine's VecEnv resets {about.get('autoresetMode')!r}, not same-step")
        self.env_id = env_id
        self.num_envs = n
        self.render_mode = render_mode
        self.obs_size: int = about["obsSize"]
        self.num_actions: int = about["numActions"]
        self.single_observation_space = gym.spaces.Box(
            low=np.float32(about["low"]),
            high=np.float32(about["high"]),
            shape=(self.obs_size,),
            dtype=np.float32,
        )
        self.single_action_space = gym.spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        size, na = self.obs_size, self.num_actions
        # Byte offsets of a STEP reply (docs/python.md): seeds, rewards, observations, flags,
        # masks, padding to 8, then the episodes that ended.
        self._at_rewards = 8 * n
        self._at_obs = self._at_rewards + 4 * n
        self._at_flags = self._at_obs + 4 * n * size
        self._at_masks = self._at_flags + 2 * n
        self._at_finals = -(-(self._at_masks + n * na) // 8) * 8
        self._capacity = self._at_finals + 8 + n * (8 + 4 + 4 + 4 + 4 * size + 2 + na)
        self._all = np.ones(n, np.bool_)
        self._started = False
        self._masks = np.zeros((n, na), np.int8)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals sub-env i from seed + i; a list of seeds must be consecutive (s, s + 1, …).
        Without a seed, every sub-env continues its sequence; the very first unseeded reset
        draws s from ``np_random``."""
        if isinstance(seed, (list, tuple)):
            if len(seed) != self.num_envs or any(
                action_int(s) != action_int(seed[0]) + i for i, s in enumerate(seed)
            ):
                raise ValueError(
                    "reset(seed=[...]) needs num_envs consecutive seeds s, s + 1, …; "
                    "or pass one integer s"
                )
            seed = action_int(seed[0])
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset takes no options, got {sorted(options)}")
        if seed is not None:
            payload = _SEED.pack(float(action_int(seed)))
        elif not self._started:
            payload = _SEED.pack(float(self.np_random.integers(RANDOM_SEED_LOW, RANDOM_SEED_HIGH)))
        else:
            payload = _NO_SEED
        view = self._call(OP_RESET, payload)
        n, size, na = self.num_envs, self.obs_size, self.num_actions
        seeds = np.frombuffer(view, np.float64, n, 0).astype(np.int64)
        obs = np.frombuffer(view, np.float32, n * size, 8 * n).reshape(n, size)
        self._masks = np.frombuffer(view, np.int8, n * na, 8 * n + 4 * n * size).reshape(n, na)
        self._started = True
        info = {"action_mask": self._masks, "_action_mask": self._all, "seed": seeds, "_seed": self._all}
        return obs, info

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"step needs {self.num_envs} integer actions, got {a.dtype} of shape {a.shape}")
        view = self._call(OP_STEP, a.astype("<i4", copy=False).tobytes())
        n, size, na = self.num_envs, self.obs_size, self.num_actions
        seeds = np.frombuffer(view, np.float64, n, 0).astype(np.int64)
        rewards = np.frombuffer(view, np.float32, n, self._at_rewards)
        obs = np.frombuffer(view, np.float32, n * size, self._at_obs).reshape(n, size)
        flags = np.frombuffer(view, np.bool_, 2 * n, self._at_flags)
        self._masks = np.frombuffer(view, np.int8, n * na, self._at_masks).reshape(n, na)
        info: dict[str, Any] = {
            "action_mask": self._masks,
            "_action_mask": self._all,
            "seed": seeds,
            "_seed": self._all,
        }
        k = int(np.frombuffer(view, np.uint32, 1, self._at_finals)[0])
        if k:
            self._add_finals(info, view, k)
        return obs, rewards, flags[:n], flags[n:], info

    def _add_finals(self, info: dict[str, Any], view: memoryview, k: int) -> None:
        """The k episodes that ended on this step, in Gymnasium's SAME_STEP info layout."""
        n, size, na = self.num_envs, self.obs_size, self.num_actions
        at = self._at_finals + 8
        small = np.frombuffer(view, np.uint8, 20 * k, at)  # seeds, returns, steps, index
        index = small[16 * k :].view(np.int32)
        at += 20 * k
        f_obs = np.frombuffer(view, np.float32, k * size, at).reshape(k, size)
        at += 4 * k * size
        tail = np.frombuffer(view, np.uint8, k * (2 + na), at)
        # k is small (a few episodes end per step): scalar stores beat numpy's fancy indexing.
        rows = index.tolist()
        seeds = small[: 8 * k].view(np.float64).tolist()
        returns = small[8 * k : 12 * k].view(np.float32).tolist()
        steps = small[12 * k : 16 * k].view(np.int32).tolist()
        homes = tail[:k].tolist()
        wons = tail[k : 2 * k].tolist()
        f_masks = tail[2 * k :].view(np.int8).reshape(k, na)
        ended = np.zeros(n, np.bool_)
        final_obs = np.empty(n, dtype=object)  # None where no episode ended
        mask = np.zeros((n, na), np.int8)
        cols = np.zeros((5, n))
        for j, i in enumerate(rows):
            ended[i] = True
            final_obs[i] = f_obs[j]
            mask[i] = f_masks[j]
            cols[0, i] = seeds[j]
            cols[1, i] = returns[j]
            cols[2, i] = steps[j]
            cols[3, i] = homes[j]
            cols[4, i] = wons[j]
        info["final_obs"] = final_obs
        info["_final_obs"] = ended
        info["final_info"] = {
            "action_mask": mask,
            "_action_mask": ended,
            "seed": cols[0].astype(np.int64),
            "_seed": ended,
            "episode_return": cols[1],
            "_episode_return": ended,
            "steps": cols[2].astype(np.int64),
            "_steps": ended,
            "cards_home": cols[3].astype(np.int64),
            "_cards_home": ended,
            "won": cols[4] != 0,
            "_won": ended,
        }
        info["_final_info"] = ended

    def action_masks(self) -> np.ndarray:
        """The legal actions of every sub-env now, (num_envs, n) booleans."""
        return self._masks.astype(bool)

    def render(self) -> tuple[str, ...] | None:
        if self.render_mode is None:
            gym.logger.warn("render() needs render_mode='ansi'")
            return None
        return tuple(
            bytes(self._call(OP_RENDER, struct.pack("<I", i))).decode() for i in range(self.num_envs)
        )

    def close_extras(self, **kwargs: Any) -> None:
        if self._bridge is not None:
            self._bridge.close()

    def _call(self, op: int, payload: bytes) -> memoryview:
        if self._bridge is None:
            raise RuntimeError("the environment was not built")
        return self._bridge.call(op, payload, self._capacity)
