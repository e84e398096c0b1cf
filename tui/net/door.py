"""The door of the SSH server: who may keep a connection open before logging in, and how
password guessing is slowed (the rules are `tui.service.door_keeper`'s).

- A connection still logging in holds no session: it does not count against
  `--max-sessions` and has `login_grace` seconds to log in.
- Every connection asks the door first (`Doorway.arrive`): a penalised address is
  refused before it may try anything; past a cap of connections in progress the oldest
  is closed (the door calls back with its number).
- A failed login is logged with its penalty (`Doorway.failed`, the seconds the answer
  waits); a connection is closed after `failures_per_connection` failures.

A server serving SSH alone keeps its own door (`Door`); under `rummy serve` every
session worker asks the game service's, which counts every worker's connections
together (`tui.net.remote.ServiceDoor`), so the kernel spreading one address's
connections over the workers changes nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast

from tui.service.door_keeper import DoorKeeper, DoorRules

_rules = DoorRules()
T = TypeVar("T")


@dataclass(frozen=True)
class DoorLimits:
    """The door's limits (see the module docstring); tests make them small."""

    login_grace: float = 15.0
    pending_per_address: int = _rules.pending_per_address
    pending_total: int = _rules.pending_total
    failures_per_connection: int = 3
    first_penalty: float = _rules.first_penalty
    max_penalty: float = _rules.max_penalty
    failure_memory: float = _rules.memory

    def rules(self) -> DoorRules:
        return DoorRules(self.pending_per_address, self.pending_total, self.first_penalty,
                         self.max_penalty, self.failure_memory)


class Doorway(Protocol):
    """Where a server's connections ask to try a login (numbered by the server)."""

    def arrive(self, conn: int, address: str) -> Awaitable[str]:
        """Connection `conn` from `address` opened: "" if it may try to log in, else
        why not (said to the client).  Asked at once (the question is sent before this
        returns), answered when the awaitable is."""
        ...

    def settled(self, conn: int, outcome: str) -> None:
        """The connection logged in or ended (`tui.service.door_keeper.OUTCOMES`)."""
        ...

    def failed(self, conn: int, address: str, user: str, method: str) -> Awaitable[float]:
        """A login on `conn` failed: the seconds to wait before answering it."""
        ...


class Door:
    """A server's own door (a `Doorway`): the keeper in this process."""

    def __init__(self, limits: DoorLimits | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or DoorLimits()
        self.keeper = DoorKeeper(self.limits.rules(), clock)
        self.close_connection: Callable[[int], None] = lambda conn: None
        """How the door closes the oldest connections past a cap (set by the server)."""

    @property
    def pending(self) -> int:
        """Connections that have not logged in yet."""
        return self.keeper.pending

    def arrive(self, conn: int, address: str) -> Awaitable[str]:
        why, crowded = self.keeper.arrive(conn, address)
        for oldest in crowded:
            self.close_connection(cast(int, oldest))
        return _answered(why)

    def settled(self, conn: int, outcome: str) -> None:
        self.keeper.settled(conn, outcome)

    def failed(self, conn: int, address: str, user: str, method: str) -> Awaitable[float]:
        return _answered(self.keeper.failed(conn, address, user, method))


def _answered(value: T) -> Awaitable[T]:
    future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    future.set_result(value)
    return future
