"""Failed logins by address, and how long to wait before answering the next one.

Kept by the game service for every session worker at once (a worker reports each failed
login with a `failed` message and waits the delay it is told), so guesses spread over
the workers by the kernel still double one address's wait.  A process serving SSH by
itself keeps its own (`tui.net.door.Door`).  Pure bookkeeping with an injectable clock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

FIRST_DELAY = 1.0
MAX_DELAY = 16.0
MEMORY = 15 * 60.0
MAX_ADDRESSES = 4096
"""Addresses whose failed logins are remembered at once (the quietest are forgotten)."""


class LoginFailures:
    """Recent failed logins per address: a delay that doubles with each, up to a cap."""

    def __init__(self, first_delay: float = FIRST_DELAY, max_delay: float = MAX_DELAY,
                 memory: float = MEMORY, clock: Callable[[], float] = time.monotonic) -> None:
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.memory = memory
        self._clock = clock
        self._failures: dict[str, tuple[int, float]] = {}  # address -> (count, last at)

    def count(self, address: str) -> int:
        """Failures from `address` not yet forgotten."""
        count, last = self._failures.get(address, (0, 0.0))
        if count and self._clock() - last > self.memory:
            del self._failures[address]
            return 0
        return count

    def failed(self, address: str, user: str, method: str) -> float:
        """A login from `address` as `user` failed: log it; the seconds to wait before
        answering (doubling with each recent failure from that address)."""
        count = self.count(address) + 1
        self._failures.pop(address, None)
        self._failures[address] = (count, self._clock())  # newest last
        while len(self._failures) > MAX_ADDRESSES:  # forget the longest-quiet address
            del self._failures[next(iter(self._failures))]
        delay = min(self.max_delay, self.first_delay * 2.0 ** (count - 1))
        log.warning("door: failed %s login from %s as %r (%s from this address; "
                    "answering in %gs)", method, address, user, count, delay)
        return delay
