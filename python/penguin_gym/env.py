"""One Penguin-family environment as a ``gymnasium.Env``, played by the TypeScript engine.

Description, spaces, rewards and episode end are the TypeScript environment's (docs/env.md);
this class adds Gymnasium's conventions: ``info["action_mask"]`` (int8, 1 = legal), an
``action_masks()`` method for sb3-contrib's MaskablePPO, ``render_mode="ansi"``, and a choice
for actions that are in the action space but illegal here.
"""

from __future__ import annotations

import os
import struct
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from .bridge import OP_RENDER, OP_RESET, OP_STEP, Bridge, action_int, check_id_and_render_mode
from .bridge import observation_box, reset_payload
from .options import engine_options

# Reply head of RESET and STEP (docs/python.md): reward, seed, return, steps, legal actions,
# terminated, truncated, won, repeated, cards home.
_HEAD = struct.Struct("<dddiiBBBBB3x")
ILLEGAL_ACTIONS = ("terminate", "raise")


class PenguinEnv(gym.Env[np.ndarray, np.int64]):
    """A solitaire of the Penguin family (docs/env.md); the engine runs in a Node child process.

    Args:
        env_id: a TypeScript id such as ``"Penguin-v3"`` (``penguin_gym.ENV_IDS``).
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the board as text).
        cells, empty_column, group_move, build, base, foundations, deal: rule overrides.
        reward: ``"cards"`` (1/52 per card home) or ``"win"``; max_steps: truncation (default: the
        id's registered limit, 1000);
        truncate_on_repeat: truncate when a position comes back; shuffle: ``"seedrandom"`` or
        ``"microsoft"`` (seed = MS deal number).
        illegal_action: what an action in the action space but illegal here does: ``"terminate"``
            (default) ends the episode with reward 0 and ``info["illegal_action"] = True``, the
            position unchanged; ``"raise"`` raises ValueError naming why, changing nothing.
        seed_stride: an unseeded reset() plays the previous seed + seed_stride. With k copies
            seeded s, s + 1, …, s + k - 1 (Stable-Baselines3's make_vec_env), seed_stride=k
            makes them play every deal from s up once, as the vector env does.
        node, engine: paths of Node.js and of the penguin-gym package (found when omitted).
        timeout: seconds to wait for each reply of the engine.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        env_id: str = "Penguin-v3",
        render_mode: str | None = None,
        *,
        cells: int | None = None,
        empty_column: str | None = None,
        group_move: str | None = None,
        build: str | None = None,
        base: str | None = None,
        foundations: str | None = None,
        deal: str | None = None,
        reward: str | None = None,
        max_steps: int | None = None,
        truncate_on_repeat: bool | None = None,
        shuffle: str | None = None,
        illegal_action: str = "terminate",
        seed_stride: int = 1,
        node: str | os.PathLike[str] | None = None,
        engine: str | os.PathLike[str] | None = None,
        timeout: float = 30.0,
    ) -> None:
        check_id_and_render_mode(env_id, render_mode)
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, got {illegal_action!r}"
            )
        options = engine_options(
            dict(
                cells=cells,
                empty_column=empty_column,
                group_move=group_move,
                build=build,
                base=base,
                foundations=foundations,
                deal=deal,
                reward=reward,
                max_steps=max_steps,
                truncate_on_repeat=truncate_on_repeat,
                shuffle=shuffle,
            )
        )
        self._bridge = Bridge(
            env_id,
            options,
            0,
            node=node,
            engine=engine,
            timeout=timeout,
            seed_stride=action_int(seed_stride),
        )
        about = self._bridge.about
        self.env_id = env_id
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.obs_size: int = about["obsSize"]
        self.num_actions: int = about["numActions"]
        self.max_steps: int = about["maxSteps"]
        self.engine_ids: tuple[str, ...] = tuple(about["ids"])
        self.observation_space = observation_box(about)
        self.action_space = gym.spaces.Discrete(self.num_actions)
        self.reward_range = tuple(about["rewardRange"])
        self._capacity = _HEAD.size + 4 * self.obs_size + self.num_actions
        self._obs = np.zeros(self.obs_size, np.float32)
        self._mask = np.zeros(self.num_actions, np.int8)
        self._info: dict[str, Any] = {}
        self._done = True
        self._started = False

    # -- Gymnasium API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals `seed` (a non-negative integer). Without one, the next seed of the env's sequence
        (previous + seed_stride); the very first unseeded reset draws one from ``np_random``."""
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset takes no options, got {sorted(options)}")
        payload = reset_payload(seed, self._started, self.np_random)
        _, terminated, _ = self._read(self._call(OP_RESET, payload))
        self._started = True
        self._done = terminated
        return self._obs, self._info

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        a = action_int(action)
        if (
            self.illegal_action == "terminate"
            and not self._done
            and 0 <= a < self.num_actions
            and self._mask[a] == 0
        ):
            self._done = True
            info = dict(self._info)
            info["illegal_action"] = True
            return self._obs, 0.0, True, False, info
        if self._done and self._started:
            raise ValueError(f"action {a}: the episode is over (terminated or truncated); call reset()")
        reward, terminated, truncated = self._read(
            self._call(OP_STEP, struct.pack("<i", a) if -(2**31) <= a < 2**31 else b"\xff" * 4)
        )
        self._done = terminated or truncated
        return self._obs, reward, terminated, truncated, self._info

    def action_masks(self) -> np.ndarray:
        """The legal actions now as booleans (what sb3-contrib's MaskablePPO asks for)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn("render() needs render_mode='ansi' (e.g. gymnasium.make(id, render_mode='ansi'))")
            return None
        return self._call(OP_RENDER, struct.pack("<I", 0)).tobytes().decode()

    def close(self) -> None:
        """Ends the engine process (calling it twice is fine)."""
        if hasattr(self, "_bridge"):  # not when the engine could not be started
            self._bridge.close()

    # -- frames ------------------------------------------------------------------------------

    def _call(self, op: int, payload: bytes) -> np.ndarray:
        return self._bridge.call(op, payload, self._capacity)

    def _read(self, buf: np.ndarray) -> tuple[float, bool, bool]:
        """Unpacks a RESET or STEP reply into the observation, mask and info it carries."""
        reward, seed, ret, steps, legal, term, trunc, won, repeated, home = _HEAD.unpack_from(buf)
        self._obs = np.ndarray(self.obs_size, np.float32, buf, _HEAD.size)
        self._mask = np.ndarray(self.num_actions, np.int8, buf, _HEAD.size + 4 * self.obs_size)
        self._info = {
            "action_mask": self._mask,
            "legal_actions": legal,
            "cards_home": home,
            "steps": steps,
            "won": bool(won),
            "repeated": bool(repeated),
            "seed": int(seed),
            "episode_return": ret,
        }
        return reward, bool(term), bool(trunc)
