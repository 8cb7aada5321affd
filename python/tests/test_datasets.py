"""datasets.load and decode_positions on a small `penguin dataset` output, checked against the
TypeScript unpacker."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from conftest import ROOT, dump

from penguin_gym import datasets


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("labels") / "ds"
    subprocess.run(
        ["node", str(ROOT / "bin" / "penguin.js"), "dataset", "--deals", "3", "--shard-deals", "2",
         "--max-states", "500", "--max-steps", "40", "--out", str(out), "--quiet"],
        check=True, timeout=300, capture_output=True,
    )
    return out


def test_load_concatenates_the_shards(folder):
    data = datasets.load(folder)
    index = json.loads((folder / "index.json").read_text())
    assert len(index["shards"]) == 2
    assert len(data.before) == sum(s["decisions"] for s in index["shards"]) == len(data.deal)
    assert len(data) == sum(s["moves"] for s in index["shards"])
    assert data.before.shape[1] == data.after.shape[1] == 80 and data.before.dtype == np.uint8
    assert int((data.label == 0).sum()) == sum(s["lost"] for s in index["shards"])
    assert int((data.label == 1).sum()) == sum(s["winnable"] for s in index["shards"])
    # decision indices are global rows of before: non-decreasing and every row has its moves
    assert (np.diff(data.decision) >= 0).all() and set(data.decision.tolist()) == set(range(len(data.before)))
    assert sorted(set(data.deal.tolist())) == [1_000_000, 1_000_001, 1_000_002]
    # exactly one played move per decision
    assert np.bincount(data.decision, weights=data.played).tolist() == [1.0] * len(data.before)
    both = datasets.load([folder, folder])
    assert len(both) == 2 * len(data) and both.decision[len(data)] == len(data.before)


def test_decoder_matches_the_engine(folder):
    data = datasets.load(folder)
    pos = datasets.decode_positions(data.before)
    ts = dump("decode", folder)["rows"]
    assert len(ts) == len(pos)
    for i, row in enumerate(ts):
        assert pos.base[i] == row["base"]
        assert pos.foundations[i].tolist() == row["found"]
        assert pos.flippers[i].tolist() == row["cells"][:8]
        for c, cards in enumerate(row["columns"]):
            n = pos.lengths[i, c]
            assert pos.columns[i, c, :n].tolist() == cards and (pos.columns[i, c, n:] == 255).all()
    # every card exactly once across columns, flippers and (counted) foundations
    first = datasets.position_text(pos, 0)
    assert first.splitlines()[0].startswith("base ") and len(first.splitlines()) == 2 + 7


def test_damaged_folder(tmp_path):
    with pytest.raises(ValueError, match="index.json is missing or damaged"):
        datasets.load(tmp_path)
    (tmp_path / "index.json").write_text('{"format": "other"}')
    with pytest.raises(ValueError, match="is not a penguin-move-safety v1 index"):
        datasets.load(tmp_path)
