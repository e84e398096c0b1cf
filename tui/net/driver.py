"""A Textual driver whose terminal is an SSH channel instead of the process's tty.

Textual's Linux driver owns the process: it reads stdin in a thread, installs signal
handlers and writes to stderr. With many players in one process none of that may
happen, so this driver keeps everything on the event loop and per session:

- input arrives as bytes from the channel, is decoded (UTF-8, bad bytes replaced, never
  fatal) and parsed by Textual's own `XTermParser`, which also parses SGR mouse reports;
- a lone Esc is told apart from the start of an escape sequence with the same timeout
  as the Linux driver (`ESCDELAY`), using a loop timer instead of a polling thread;
- the size comes from the PTY request and window-change requests, not from a signal;
- output is gathered during one loop turn and sent as one channel write;
- the parser's per-instance key cache is replaced by a shared one (see `_SessionParser`),
  so a finished session's app can be freed.

`textish` solves the same problem but needs Python 3.12; this project runs on 3.11.
"""

from __future__ import annotations

import asyncio
import codecs
import contextvars
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TextIO

from textual import constants, events
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from tui.net.terminal import RemoteTerminal

if TYPE_CHECKING:
    from textual.app import App


_UNCACHED_EXTENDED_KEY = XTermParser._parse_extended_key.__wrapped__


@lru_cache(maxsize=1024)
def _extended_key(sequence: str) -> list[events.Key] | None:
    # The original method reads nothing from its instance, only class-level helpers.
    # It runs in an empty context so the cached events name no app as their sender.
    return contextvars.Context().run(_UNCACHED_EXTENDED_KEY, XTermParser, sequence)


class _SessionParser(XTermParser):
    """Textual's xterm parser without its per-instance cache.

    `XTermParser._parse_extended_key` is an `lru_cache` on a method, so the cache keys
    hold the parser itself - harmless with one parser per process, but here every
    finished session's parser (whose generator still holds the last key event, whose
    sender is the app) would stay alive, app and all, for the next 1024 cache entries.
    The results depend on the sequence only, so one shared cache serves every session.
    """

    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        return _extended_key(sequence)


# Kitty keyboard protocol: disambiguate escape codes | report all keys | associated text.
_KITTY_FLAGS = 0b00000001 | 0b00001000 | 0b00010000


class SSHDriver(Driver):
    """Display and input for one app through one SSH session's `RemoteTerminal`."""

    def __init__(
        self,
        app: App[Any],
        *,
        terminal: RemoteTerminal,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size or terminal.size)
        self._terminal: RemoteTerminal | None = terminal
        # Never Textual's debug mode here: it makes the parser append to ./keys.log.
        self._parser = _SessionParser(debug=False)
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._output: list[str] = []
        self._flush_handle: asyncio.Handle | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._input_enabled = False
        self._started = False

    # -- output -----------------------------------------------------------------------

    def write(self, data: str) -> None:
        """Queue output; everything written in one loop turn leaves as one packet."""
        if not data or self._terminal is None:
            return
        self._output.append(data)
        if self._flush_handle is None:
            self._flush_handle = self._loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send the queued output now (Textual calls this after each frame)."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if not self._output:
            return
        text = "".join(self._output)
        self._output.clear()
        if self._terminal is not None:
            self._terminal.write(text.encode("utf-8", errors="replace"))

    # -- application mode -------------------------------------------------------------

    def start_application_mode(self) -> None:
        """Take over the remote terminal: alternate screen, mouse, keys, first size."""
        terminal = self._terminal
        if terminal is None:
            return
        self._started = True
        write = self.write
        write("\x1b[?1049h")  # alternate screen
        self._enable_mouse()
        write("\x1b[?25l")  # hide cursor
        write("\x1b[?1004h")  # focus in/out reports
        if not constants.DISABLE_KITTY_KEY:
            write(f"\x1b[>{_KITTY_FLAGS}u")
        write("\x1b[?2026$p")  # does the terminal do synchronized output?
        write("\x1b[?2004h")  # bracketed paste
        write("\x1b[?7l")  # no line wrap
        self.flush()
        self._input_enabled = True
        self._post_size(*terminal.size)
        terminal.attach(self)

    def _enable_mouse(self) -> None:
        if self._mouse:
            # button presses, any motion, urxvt and SGR extended coordinates
            self.write("\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h")

    def _disable_mouse(self) -> None:
        if self._mouse:
            self.write("\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l")

    def disable_input(self) -> None:
        """Stop delivering keys and mouse events to the app."""
        self._input_enabled = False
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        if self._terminal is not None:
            self._terminal.detach()

    def stop_application_mode(self) -> None:
        """Give the remote terminal back as it was: main screen, cursor, no mouse."""
        self.disable_input()
        if not self._started:
            return
        self._started = False
        write = self.write
        self._disable_mouse()
        write("\x1b[?2004l")  # bracketed paste off
        write("\x1b[?7h")  # line wrap back on
        if not constants.DISABLE_KITTY_KEY:
            write("\x1b[<u")  # pop the keyboard protocol before leaving the alt screen
        write("\x1b[?1049l")  # main screen
        write("\x1b[?25h")  # show cursor
        write("\x1b[?1004l")  # focus reports off
        self.flush()

    def close(self) -> None:
        """Last output out, then let go of the terminal so the session can be freed."""
        self.flush()
        self.disable_input()
        self._terminal = None

    # -- input ------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the player: decode, parse into Textual events, deliver."""
        if not self._input_enabled:
            return
        text = self._decode(data)
        if not text:
            return
        try:
            for message in self._parser.feed(text):
                self.process_message(message)
        except ParseError:
            # A parser at EOF only happens after shutdown; input is simply over.
            self._input_enabled = False
            return
        self._schedule_tick()

    def _schedule_tick(self) -> None:
        """Wake up when the parser's escape timeout expires (a lone Esc key)."""
        deadline = getattr(self._parser, "_timeout_time", None)
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        if deadline is None:
            return
        # The parser's clock is time.monotonic, like the loop's; add a little slack so
        # the timer never fires just before the deadline.
        delay = max(0.0, deadline - self._loop.time()) + 0.002
        self._tick_handle = self._loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        if not self._input_enabled:
            return
        for message in self._parser.tick():
            self.process_message(message)
        self._schedule_tick()

    def backlog(self) -> int:
        """Events the app has not handled yet (input waits while there are many)."""
        queue = getattr(self._app, "_message_queue", None)
        return queue.qsize() if queue is not None else 0

    def resize(self, width: int, height: int) -> None:
        """The player's window changed size (SSH window-change request)."""
        self._size = (width, height)
        if self._input_enabled:
            self._post_size(width, height)

    def _post_size(self, width: int, height: int) -> None:
        self._size = (width, height)
        self._app.console.size = (width, height)
        size = Size(width, height)
        self.send_message(events.Resize(size, size))

    def send_message(self, message: Message) -> None:
        """Post straight to the app: we are already on its loop, no thread hop needed."""
        self._app.post_message(message)

    # -- things a remote player must not trigger on the server's machine ---------------

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Do nothing: a browser would open on the server host, not the player's."""

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Refuse: the default saves the file on the server host's disk."""
        binary.close()
        self._app.post_message(
            events.DeliveryFailed(
                key=delivery_key,
                exception=PermissionError("files cannot be delivered over SSH"),
                name=name,
            )
        )
