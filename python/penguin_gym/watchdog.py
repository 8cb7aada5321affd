"""Stops an engine that does not answer in time, so that a reply can be waited for in a plain
blocking read.

A read that first waits in ``poll()`` with a timeout costs one more system call per round trip,
and poll sets up and tears down a wait queue entry each time: about 3 µs of CPU per batch step
of a vector of 64, where the whole step costs about 150 µs. So the bridge reads with a blocking
``readv`` instead, after setting its ``deadline``; one daemon thread, shared by every bridge,
wakes a few times per shortest timeout and kills the engine of any bridge whose deadline has
passed. The killed engine's end of the pipe closes, the blocked read returns, and the bridge
raises its timeout error. The thread ends when no bridge is left, and costs nothing per step.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from typing import Protocol


class Watched(Protocol):
    # The monotonic time by which the current reply is due; 0 while not waiting for one.
    deadline: float
    timeout: float

    def expire(self) -> None:
        """Called from the watchdog's thread once `deadline` has passed: stops the engine."""


# The watchdog checks at least this often, and at most this often (seconds).
_LONGEST_NAP = 1.0
_SHORTEST_NAP = 0.01


class Watchdog:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watched: weakref.WeakSet[Watched] = weakref.WeakSet()
        self._thread: threading.Thread | None = None

    def watch(self, item: Watched) -> None:
        with self._lock:
            self._watched.add(item)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="penguin-gym watchdog", daemon=True)
                self._thread.start()

    def forget(self, item: Watched) -> None:
        with self._lock:
            self._watched.discard(item)

    def _nap(self) -> float | None:
        """How long to sleep before the next check, or None (and the thread ends) when nothing is
        watched. A check comes at most a quarter of the shortest timeout after a deadline."""
        with self._lock:
            timeouts = [item.timeout for item in self._watched]
            if not timeouts:
                self._thread = None
                return None
        return min(max(min(timeouts) / 4, _SHORTEST_NAP), _LONGEST_NAP)

    def _run(self) -> None:
        while (nap := self._nap()) is not None:
            time.sleep(nap)
            now = time.monotonic()
            with self._lock:
                late = [item for item in self._watched if 0 < item.deadline < now]
            for item in late:
                item.expire()

    def _forked(self) -> None:
        # A forked child has no watchdog thread, and must not stop the parent's engines: it
        # watches only the bridges made after the fork, from a thread of its own.
        self._lock = threading.Lock()
        self._watched = weakref.WeakSet()
        self._thread = None


WATCHDOG = Watchdog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WATCHDOG._forked)
