"""A table whose turns are timed: how long the person to move has left.

Shared tables (`rummy serve`) give each turn `--turn-timeout` seconds, after which the
seat's bot plays that turn; the table screen shows the countdown of any table service
that also plays this protocol.  Local tables have no clock.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class TurnClock(Protocol):
    def turn_seconds_left(self) -> float | None:
        """Seconds the person to move has left, or None when no clock runs."""
        ...
