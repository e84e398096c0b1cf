"""Who may try to log in, counted by address: the door of the SSH server, kept in one
place for every process that serves it.

Modelled on OpenSSH's `PerSourcePenalties`: a password guesser is slowed by counting
its *attempts*, not by delaying the answers to its wrong guesses (a guesser that gives
up on a slow answer and opens a new connection would never see the delay).

- Every connection is an attempt in progress from its address until it logs in or ends.
  At most `pending_per_address` of them per address and `pending_total` in all: past a
  cap the *oldest* is closed, so a pile of idle sockets never turns a real login away.
  A family behind one router is one address: its cap is counted here for every session
  worker together, never divided among them.
- An attempt that fails (a wrong password) or is abandoned (it ends without logging in,
  on a server that asks for something) penalises its address: 1 s, then twice as long
  with each failure, up to `max_penalty`; the failures are forgotten after `memory` of
  quiet.  While penalised, the address's new connections are refused before they may
  try anything, and a right password waits its turn like a wrong one; once the penalty
  is over, an address with failures on record may have one attempt in progress at once.
  Other addresses are not touched.  Each penalty is logged once, with address and time.

Pure bookkeeping with an injectable clock: the SSH front asks, the keeper answers.  The
game service keeps one for all its workers (`tui.service.authority`); a server serving
SSH alone keeps its own (`tui.net.door`).
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

log = logging.getLogger(__name__)

MAX_ADDRESSES = 4096
"""Addresses whose failures are remembered at once (the longest quiet are forgotten)."""
OUTCOMES = ("in", "abandoned", "closed")
"""How an attempt ends: logged in; ended without logging in (a failure); closed by the
server for a reason of its own (shutting down, an open server) - not counted."""


@dataclass(frozen=True)
class DoorRules:
    """The door's numbers (see the module docstring); tests make them small."""

    pending_per_address: int = 8
    pending_total: int = 128
    first_penalty: float = 1.0
    max_penalty: float = 300.0
    memory: float = 15 * 60.0


@dataclass
class _Attempt:
    address: str
    failed: bool = False


@dataclass
class _Record:
    failures: int
    last: float
    until: float


class DoorKeeper:
    """Attempts in progress and penalties, by address."""

    def __init__(self, rules: DoorRules | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules or DoorRules()
        self.clock = clock
        self._attempts: OrderedDict[Hashable, _Attempt] = OrderedDict()  # oldest first
        self._records: OrderedDict[str, _Record] = OrderedDict()  # longest quiet first

    # ------------------------------------------------------------------ reading
    @property
    def pending(self) -> int:
        """Attempts in progress (connections that have not logged in yet)."""
        return len(self._attempts)

    def failures(self, address: str) -> int:
        record = self._record(address)
        return record.failures if record is not None else 0

    def penalty_left(self, address: str) -> float:
        """Seconds until `address` may try again (0 if it may now)."""
        record = self._record(address)
        return max(0.0, record.until - self.clock()) if record is not None else 0.0

    def _record(self, address: str) -> _Record | None:
        record = self._records.get(address)
        if record is not None and self.clock() - record.last > self.rules.memory:
            del self._records[address]
            return None
        return record

    # ------------------------------------------------------------------ the door
    def arrive(self, attempt: Hashable, address: str) -> tuple[str, list[Hashable]]:
        """A connection from `address` opened: ("", the attempts to close now to keep
        within the caps, oldest first) if it may try to log in, or (why not, [])."""
        left = math.ceil(self.penalty_left(address))
        if left > 0:
            return (f"too many failed logins from your address; try again in {left} "
                    f"second{'s' if left != 1 else ''}.", [])
        same = [key for key, a in self._attempts.items() if a.address == address]
        if same and self.failures(address):
            return ("after failed logins your address may try one login at a time; "
                    "try again in a moment.", [])
        self._attempts[attempt] = _Attempt(address)
        same.append(attempt)
        closed: list[Hashable] = []
        while len(same) > self.rules.pending_per_address:
            closed.append(same.pop(0))
        for key in closed:
            del self._attempts[key]
        while len(self._attempts) > self.rules.pending_total:
            key, _ = self._attempts.popitem(last=False)
            closed.append(key)
        if closed:
            log.warning("door: %s logins in progress from %s (%s in all): closed the "
                        "oldest %s", len(same), address, len(self._attempts), len(closed))
        return "", closed

    def failed(self, attempt: Hashable, address: str, user: str, method: str) -> float:
        """A login by `method` from `address` as `user` failed: the address is
        penalised; the seconds of the penalty (the wait before answering)."""
        current = self._attempts.get(attempt)
        if current is not None:
            current.failed = True
        return self._penalise(address, f"failed {method} login as {user!r}")

    def settled(self, attempt: Hashable, outcome: str) -> None:
        """The attempt ended (`OUTCOMES`); an abandoned one is a failure."""
        current = self._attempts.pop(attempt, None)
        if current is not None and outcome == "abandoned" and not current.failed:
            self._penalise(current.address, "a login abandoned")

    def drop(self, which: Callable[[Hashable], bool]) -> None:
        """Forget the attempts in progress `which` picks (a worker that went away took
        its connections with it), without counting them."""
        for key in [key for key in self._attempts if which(key)]:
            del self._attempts[key]

    def _penalise(self, address: str, what: str) -> float:
        now = self.clock()
        failures = self.failures(address) + 1
        rules = self.rules
        penalty = min(rules.max_penalty, rules.first_penalty * 2.0 ** (failures - 1))
        self._records.pop(address, None)
        self._records[address] = _Record(failures, now, now + penalty)
        while len(self._records) > MAX_ADDRESSES:
            self._records.popitem(last=False)
        log.warning("door: %s penalised for %gs: %s (%s failure%s from this address)",
                    address, penalty, what, failures, "s" if failures != 1 else "")
        return penalty
