"""N environments of one id as a ``gymnasium.vector.VectorEnv``, stepped by one TypeScript
``VecEnv`` in one Node child process: one round trip per batch step.

Autoreset mode: SAME_STEP, the TypeScript VecEnv's. When sub-env i's episode ends on a step,
that step's reward, terminated and truncated belong to the ending episode; its last observation
is in ``info["final_obs"][i]`` and its last info in ``info["final_info"]`` (row i, flagged by
``info["_final_info"]``), while ``obs[i]`` and ``info["action_mask"][i]`` already show the first
position of the next deal.
"""

from __future__ import annotations

import os
import struct
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .bridge import OP_RENDER, OP_RESET, OP_STEP, Bridge, action_int, check_id_and_render_mode
from .bridge import observation_box, reset_payload
from .options import engine_options

_ACTION = np.dtype("<i4")
# Where _cut puts the info dicts a step copies: without finals, with them, and final_info.
_INFO, _ENDED_INFO, _FINAL_INFO = 15, 16, 17
# RESET and STEP replies come through the shared file; the pipe carries the rest (render text,
# error messages), a few kB.
_PIPE_REPLY = 1 << 12


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
        check_id_and_render_mode(env_id, render_mode)
        n = action_int(num_envs)
        if not 1 <= n <= 65536:
            raise ValueError(f"num_envs must be an integer from 1 to 65536, got {num_envs}")
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
        self.single_observation_space = observation_box(about)
        self.single_action_space = gym.spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        size, na = self.obs_size, self.num_actions
        # Byte offsets of a STEP reply (docs/python.md): seeds, final seeds, returns, steps and
        # cards home, the count and rows of the episodes that ended, rewards, observations,
        # flags (terminated, truncated, ended, final won), masks, final masks, padding, then
        # the final observations of the episodes that ended.
        self._at_count = 40 * n
        self._at_rewards = 44 * n + 8
        self._at_obs = 48 * n + 8
        self._at_flags = self._at_obs + 4 * n * size
        self._at_masks = self._at_flags + 4 * n
        self._at_finals = -(-(self._at_masks + 2 * n * na) // 8) * 8
        self._obs_bytes = 4 * size
        self._all = np.ones(n, np.bool_)
        self._shape = (n,)
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
        payload = reset_payload(seed, self._started, self.np_random)
        cuts, _ = self._bridge.call_slot(OP_RESET, payload, self._cut)
        self._started = True
        self._masks = cuts[1]
        return cuts[0], cuts[_INFO].copy()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        a = actions if type(actions) is np.ndarray else np.asarray(actions)
        if a.shape != self._shape or a.dtype.kind not in "iu":
            raise ValueError(f"step needs {self.num_envs} integer actions, got {a.dtype} of shape {a.shape}")
        cuts, length = self._bridge.call_slot(OP_STEP, a.astype(_ACTION, copy=False).tobytes(), self._cut)
        self._masks = cuts[1]
        # Episodes that ended, counted from the reply's length (their final observations come
        # last): Gymnasium's SAME_STEP info, with final_obs and final_info.
        if length > self._at_finals:
            info = cuts[_ENDED_INFO].copy()
            info["final_obs"] = self._final_obs((length - self._at_finals) // self._obs_bytes, cuts)
            info["final_info"] = cuts[_FINAL_INFO].copy()
        else:
            info = cuts[_INFO].copy()
        return cuts[0], cuts[3], cuts[4], cuts[5], info

    def _cut(self, buf: np.ndarray) -> tuple[Any, ...]:
        """The arrays of a RESET or STEP reply, views of `buf` in the types the reply already
        has, so nothing is converted or copied (np.ndarray over the buffer: a third of the cost
        of frombuffer and reshape): observations, masks, seeds, rewards, terminated, truncated,
        ended, final won, final masks, final seeds, final returns, final steps, final cards
        home, ended index, and room for every final observation (the first k rows are this
        step's). Then the info dicts a step hands out copies of (a copy costs a fraction of
        building one): without finals, with them (final_obs is set per step), and final_info."""
        n, size, na = self.num_envs, self.obs_size, self.num_actions
        flags = np.ndarray((4, n), np.bool_, buf, self._at_flags)
        # Seeds, final seeds, returns (float64 bits), steps and cards home: rows of one block.
        wide = np.ndarray((5, n), np.int64, buf)
        masks, seeds, ended, won = np.ndarray((n, na), np.int8, buf, self._at_masks), wide[0], flags[2], flags[3]
        info = {"action_mask": masks, "_action_mask": self._all, "seed": seeds, "_seed": self._all}
        ended_info = {**info, "final_obs": None, "_final_obs": ended, "final_info": None, "_final_info": ended}
        final_masks = np.ndarray((n, na), np.int8, buf, self._at_masks + n * na)
        final_seeds, final_returns, final_steps, final_home = wide[1], wide[2].view(np.float64), wide[3], wide[4]
        final_info = {
            "action_mask": final_masks,
            "_action_mask": ended,
            "seed": final_seeds,
            "_seed": ended,
            "episode_return": final_returns,
            "_episode_return": ended,
            "steps": final_steps,
            "_steps": ended,
            "cards_home": final_home,
            "_cards_home": ended,
            "won": won,
            "_won": ended,
        }
        return (
            np.ndarray((n, size), np.float32, buf, self._at_obs),
            masks,
            seeds,
            np.ndarray(n, np.float32, buf, self._at_rewards),
            flags[0],
            flags[1],
            ended,
            won,
            final_masks,
            final_seeds,
            final_returns,
            final_steps,
            final_home,
            np.ndarray(n, np.int32, buf, self._at_count + 8),
            np.ndarray((n, size), np.float32, buf, self._at_finals),
            info,
            ended_info,
            final_info,
        )

    def _final_obs(self, k: int, cuts: tuple[Any, ...]) -> np.ndarray:
        """info["final_obs"] of a step on which k episodes ended: their last observations in
        their sub-envs' rows, None in the others."""
        f_obs = cuts[14]
        final_obs = np.empty(self.num_envs, dtype=object)
        if k == 1:
            final_obs[cuts[13][0]] = f_obs[0]
        else:
            for j, i in enumerate(cuts[13][:k].tolist()):
                final_obs[i] = f_obs[j]
        return final_obs

    def action_masks(self) -> np.ndarray:
        """The legal actions of every sub-env now, (num_envs, n) booleans."""
        return self._masks.astype(bool)

    def render(self) -> tuple[str, ...] | None:
        if self.render_mode is None:
            gym.logger.warn("render() needs render_mode='ansi'")
            return None
        return tuple(
            self._call(OP_RENDER, struct.pack("<I", i)).tobytes().decode() for i in range(self.num_envs)
        )

    def close_extras(self, **kwargs: Any) -> None:
        if hasattr(self, "_bridge"):  # not when the engine could not be started
            self._bridge.close()

    def _call(self, op: int, payload: bytes) -> np.ndarray:
        return self._bridge.call(op, payload, _PIPE_REPLY)
