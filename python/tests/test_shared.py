"""The shared file's slots: an array cut from a slot, or any view of one, keeps that slot from
being written again; once nothing holds them, the slot (and its arrays) serve again, so the usual
loop never falls back to copies."""

from __future__ import annotations

import numpy as np

import penguin_gym
from penguin_gym import shared
from penguin_gym.shared import VIEWED_SLOTS, SharedSlots, shared_file


def _cut(buf: np.ndarray) -> tuple[np.ndarray, ...]:
    return (
        np.ndarray(4, np.int64, buf, 0),
        np.ndarray((2, 3), np.float32, buf, 32),
        np.ndarray((2, 4), np.bool_, buf, 64)[1],
    )


def _named(slots: SharedSlots) -> set[int]:
    """The slots free_slot names over two rounds (it starts after the last one it named)."""
    return {slots.free_slot() for _ in range(2 * VIEWED_SLOTS)}


def test_a_held_cut_or_a_view_of_it_keeps_its_slot():
    slots = SharedSlots(shared_file())
    slots.open(4096)
    try:
        assert _named(slots) == set(range(VIEWED_SLOTS))
        first = slots.free_slot()
        cuts = slots.cut(first, slots.reply(first, 100), _cut)
        assert slots.cut(first, slots.reply(first, 100), _cut) is cuts  # made once per slot
        for j in range(len(cuts)):
            for view in (False, True):
                held = cuts[j][:1] if view else cuts[j]
                del cuts
                assert first not in _named(slots)
                del held
                assert _named(slots) == set(range(VIEWED_SLOTS))
                cuts = slots.cut(first, slots.reply(first, 100), _cut)
        del cuts
        # A held view of the slot itself (not of a cut) keeps it too.
        row = slots.reply(first, 100)[8:16]
        assert first not in _named(slots)
        del row
        assert first in _named(slots)
        # Every viewed slot held: the copied slot, whose replies are fresh copies every time.
        held = [slots.cut(i, slots.reply(i, 100), _cut)[0] for i in range(VIEWED_SLOTS)]
        assert slots.free_slot() == slots.copied
        a = slots.cut(slots.copied, slots.reply(slots.copied, 100), _cut)
        b = slots.cut(slots.copied, slots.reply(slots.copied, 100), _cut)
        assert a[0].base is not b[0].base and len(held) == VIEWED_SLOTS
    finally:
        slots.close()


def test_the_usual_loop_never_copies_and_held_arrays_stay(engine, monkeypatch):
    copies = []
    cuts = SharedSlots.cuts

    def counted(self: SharedSlots, slot: int, length: int, make):  # type: ignore[no-untyped-def]
        copies.append(slot == self.copied)
        return cuts(self, slot, length, make)

    monkeypatch.setattr(SharedSlots, "cuts", counted)
    envs = penguin_gym.PenguinVectorEnv(4, "Penguin-v3", max_steps=3, engine=engine)
    try:
        info = envs.reset(seed=21)[1]  # (`_` would hold the observations, and so their slot)
        rng = np.random.default_rng(4)
        kept = []
        for step in range(12):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
            obs, rewards, term, trunc, info = envs.step(actions)
            if step == 5:
                # One array of each kind, or a view of one, held while the loop goes on.
                held = [obs[2], rewards, term, trunc, info["seed"], info["action_mask"][1:]]
                final = info["final_info"]  # max_steps 3: every sub-env ends on the 6th step
                held += [final[k] for k in ("seed", "steps", "cards_home", "won", "episode_return")]
                held += [final["action_mask"], info["final_obs"][0]]
                kept = [(h, h.copy()) for h in held]
        assert len(copies) == 13 and not any(copies)  # one slot held, two in turn
        for now, then in kept:
            assert np.array_equal(now, then)
    finally:
        envs.close()


def test_slots_too_large_to_keep_are_always_copied(monkeypatch):
    monkeypatch.setattr(shared, "MAX_VIEWED_SLOT_BYTES", 1024)
    slots = SharedSlots(shared_file())
    slots.open(4096)
    try:
        assert slots.copied == 0 and slots.free_slot() == 0
        a = slots.cut(0, slots.reply(0, 100), _cut)
        b = slots.cut(0, slots.reply(0, 100), _cut)
        assert a[0].base is not b[0].base and slots.free_slot() == 0
    finally:
        slots.close()
