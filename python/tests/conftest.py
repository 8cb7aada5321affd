"""Shared helpers: where the engine is (PENGUIN_GYM_ENGINE, else this clone) and how to run the
TypeScript side of a comparison (engine_dump.mjs against the built dist/)."""

from __future__ import annotations

import base64
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("PENGUIN_GYM_ENGINE", HERE.parent.parent)).resolve()


@pytest.fixture(scope="session")
def engine() -> Path:
    if not (ROOT / "dist" / "src" / "bridge" / "main.js").is_file():
        pytest.fail(f"{ROOT} has no built engine: run `npm run build` there first")
    return ROOT


def dump(*args: object) -> dict:
    """Runs engine_dump.mjs (the TypeScript env in-process) and returns its JSON."""
    out = subprocess.run(
        ["node", str(HERE / "engine_dump.mjs"), str(ROOT), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(f"engine_dump.mjs {args} failed: {out.stderr}")
    return json.loads(out.stdout)


def b64(text: str, dtype: object) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype=dtype)
