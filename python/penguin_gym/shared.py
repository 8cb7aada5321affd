"""The file a vector's bulk replies come through (observations and masks of every sub-env):
an anonymous memfd (an unlinked temporary file where there is no memfd) that the engine
inherits and writes with one pwritev, and that this side maps.

The file is cut into slots, each as large as the largest reply. Each request names the slot its
reply goes to. The arrays a step returns view their slot directly, with no copy, and a slot is
named again only once nothing views it any more: every array made from a slot, and every view
of such an array, holds a reference to the slot's own array (numpy keeps a view's base), so the
slot's reference count says whether anything still sees it. When every slot is still seen (a
caller keeping the arrays of several steps), the reply goes to one more slot, which is never
handed out, and is copied from there.
"""

from __future__ import annotations

import mmap
import os
import sys
import tempfile

import numpy as np

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

    def free_slot(self) -> int:
        """A slot that no array handed out views, else the copied slot."""
        for i in range(self.copied):
            if sys.getrefcount(self._slots[i]) == self._unseen:
                return i
        return self.copied

    def reply(self, slot: int, length: int) -> np.ndarray:
        """The reply the engine has just written to `slot`: a view of it, or a fresh copy."""
        if slot == self.copied:
            return self._slots[slot][:length].copy()
        return self._slots[slot][:length]

    def close(self) -> None:
        self._slots = []
        if self._map is not None:
            try:
                self._map.close()
            except BufferError:
                pass  # arrays handed out still view it: it is unmapped when the last one goes
            self._map = None
