"""The bench's random legal actions: the k-th legal action of each row with k = floor(u × legal
count), u from the generator, as the TypeScript bench picks (so uniform over the legal ones)."""

from __future__ import annotations

import numpy as np

from penguin_gym.bench import RandomLegal


def _masks(rng: np.random.Generator, n: int, actions: int) -> np.ndarray:
    masks = (rng.random((n, actions)) < 0.1).astype(np.int8)
    masks[np.arange(n), rng.integers(actions, size=n)] = 1  # at least one legal action a row
    masks[0] = 0
    masks[0, -1] = 1  # a row whose only legal action is the last
    masks[1] = 1  # a row where everything is legal
    return masks


def test_the_kth_legal_action_of_each_row():
    masks = _masks(np.random.default_rng(7), 64, 126)
    pick = RandomLegal(64, 126, np.random.default_rng(3))
    twin = np.random.default_rng(3)
    for _ in range(50):
        got = pick(masks)
        u = twin.random(64)
        for i, row in enumerate(masks):
            legal = np.flatnonzero(row)
            assert got[i] == legal[int(u[i] * len(legal))]


def test_uniform_over_the_legal_actions():
    rng = np.random.default_rng(11)
    masks = _masks(rng, 8, 20)
    pick = RandomLegal(8, 20, rng)
    draws = 20_000
    counts = np.zeros((8, 20))
    for _ in range(draws):
        counts[np.arange(8), pick(masks)] += 1
    assert counts[masks == 0].sum() == 0
    for i in range(8):
        legal = np.flatnonzero(masks[i])
        expected = draws / len(legal)
        # Each count is binomial: 5 standard deviations either side (fails by chance < 1e-5).
        sd = np.sqrt(draws * (1 / len(legal)) * (1 - 1 / len(legal)))
        assert np.all(np.abs(counts[i, legal] - expected) <= 5 * sd + 1e-9)
