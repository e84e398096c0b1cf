"""The terminal at the far end of one SSH session, as the Textual driver sees it.

The SSH session object (asyncssh callbacks) and the Textual driver (created by the app
while it starts) live and die at different moments; this small object is the meeting
point: it owns the channel, remembers the size, keeps the keys typed before the app was
ready, and refuses to write once the player has gone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

from tui.app.terminal_caps import to_ascii

log = logging.getLogger(__name__)

# Input is handed to the app this many bytes per event-loop turn, and waits while the
# app has more than APP_QUEUE_HIGH events queued (the client meanwhile is held back by
# SSH flow control). Textual handles its whole queue without yielding to other tasks,
# so with bigger numbers one player pasting or flooding keys stalls every other
# player's session for seconds (measured: 16 KiB of keys, another player's keypress
# waited 2.6 s with 1 KiB / 200; 0.06 s with these).
INPUT_CHUNK = 32
APP_QUEUE_HIGH = 16
APP_QUEUE_POLL = 0.005
# And no session gets more than INPUT_RATE bytes a second (after a burst of INPUT_BURST):
# typing, mouse motion and a pasted chat line fit; a flood waits at the client, so the
# worker's other players do not pay for one player's thousands of keys.
INPUT_RATE = 8 * 1024
INPUT_BURST = 2 * 1024
# A burst of window changes reaches the app once, this long after its first, at the size
# by then (a window dragged to a new size sends hundreds; each would re-lay out the whole
# screen): a long drag is drawn at most this often, and always ends at the last size.
RESIZE_DELAY = 0.05


class OutputChannel(Protocol):
    """The part of an asyncssh server channel the terminal uses."""

    def write(self, data: bytes) -> None: ...

    def get_write_buffer_size(self) -> int: ...

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


class InputSink(Protocol):
    """What receives the player's bytes and window sizes (the driver)."""

    def feed(self, data: bytes) -> None: ...

    def resize(self, width: int, height: int) -> None: ...

    def backlog(self) -> int: ...


class RemoteTerminal:
    """One SSH session's terminal: output sink, input source and size."""

    def __init__(
        self,
        channel: OutputChannel,
        size: tuple[int, int],
        *,
        max_backlog: int = 8 * 1024 * 1024,
        on_overflow: Callable[[], None] | None = None,
        input_rate: float | None = INPUT_RATE,
        input_burst: int = INPUT_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._channel: OutputChannel | None = channel
        self.size = size
        self.max_backlog = max_backlog
        self._on_overflow = on_overflow
        self._sink: InputSink | None = None
        self._inbox = bytearray()
        self._pump_handle: asyncio.Handle | None = None
        self._paused = False
        self.bytes_written = 0
        self._rate = input_rate
        self._burst = max(1, input_burst)
        self._tokens = float(self._burst)
        self._clock = clock
        self._stamp = clock()
        self._resize_handle: asyncio.TimerHandle | None = None
        self.plain: Callable[[], bool] = _never
        """Asked before each write: True sends only ASCII (`to_ascii`), for a terminal
        that shows nothing else."""

    @property
    def closed(self) -> bool:
        """True once the session is gone: writes are dropped from then on."""
        return self._channel is None

    @property
    def reading_paused(self) -> bool:
        """True while input waits for the app (the client is held back by SSH)."""
        return self._paused

    def write(self, data: bytes) -> None:
        """Send output to the player; silently dropped after the session ended.

        A client that stops reading (or a link far slower than the table) makes asyncssh
        buffer without bound; past `max_backlog` bytes the session is closed instead, so
        one stuck player cannot eat the server's memory.
        """
        channel = self._channel
        if channel is None or not data:
            return
        if not data.isascii() and self.plain():
            data = to_ascii(data.decode("utf-8", errors="replace")).encode("ascii")
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

    # -- input ------------------------------------------------------------------------

    def attach(self, sink: InputSink) -> None:
        """Start delivering input to `sink`, first the keys typed while it was starting."""
        self._sink = sink
        self._pump()

    def detach(self) -> None:
        """Stop delivering input (the app is shutting down)."""
        self._sink = None
        self._cancel_pump()

    def data_received(self, data: bytes) -> None:
        """Bytes typed by the player: delivered now if the app keeps up, else queued
        (with the client paused) and delivered a chunk per loop turn."""
        if self._channel is None:
            return
        self._inbox += data
        if self._pump_handle is None:
            self._pump()

    def _pump(self) -> None:
        self._pump_handle = None
        sink = self._sink
        if sink is not None and self._inbox:
            if sink.backlog() > APP_QUEUE_HIGH:
                self._set_paused(True)
                self._pump_handle = asyncio.get_running_loop().call_later(
                    APP_QUEUE_POLL, self._pump
                )
                return
            size = self._allowance()
            if size == 0:  # over the session's rate: wait for the budget to refill
                self._set_paused(True)
                assert self._rate is not None
                self._pump_handle = asyncio.get_running_loop().call_later(
                    max(APP_QUEUE_POLL, min(INPUT_CHUNK, self._burst) / self._rate), self._pump
                )
                return
            chunk = bytes(self._inbox[:size])
            del self._inbox[:size]
            if self._rate is not None:
                self._tokens -= len(chunk)
            sink.feed(chunk)
        if not self._inbox:
            self._set_paused(False)
        elif self._sink is not None:
            self._set_paused(True)
            self._pump_handle = asyncio.get_running_loop().call_soon(self._pump)
        else:  # the app is not there yet: hold the client until it is
            self._set_paused(True)

    def _allowance(self) -> int:
        """How many bytes may go to the app now (at most a chunk; 0: over the rate)."""
        if self._rate is None:
            return INPUT_CHUNK
        now = self._clock()
        self._tokens = min(float(self._burst), self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        return min(INPUT_CHUNK, int(self._tokens))

    def _set_paused(self, paused: bool) -> None:
        if paused == self._paused or self._channel is None:
            return
        self._paused = paused
        try:
            if paused:
                self._channel.pause_reading()
            else:
                self._channel.resume_reading()
        except (BrokenPipeError, ConnectionError, OSError):
            pass

    def _cancel_pump(self) -> None:
        if self._pump_handle is not None:
            self._pump_handle.cancel()
            self._pump_handle = None

    def resized(self, width: int, height: int) -> None:
        """The player's window changed size: the app hears of it `RESIZE_DELAY` after the
        first change it has not yet heard of, at the size by then."""
        self.size = (max(width, 1), max(height, 1))
        if self._sink is not None and self._resize_handle is None:
            self._resize_handle = asyncio.get_running_loop().call_later(
                RESIZE_DELAY, self._deliver_size)

    def _deliver_size(self) -> None:
        self._resize_handle = None
        if self._sink is not None:
            self._sink.resize(*self.size)

    def close(self) -> None:
        """Forget the channel and the driver: nothing is written or delivered any more."""
        self._cancel_pump()
        if self._resize_handle is not None:
            self._resize_handle.cancel()
            self._resize_handle = None
        self._channel = None
        self._sink = None
        self._inbox.clear()
        self._on_overflow = None
        self.plain = _never  # (it names the app)


def _never() -> bool:
    return False
