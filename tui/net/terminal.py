"""The terminal at the far end of one SSH session, as the Textual driver sees it.

The SSH session object (asyncssh callbacks) and the Textual driver (created by the app
while it starts) live and die at different moments; this small object is the meeting
point: it owns the channel, remembers the size, keeps the keys typed before the app was
ready, and refuses to write once the player has gone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

# Keys typed while the app is still starting are kept up to this many bytes; more is a
# paste into a terminal nobody reads yet, and is dropped.
MAX_PENDING_INPUT = 64 * 1024


class OutputChannel(Protocol):
    """The part of an asyncssh server channel the terminal writes to."""

    def write(self, data: bytes) -> None: ...

    def get_write_buffer_size(self) -> int: ...


class InputSink(Protocol):
    """What receives the player's bytes and window sizes (the driver)."""

    def feed(self, data: bytes) -> None: ...

    def resize(self, width: int, height: int) -> None: ...


class RemoteTerminal:
    """One SSH session's terminal: output sink, input source and size."""

    def __init__(
        self,
        channel: OutputChannel,
        size: tuple[int, int],
        *,
        max_backlog: int = 8 * 1024 * 1024,
        on_overflow: Callable[[], None] | None = None,
    ) -> None:
        self._channel: OutputChannel | None = channel
        self.size = size
        self.max_backlog = max_backlog
        self._on_overflow = on_overflow
        self._sink: InputSink | None = None
        self._pending: list[bytes] = []
        self._pending_size = 0
        self.bytes_written = 0

    @property
    def closed(self) -> bool:
        """True once the session is gone: writes are dropped from then on."""
        return self._channel is None

    def write(self, data: bytes) -> None:
        """Send output to the player; silently dropped after the session ended.

        A client that stops reading (or a link far slower than the table) makes asyncssh
        buffer without bound; past `max_backlog` bytes the session is closed instead, so
        one stuck player cannot eat the server's memory.
        """
        channel = self._channel
        if channel is None or not data:
            return
        try:
            channel.write(data)
        except (BrokenPipeError, ConnectionError, OSError) as error:
            log.debug("write to a closed SSH channel: %s", error)
            self.close()
            return
        self.bytes_written += len(data)
        if channel.get_write_buffer_size() > self.max_backlog:
            log.warning("SSH client is not reading its output; closing the session")
            overflow, self._on_overflow = self._on_overflow, None
            if overflow is not None:
                overflow()

    def attach(self, sink: InputSink) -> None:
        """Start delivering input to `sink`, first the keys typed while it was starting."""
        self._sink = sink
        pending, self._pending, self._pending_size = self._pending, [], 0
        for chunk in pending:
            sink.feed(chunk)

    def detach(self) -> None:
        """Stop delivering input (the app is shutting down)."""
        self._sink = None

    def data_received(self, data: bytes) -> None:
        """Bytes typed by the player."""
        if self._sink is not None:
            self._sink.feed(data)
        elif self._channel is not None and self._pending_size + len(data) <= MAX_PENDING_INPUT:
            self._pending.append(data)
            self._pending_size += len(data)

    def resized(self, width: int, height: int) -> None:
        """The player's window changed size."""
        self.size = (max(width, 1), max(height, 1))
        if self._sink is not None:
            self._sink.resize(*self.size)

    def close(self) -> None:
        """Forget the channel and the driver: nothing is written or delivered any more."""
        self._channel = None
        self._sink = None
        self._pending.clear()
        self._on_overflow = None
