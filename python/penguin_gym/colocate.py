"""Keeps the engine process on the CPU the Python process is running on.

The two processes never run at the same time: Python sends a request and waits, the engine
answers and waits. So nothing is lost by running them on one CPU, and much is saved: each hand-off
between CPUs costs a cross-CPU wake-up (an inter-processor interrupt, several microseconds of CPU
under a hypervisor) and moves the reply through the caches of both. Measured on a 2-CPU virtual
machine, one environment costs about 20 µs of CPU a step on one CPU and about 80 µs split over
two; a vector of 64 about 200 µs and 350 µs a batch step. The kernel's scheduler keeps the pair
together only some of the time, so the engine is pinned (``sched_setaffinity``) to the CPU Python
is on, and moved along when Python moves. Python itself is never pinned. Linux only; elsewhere,
and where pinning is refused, nothing is done.
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Callable


def _cpu_reader() -> Callable[[], int] | None:
    """libc's sched_getcpu (a fraction of a microsecond; os has no binding for it)."""
    if not sys.platform.startswith("linux") or not hasattr(os, "sched_setaffinity"):
        return None
    try:
        f = ctypes.CDLL(None).sched_getcpu
    except (OSError, AttributeError):
        return None
    f.restype = ctypes.c_int
    f.argtypes = []
    return f if f() >= 0 else None


_current_cpu = _cpu_reader()


class EngineOnPythonCpu:
    """Before each request, `follow()` pins the engine `pid` to the CPU this thread runs on, when
    that CPU changed since the last request (one cheap call otherwise)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.cpu = -1
        self.active = _current_cpu is not None and os.environ.get("PENGUIN_GYM_PIN_ENGINE") != "0"

    def follow(self) -> None:
        if not self.active:
            return
        cpu = _current_cpu()  # type: ignore[misc]
        if cpu == self.cpu:
            return
        try:
            os.sched_setaffinity(self.pid, {cpu})
            self.cpu = cpu
        except OSError:
            # Refused (a cpuset that differs, a seccomp policy) or the engine is gone: the
            # request that follows reports a dead engine; otherwise simply leave placement
            # to the kernel.
            self.active = False
