"""The move-safety datasets that ``penguin dataset`` writes (docs/train-safety.md), as numpy arrays.

A folder holds ``index.json`` and ``shard-NNNNN/*.npy``; ``load`` concatenates the shards listed
in the index (rows of ``decision`` made global, as the TypeScript trainer does), and
``decode_positions`` unpacks the 80-byte positions of ``before`` and ``after``::

    from penguin_gym import datasets
    data = datasets.load("runs/labels-a")
    pos = datasets.decode_positions(data.after)      # columns, flippers, foundations per row
    x, y = data.after, data.label                    # y: 1 winnable, 0 lost, -1 unknown
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence, Union

import numpy as np

FORMAT, FORMAT_VERSION = "penguin-move-safety", 1
PACK_STRIDE = 80
NO_CARD = 255
MAX_COLUMNS = 10
RANKS, SUITS = "A23456789TJQK", "CDHS"
# Per decision (rows of before.npy) and per labelled move (rows of after.npy).
DECISION_ARRAYS = ("before", "deal", "ply", "player")
MOVE_ARRAYS = ("after", "decision", "move", "action", "label", "dist", "played", "states")

PathLike = Union[str, "os.PathLike[str]"]


@dataclass
class Dataset:
    """Every shard of one or more dataset folders, concatenated.

    D decisions (positions where a player chose) and M labelled moves:
    ``before`` [D, 80] uint8 packed positions, ``deal`` [D] int32 seeds, ``ply`` [D] int16,
    ``player`` [D] uint8; ``after`` [M, 80] uint8 (position after each legal move), ``decision``
    [M] int32 (row of ``before`` it belongs to), ``move`` [M] int32 engine move codes, ``action``
    [M] int16 action ids of the environment, ``label`` [M] int8 (1 winnable, 0 lost, -1 unknown),
    ``dist`` [M] int16 (solver line length, -1 unless winnable), ``played`` [M] uint8 (1 for the
    chosen move), ``states`` [M] int32 (solver positions examined). ``index`` is the first
    folder's index.json.
    """

    index: dict[str, Any]
    before: np.ndarray
    deal: np.ndarray
    ply: np.ndarray
    player: np.ndarray
    after: np.ndarray
    decision: np.ndarray
    move: np.ndarray
    action: np.ndarray
    label: np.ndarray
    dist: np.ndarray
    played: np.ndarray
    states: np.ndarray

    def __len__(self) -> int:
        return len(self.label)


def read_index(path: PathLike) -> dict[str, Any]:
    """``path/index.json``, checked to be a penguin-move-safety v1 index."""
    file = Path(path) / "index.json"
    try:
        idx = json.loads(file.read_text())
    except (OSError, ValueError) as e:
        raise ValueError(f"{file} is missing or damaged ({e})") from None
    if (
        not isinstance(idx, dict)
        or idx.get("format") != FORMAT
        or idx.get("version") != FORMAT_VERSION
        or not isinstance(idx.get("shards"), list)
    ):
        raise ValueError(f"{file} is not a {FORMAT} v{FORMAT_VERSION} index")
    if idx.get("packStride", PACK_STRIDE) != PACK_STRIDE:
        raise ValueError(f"{file}: packed positions of {idx['packStride']} bytes, expected {PACK_STRIDE}")
    return idx


def load(paths: PathLike | Sequence[PathLike]) -> Dataset:
    """Reads one dataset folder, or several of the same rules, into one ``Dataset``."""
    folders = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not folders:
        raise ValueError("no dataset folder given")
    parts: dict[str, list[np.ndarray]] = {k: [] for k in DECISION_ARRAYS + MOVE_ARRAYS}
    first: dict[str, Any] | None = None
    offset = 0
    for folder in folders:
        idx = read_index(folder)
        if first is not None and idx.get("rulesLabel") != first.get("rulesLabel"):
            raise ValueError(f"{folder} holds rules {idx.get('rulesLabel')}, not {first.get('rulesLabel')}")
        first = first or idx
        for shard in idx["shards"]:
            d = Path(folder) / shard["name"]
            arrays = {k: np.load(d / f"{k}.npy", allow_pickle=False) for k in parts}
            rows = len(arrays["deal"])
            if len(arrays["label"]) != shard.get("moves", len(arrays["label"])) or rows != shard.get(
                "decisions", rows
            ):
                raise ValueError(f"{d} does not hold the rows its index entry lists")
            arrays["decision"] = arrays["decision"].astype(np.int32) + offset
            offset += rows
            for k, a in arrays.items():
                parts[k].append(a)
    assert first is not None
    return Dataset(index=first, **{k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()})


@dataclass
class Positions:
    """Packed positions, unpacked: N rows.

    ``base`` [N] the base rank (0 = A … 12 = K); ``foundations`` [N, 4] cards on each foundation
    (C, D, H, S); ``flippers`` [N, 8] the card in each flipper slot (255 = free);
    ``lengths`` [N, 10] cards per column (0 past the rules' columns); ``columns`` [N, 10, L]
    each column's cards from the deepest up (255 past its length). Cards are rank · 4 + suit.
    """

    base: np.ndarray
    foundations: np.ndarray
    flippers: np.ndarray
    lengths: np.ndarray
    columns: np.ndarray

    def __len__(self) -> int:
        return len(self.base)


def decode_positions(packed: np.ndarray) -> Positions:
    """Unpacks [N, 80] packed positions (rows of ``before`` or ``after``) without a Python loop
    over rows: byte 0 the base rank, 1–4 foundations, 5–12 flipper slots, 13–22 column lengths,
    then every column's cards in order."""
    p = np.asarray(packed, dtype=np.uint8)
    if p.ndim == 1:
        p = p[None, :]
    if p.ndim != 2 or p.shape[1] != PACK_STRIDE:
        raise ValueError(f"packed positions must be [N, {PACK_STRIDE}] uint8, got shape {p.shape}")
    lengths = p[:, 13:23]
    if (lengths.sum(axis=1, dtype=np.int64) > PACK_STRIDE - 23).any():
        raise ValueError("packed positions hold column lengths longer than the 57 card bytes")
    start = 23 + np.cumsum(lengths, axis=1, dtype=np.int64) - lengths  # first byte of each column
    depth = int(lengths.max()) if p.size else 0
    columns = np.full((len(p), MAX_COLUMNS, depth), NO_CARD, np.uint8)
    rows = np.arange(len(p))[:, None]
    for d in range(depth):
        at = np.minimum(start + d, PACK_STRIDE - 1)
        columns[:, :, d] = np.where(d < lengths, p[rows, at], NO_CARD)
    return Positions(
        base=p[:, 0].copy(),
        foundations=p[:, 1:5].copy(),
        flippers=p[:, 5:13].copy(),
        lengths=lengths.copy(),
        columns=columns,
    )


def card_name(card: int) -> str:
    """``TH`` for card 38 (rank · 4 + suit, rank 0 = A); ``--`` for 255 (no card)."""
    if card == NO_CARD:
        return "--"
    if not 0 <= card < 52:
        raise ValueError(f"not a card id: {card} (allowed 0..51, or 255 for none)")
    return RANKS[card >> 2] + SUITS[card & 3]


def position_text(pos: Positions, i: int, columns: int = 7) -> str:
    """Row `i` as text: base, foundations, flippers, then each of the first `columns` columns
    (the rules' count: 7 for Penguin, ``index["rules"]["columns"]``) from the deepest card."""
    lines = [
        f"base {RANKS[pos.base[i]]}   foundations " + " ".join(map(str, pos.foundations[i].tolist())),
        "flippers: " + " ".join(card_name(c) for c in pos.flippers[i].tolist()),
    ]
    for c in range(columns):
        n = int(pos.lengths[i, c])
        lines.append(f"{c + 1}: " + " ".join(card_name(x) for x in pos.columns[i, c, :n].tolist()))
    return "\n".join(lines)
