"""The file a vector's bulk replies come through (observations and masks of every sub-env):
an anonymous memfd (an unlinked temporary file where there is no memfd) that the engine
inherits and writes with one pwritev, and that this side maps.

The file is cut into slots, each as large as the largest reply. Each request names the slot its
reply goes to. The arrays a step returns view their slot directly, with no copy, and a slot is
named again only once nothing views it any more: every array made from a slot, and every view of
such an array, holds a reference to the slot's own array (numpy keeps a view's base), so the
slot's reference count says whether anything still sees it. The arrays a reply is cut into
(observations, masks, rewards, ...) are made once per slot and handed out again each time the
slot is reused, since making a numpy view costs nearly a microsecond and a vector hands out
about fifteen a step: a slot is free only when both its own array and each of these cached
arrays are referred to by nothing but the cache. When every slot is still seen (a caller keeping
the arrays of several steps), the reply goes to one more slot, which is never handed out, and is
copied from there.
"""

from __future__ import annotations

import mmap
import os
import sys
import tempfile
from typing import Any, Callable

import numpy as np

# Cuts a reply into the arrays handed out (each a view of it), and anything made of them alone
# (dicts of them) that is kept with them.
Cutter = Callable[[np.ndarray], tuple[Any, ...]]
# Slots handed out without a copy: the caller usually still holds the previous step's arrays
# while asking for the next, so two would do; a third spares a copy to one who keeps one more.
VIEWED_SLOTS = 3
# Above this size of reply (vectors of thousands), only the copied slot: the file's pages, once
# written, stay in memory as long as the vector lives.
MAX_VIEWED_SLOT_BYTES = 32 << 20


def shared_file() -> int:
    """A file descriptor for a vector's bulk replies: a memfd, else an unlinked temporary file."""
    try:
        return os.memfd_create("penguin-gym-bridge", os.MFD_CLOEXEC)
    except (AttributeError, OSError):
        with tempfile.TemporaryFile() as f:
            return os.dup(f.fileno())


class SharedSlots:
    """The slots of the shared file `fd`, mapped once `open()` knows their size."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._map: mmap.mmap | None = None
        self._slots: list[np.ndarray] = []
        self.copied = 0  # the index of the slot that is copied from, never viewed
        self._unseen = 0
        # Per viewed slot: the arrays its replies are cut into, made on its first reply; the
        # sum of their reference counts when only the cache refers to them; and the slot's own
        # count then (one more per cached array, whose base it is).
        self._cuts: list[tuple[Any, ...] | None] = []
        self._cuts_unseen: list[int] = []
        self._slot_unseen: list[int] = []
        self._order: list[list[int]] = [[]]
        self._last = 0

    def open(self, slot_bytes: int) -> None:
        viewed = VIEWED_SLOTS if slot_bytes <= MAX_VIEWED_SLOT_BYTES else 0
        size = (viewed + 1) * slot_bytes
        os.ftruncate(self.fd, size)  # sparse: pages exist once the engine writes them
        # Writable, as copies would be: a caller may change the arrays it holds in place.
        self._map = mmap.mmap(self.fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        self._slots = [
            np.frombuffer(self._map, np.uint8, slot_bytes, i * slot_bytes) for i in range(viewed + 1)
        ]
        self.copied = viewed
        # The count of a slot nothing else refers to (this list's reference, getrefcount's own).
        self._unseen = sys.getrefcount(self._slots[0])
        self._cuts = [None] * viewed
        self._cuts_unseen = [0] * viewed
        self._slot_unseen = [self._unseen] * viewed
        # The slots to try, in order, after each one; none when every reply is copied.
        self._order = [[(last + j) % viewed for j in range(1, viewed + 1)] for last in range(viewed)]
        self._order = self._order or [[]]
        self._last = max(viewed - 1, 0)

    def free_slot(self) -> int:
        """A slot that no array handed out views, else the copied slot. The slots after the
        last one named are tried first: a caller who still holds the previous step's arrays
        (the usual loop) gets the next slot at the first try."""
        for i in self._order[self._last]:
            # Each count is at least its unseen value, so equal sums mean every one is.
            cuts = self._cuts[i]
            if sys.getrefcount(self._slots[i]) == self._slot_unseen[i] and (
                cuts is None or sum(map(sys.getrefcount, cuts)) == self._cuts_unseen[i]
            ):
                self._last = i
                return i
        return self.copied

    def cut(self, slot: int, reply: np.ndarray, make: Cutter) -> tuple[Any, ...]:
        """The arrays `make` cuts `reply` (what `reply(slot, ...)` returned) into: made once and
        kept for a viewed slot, made afresh for the copied one. Every array must view `reply`
        (other items, such as dicts of these arrays, are kept with them); the caller hands out
        only these arrays, views of them and copies of the dicts, so that free_slot sees them
        held."""
        if slot == self.copied:
            return make(reply)
        cuts = self._cuts[slot]
        if cuts is None:
            cuts = self._cuts[slot] = make(self._slots[slot])
            # Each cached array's own reference: the tuple's, and getrefcount's argument.
            self._cuts_unseen[slot] = sum(map(sys.getrefcount, cuts))
            self._slot_unseen[slot] = self._unseen + sum(isinstance(c, np.ndarray) for c in cuts)
        return cuts

    def cuts(self, slot: int, length: int, make: Cutter) -> tuple[Any, ...]:
        """`cut(slot, reply(slot, length), make)`: the arrays of the reply the engine has just
        written to `slot`, for the one lookup a batch step needs when the slot is viewed."""
        if slot != self.copied:
            cuts = self._cuts[slot]
            if cuts is not None:
                return cuts
        return self.cut(slot, self.reply(slot, length), make)

    def reply(self, slot: int, length: int) -> np.ndarray:
        """The reply the engine has just written to `slot` (`length` bytes from its start): the
        slot itself, or a fresh copy of it (the whole slot, so that arrays cut at fixed offsets
        fit either way)."""
        if slot == self.copied:
            copy = np.empty_like(self._slots[slot])
            copy[:length] = self._slots[slot][:length]
            return copy
        return self._slots[slot]

    def close(self) -> None:
        self._slots = []
        self._cuts = []
        if self._map is not None:
            try:
                self._map.close()
            except BufferError:
                pass  # arrays handed out still view it: it is unmapped when the last one goes
            self._map = None
