"""The door of the SSH server: who may keep a connection open before logging in, and how
hard guessing a password is.

- A connection still logging in holds no session: it does not count against
  `--max-sessions` and has `login_grace` seconds to log in.
- Connections in progress are capped, per address and overall; past a cap the *oldest*
  one in progress is closed, so a pile of idle sockets never turns a real login away
  (it only pushes out the pile's own oldest member).
- A failed login is logged (address and user) and answered only after a delay that
  doubles with each failure from that address (forgotten after `failure_memory`); a
  connection is closed after `failures_per_connection` failures.

Pure bookkeeping with an injectable clock: the server asks, the door answers.

Each session worker of `rummy serve` keeps its own door (the kernel hands it a share of
the connections), so a worker's caps are the server's divided by the number of workers
(`DoorLimits.shared_by`): the totals per address and in all hold however many workers
there are (at least one connection in progress per worker and address).  Failed logins
are counted by the game service for all workers at once (`tui.service.login_failures`);
a worker falls back on its own count only if the service does not answer.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from tui.service import login_failures
from tui.service.login_failures import LoginFailures

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class DoorLimits:
    """The door's limits (see the module docstring); tests make them small."""

    login_grace: float = 15.0
    pending_per_address: int = 8
    pending_total: int = 128
    failures_per_connection: int = 3
    first_delay: float = login_failures.FIRST_DELAY
    max_delay: float = login_failures.MAX_DELAY
    failure_memory: float = login_failures.MEMORY

    def shared_by(self, workers: int) -> DoorLimits:
        """The limits of one of `workers` doors that together keep these caps."""
        return replace(self, pending_per_address=max(1, self.pending_per_address // workers),
                       pending_total=max(1, self.pending_total // workers))


class Door:
    """Connections in progress and failed logins, by address."""

    def __init__(self, limits: DoorLimits | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or DoorLimits()
        self._pending: OrderedDict[Hashable, str] = OrderedDict()  # oldest first
        self._failures = LoginFailures(self.limits.first_delay, self.limits.max_delay,
                                       self.limits.failure_memory, clock)

    @property
    def pending(self) -> int:
        """Connections that have not logged in yet."""
        return len(self._pending)

    def arrived(self, connection: Hashable, address: str) -> list[Hashable]:
        """A connection from `address` opened: the connections (oldest first, possibly
        this one) that must now be closed to keep within the caps."""
        self._pending[connection] = address
        evicted: list[Hashable] = []
        same = [c for c, a in self._pending.items() if a == address]
        while len(same) > self.limits.pending_per_address:
            evicted.append(same.pop(0))
        for gone in evicted:
            del self._pending[gone]
        while len(self._pending) > self.limits.pending_total:
            gone, _ = self._pending.popitem(last=False)
            evicted.append(gone)
        if evicted:
            log.warning("door: %s connections in progress from %s (or %s in all): "
                        "closed the oldest %s", len(same), address, len(self._pending),
                        len(evicted))
        return evicted

    def settled(self, connection: Hashable) -> None:
        """The connection logged in, or closed: it no longer waits at the door."""
        self._pending.pop(connection, None)

    def failure_count(self, address: str) -> int:
        return self._failures.count(address)

    def failed(self, address: str, user: str, method: str) -> float:
        """A login from `address` as `user` failed: log it; the seconds to wait before
        answering (doubling with each recent failure from that address)."""
        return self._failures.failed(address, user, method)
