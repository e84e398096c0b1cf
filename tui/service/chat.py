"""The chat of one shared table: short lines from the people there, and what happened
(who sat down, who left), with a bounded history.

Chat text comes from strangers and is drawn on everyone's terminal, so it is cleaned
here, once, for every front end: no control characters (an escape sequence in a
message must never reach another player's terminal), whitespace collapsed, length
capped.  A sender who floods is slowed down instead of filling everybody's screen.
"""

from __future__ import annotations

import itertools
import logging
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tui.listeners import Listeners

log = logging.getLogger(__name__)

MAX_LENGTH = 200
HISTORY = 100
BURST = 5  # messages a sender may send in a row...
BURST_SECONDS = 5.0  # ...within this many seconds


class ChatError(ValueError):
    """A message that was not sent; the text says why, for the sender."""


@dataclass(frozen=True)
class ChatMessage:
    number: int
    sender: str  # "" for the table's own announcements
    text: str

    @property
    def is_announcement(self) -> bool:
        return not self.sender


def clean_text(text: str, limit: int = MAX_LENGTH) -> str:
    """`text` made safe to show on any terminal: printable characters only, runs of
    whitespace (tabs, newlines) as one space, at most `limit` characters."""
    out: list[str] = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch.isspace() or category in ("Zs", "Zl", "Zp"):
            if out and out[-1] != " ":
                out.append(" ")
        elif category[0] != "C":
            out.append(ch)
    return "".join(out).strip()[:limit].rstrip()


class ChatRoom:
    """Messages of one table; subscribers are called with each new message."""

    def __init__(self, history: int = HISTORY, max_length: int = MAX_LENGTH,
                 burst: int = BURST, burst_seconds: float = BURST_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_length = max_length
        self._messages: deque[ChatMessage] = deque(maxlen=max(1, history))
        self._numbers = itertools.count(1)
        self._burst = burst
        self._burst_seconds = burst_seconds
        self._clock = clock
        self._sent: dict[str, deque[float]] = {}
        self._listeners: Listeners[[ChatMessage]] = Listeners("a chat listener")

    @property
    def messages(self) -> tuple[ChatMessage, ...]:
        """The history, oldest first (at most `history` messages)."""
        return tuple(self._messages)

    def say(self, sender: str, text: str) -> ChatMessage:
        """Post `sender`'s line; raises `ChatError` if it is empty or they send too fast."""
        cleaned = clean_text(text, self.max_length)
        if not cleaned:
            raise ChatError("Type something to say first.")
        now = self._clock()
        times = self._sent.setdefault(sender, deque(maxlen=self._burst))
        if len(times) == self._burst and now - times[0] < self._burst_seconds:
            raise ChatError("You are typing faster than the table can read: wait a moment.")
        times.append(now)
        return self._post(ChatMessage(next(self._numbers), clean_text(sender, 40), cleaned))

    def announce(self, text: str) -> ChatMessage:
        """A line from the table itself (someone sat down, left, came back)."""
        return self._post(ChatMessage(next(self._numbers), "", clean_text(text, 400)))

    def subscribe(self, callback: Callable[[ChatMessage], None]) -> Callable[[], None]:
        return self._listeners.subscribe(callback)

    def restore(self, messages: Iterable[ChatMessage]) -> None:
        """Put back what was said before the server restarted (nobody is told: it was
        said already); new lines are numbered after the last of them."""
        self._messages.extend(messages)
        last = self._messages[-1].number if self._messages else 0
        self._numbers = itertools.count(last + 1)

    def _post(self, message: ChatMessage) -> ChatMessage:
        self._messages.append(message)
        self._listeners.notify(message)
        return message
