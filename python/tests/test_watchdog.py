"""The watchdog: it stops what is overdue, leaves alone what is not, and its thread ends once
nothing is watched."""

from __future__ import annotations

import time

from penguin_gym.watchdog import Watchdog


class Waiting:
    def __init__(self, timeout: float, deadline: float) -> None:
        self.timeout = timeout
        self.deadline = deadline
        self.expired_at = 0.0

    def expire(self) -> None:
        self.expired_at = time.monotonic()


def _until(condition, seconds: float = 5.0) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.005)
    return condition()


def test_overdue_expires_and_the_rest_do_not():
    dog = Watchdog()
    now = time.monotonic()
    late = Waiting(0.2, now + 0.2)
    idle = Waiting(0.2, 0.0)  # not waiting for a reply
    early = Waiting(0.2, now + 60)
    for item in (late, idle, early):
        dog.watch(item)
    assert _until(lambda: late.expired_at > 0)
    # After the deadline, and soon after it (the thread checks every quarter of the timeout).
    assert now + 0.2 <= late.expired_at < now + 0.2 + 1.0
    time.sleep(0.2)
    assert idle.expired_at == 0 and early.expired_at == 0
    for item in (late, idle, early):
        dog.forget(item)
    assert _until(lambda: dog._thread is None)


def test_a_dropped_item_is_no_longer_watched():
    dog = Watchdog()
    dog.watch(Waiting(0.05, 0.0))  # garbage at once: the set holds it weakly
    assert _until(lambda: dog._thread is None)
