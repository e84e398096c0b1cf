"""Who wants to be told: the one subscribe/notify helper every table, lobby and chat uses.

A front end subscribes and keeps the function that unsubscribes it; the owner calls
`notify` after each change.  One listener that raises is logged and skipped, so a broken
screen never silences the table for the others.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Generic, ParamSpec

P = ParamSpec("P")

log = logging.getLogger(__name__)


class Listeners(Generic[P]):
    """Callbacks taking `P`, called in the order they subscribed."""

    def __init__(self, what: str = "a listener") -> None:
        self._what = what
        self._tokens = itertools.count()
        self._callbacks: dict[int, Callable[P, None]] = {}

    def subscribe(self, callback: Callable[P, None]) -> Callable[[], None]:
        """Add `callback`; the function returned removes it (calling it twice is harmless,
        and the same callback subscribed twice is two subscriptions)."""
        token = next(self._tokens)
        self._callbacks[token] = callback

        def unsubscribe() -> None:
            self._callbacks.pop(token, None)

        return unsubscribe

    def notify(self, *args: P.args, **kwargs: P.kwargs) -> None:
        for callback in list(self._callbacks.values()):
            try:
                callback(*args, **kwargs)
            except Exception:
                log.exception("%s failed", self._what)

    def clear(self) -> None:
        """Forget every callback (the owner is closing)."""
        self._callbacks.clear()

    def __len__(self) -> int:
        return len(self._callbacks)
