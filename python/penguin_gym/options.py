"""The ids and options the TypeScript registry accepts, in Python's spelling.

The ids are listed here so that ``import penguin_gym`` can register them without starting Node;
the test suite checks this list against the engine's own (the OPEN reply carries it).
"""

from __future__ import annotations

from typing import Any

ENV_IDS = (
    "Penguin-v3",
    "PenguinRelaxed-v3",
    "Opus-v3",
    "PenguinBeakHome-v3",
    "BakersGame-v3",
    "KingsOnlyBakersGame-v3",
    "FreeCell-v3",
    "EightOff-v3",
    "SeahavenTowers-v3",
    "Stalactites-v3",
)
# The previous version (a 500-move limit), still registered as the engine keeps it.
PREVIOUS_ENV_IDS = tuple(i.replace("-v3", "-v2") for i in ENV_IDS)

# Python keyword -> the engine's option name (docs/env.md, "Options").
OPTION_NAMES = {
    "cells": "cells",
    "empty_column": "emptyColumn",
    "group_move": "groupMove",
    "build": "build",
    "base": "base",
    "foundations": "foundations",
    "deal": "deal",
    "reward": "reward",
    "max_steps": "maxSteps",
    "truncate_on_repeat": "truncateOnRepeat",
    "shuffle": "shuffle",
}

# Seeds drawn when a first reset() gives none: the training range of the project's deal splits.
RANDOM_SEED_LOW, RANDOM_SEED_HIGH = 1_000_000, 2**31 - 1


def engine_options(options: dict[str, Any]) -> dict[str, Any]:
    """The given (non-None) options under the engine's names; an unknown name raises TypeError."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key not in OPTION_NAMES:
            raise TypeError(f"unknown env option {key!r}; allowed: {', '.join(OPTION_NAMES)}")
        if value is not None:
            out[OPTION_NAMES[key]] = value.item() if hasattr(value, "item") else value
    return out


def check_env_id(env_id: str) -> str:
    if env_id not in ENV_IDS and env_id not in PREVIOUS_ENV_IDS:
        raise ValueError(f"unknown env id {env_id!r}; known: {', '.join(ENV_IDS)}")
    return env_id
