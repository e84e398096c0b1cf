"""One player's SSH session: who they are, and the life of the app that serves them.

A session's app runs in its own asyncio task with a fresh `contextvars.Context`, so
Textual's "active app" never leaks from one player to another, and all apps share the
server's event loop (and so any in-memory service the app factory hands them).
Whatever happens inside one app - an exception, a hang, the player vanishing - ends
that session only.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from textual.app import App

from tui.app.terminal_caps import TerminalCaps, terminal_caps
from tui.app.textual_caches import release_closed_widgets
from tui.net.isolation import acquire_streams, prepare_app, release_streams
from tui.net.terminal import RemoteTerminal
from tui.service.names import clean_name

log = logging.getLogger(__name__)

# How long an app gets to finish after it was asked to exit before its task is cancelled.
EXIT_GRACE_SECONDS = 3.0

CRASH_MESSAGE = (
    "Sorry: your session hit a bug in rummy-tui and had to close (the server's log says "
    "what went wrong). Your seat is kept for a while: connect again to take it back."
)

_current: contextvars.ContextVar[SessionInfo] = contextvars.ContextVar("rummy_ssh_session")


def crash_reason(error: BaseException | None) -> str:
    """`ValueError: bad thing (at table.py:123 in act)`: the error and where it was raised."""
    if error is None:
        return "unknown error"
    where = ""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        code = tb.tb_frame.f_code
        where = f" (at {Path(code.co_filename).name}:{tb.tb_lineno} in {code.co_name})"
    text = " ".join(str(error).split())[:200]
    return f"{type(error).__name__}: {text}{where}" if text else f"{type(error).__name__}{where}"


def current_session() -> SessionInfo | None:
    """The SSH session of the app whose code is running, or None outside SSH apps.

    Works in any handler, worker or timer of an app served over SSH, because each
    session's app runs in its own context.
    """
    return _current.get(None)


class _Closer(Protocol):
    def close(self, message: str | None = None) -> None: ...


@dataclass(eq=False)
class SessionInfo:
    """What an app factory (and the lobby) knows about one connected player."""

    id: int
    """Unique within the server's lifetime."""
    username: str
    """The SSH user name, as typed by the player (see `player_name`)."""
    term_type: str
    """The client's TERM, from the PTY request."""
    size: tuple[int, int]
    """The terminal's (columns, rows); kept up to date on window changes."""
    color_system: str
    """"standard", "256" or "truecolor" (see `tui.net.colors`)."""
    peer: str = ""
    """The client's address, "host:port"."""
    env: Mapping[str, str] = field(default_factory=dict)
    """Environment variables the client sent (LANG, COLORTERM, ...)."""
    key: str = ""
    """SHA256 fingerprint of the public key the player logged in with; "" for none."""
    given_name: str | None = None
    """The name `--authorized-keys` gives that key (it wins over the SSH user name)."""
    connected_at: float = field(default_factory=time.time)
    _session: _Closer | None = field(default=None, repr=False)
    _app: App[Any] | None = field(default=None, repr=False)
    _last_input: float = field(default_factory=time.monotonic, repr=False)

    @property
    def terminal(self) -> TerminalCaps:
        """What the player's terminal can show (from TERM and the locale it sent)."""
        return terminal_caps(self.term_type, self.env)

    @property
    def player_name(self) -> str:
        """The name to play under (the one the keys file gives, or else the SSH user
        name), made safe to show on other players' screens: printable characters only,
        at most 24 of them, "player" if nothing is left."""
        return clean_name(self.given_name or self.username)

    @property
    def app(self) -> App[Any] | None:
        """The app serving this session while it runs; None before and after."""
        return self._app

    @property
    def idle_seconds(self) -> float:
        """Seconds since the player last typed, clicked or resized."""
        return time.monotonic() - self._last_input

    @property
    def active(self) -> bool:
        """True until the session has ended."""
        return self._session is not None

    def close(self, message: str | None = None) -> None:
        """End this session: the app exits, `message` is shown, the channel closes."""
        if self._session is not None:
            self._session.close(message)


class SessionRefused(Exception):
    """Raised by an app factory that will not serve this player; the text (one or two
    sentences) is shown to them before the session closes."""


class SessionChannel(Protocol):
    """The part of an asyncssh server channel a session uses once it runs."""

    def write(self, data: bytes) -> None: ...

    def write_stderr(self, data: bytes) -> None: ...

    def get_write_buffer_size(self) -> int: ...

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...

    def exit(self, status: int) -> None: ...


AppFactory = Callable[[SessionInfo], App[Any]]


class Session:
    """Runs one app for one SSH channel and tears everything down afterwards."""

    def __init__(
        self,
        info: SessionInfo,
        channel: SessionChannel,
        *,
        idle_timeout: float | None,
        on_finished: Callable[[Session], None],
    ) -> None:
        self.info = info
        info._session = self
        self._channel: SessionChannel | None = channel
        self.terminal = RemoteTerminal(
            channel,
            info.size,
            on_overflow=lambda: self.close(
                "Closed: your connection could not keep up with the table."
            ),
        )
        self._idle_timeout = idle_timeout
        self._on_finished = on_finished
        self._loop = asyncio.get_running_loop()
        self.task: asyncio.Task[None] | None = None
        self._close_message: str | None = None
        self._closing = False
        self._idle_handle: asyncio.TimerHandle | None = None
        self._cancel_handle: asyncio.TimerHandle | None = None
        self.done = asyncio.Event()

    # -- starting ---------------------------------------------------------------------

    def start(self, factory: AppFactory) -> None:
        """Create the app and run it in a task of its own, in a context of its own."""
        context = contextvars.Context()
        context.run(_current.set, self.info)
        self.task = self._loop.create_task(
            self._run(factory), name=f"ssh-session-{self.info.id}", context=context
        )
        if self._idle_timeout:
            self._idle_handle = self._loop.call_later(self._idle_timeout, self._check_idle)

    async def _run(self, factory: AppFactory) -> None:
        status = 0
        crashed = False
        acquire_streams()
        try:
            caps = self.info.terminal
            if not caps.full_screen:
                status = 1
                self._close_message = caps.refusal
                log.info("session %s (%s from %s): refused: TERM=%s cannot take a full "
                         "screen", self.info.id, self.info.player_name, self.info.peer,
                         caps.term)
                return
            app = factory(self.info)
            prepare_app(app, self.terminal, self.info.color_system)
            adopt = getattr(app, "adopt_terminal", None)
            if callable(adopt):  # the rummy app draws for this terminal
                adopt(caps)
                self.terminal.plain = lambda: bool(getattr(app, "plain_output", False))
            self.info._app = app
            if self._closing:  # the player left while the factory ran
                return
            await app.run_async(mouse=True, size=self.terminal.size)
            status = app.return_code or 0
            crashed = status != 0 and app._exception is not None
            if crashed:
                self._log_crash(app._exception)
        except asyncio.CancelledError:
            status = 1
        except SessionRefused as refused:
            status = 1
            self._close_message = self._close_message or f"rummy-tui: {refused}"
            log.info("session %s (%s from %s): refused: %s", self.info.id,
                     self.info.player_name, self.info.peer, refused)
        except Exception as error:
            self._log_crash(error)
            status, crashed = 1, True
        finally:
            release_streams()
            release_closed_widgets()  # what the app's last screens drew (Textual #6665)
            self._finish(status, crashed)

    def _log_crash(self, error: BaseException | None) -> None:
        """One line in the log: which session, which player, what went wrong and where
        (the whole traceback only at debug level)."""
        info = self.info
        log.error("session %s (%s from %s): crashed: %s", info.id, info.player_name,
                  info.peer, crash_reason(error))
        if error is not None:
            log.debug("session %s traceback", info.id, exc_info=error)

    # -- input from the SSH session ---------------------------------------------------

    def data_received(self, data: bytes) -> None:
        self.info._last_input = time.monotonic()
        self.terminal.data_received(data)

    def terminal_size_changed(self, width: int, height: int) -> None:
        self.info._last_input = time.monotonic()
        self.terminal.resized(width, height)
        self.info.size = self.terminal.size

    def _check_idle(self) -> None:
        self._idle_handle = None
        if self._closing or not self._idle_timeout:
            return
        idle = self.info.idle_seconds
        if idle >= self._idle_timeout:
            minutes = self._idle_timeout / 60
            amount = f"{minutes:g} minutes" if minutes >= 1 else f"{self._idle_timeout:g} seconds"
            self.close(f"Closed after {amount} without input.")
        else:
            self._idle_handle = self._loop.call_later(self._idle_timeout - idle, self._check_idle)

    # -- ending -----------------------------------------------------------------------

    def close(self, message: str | None = None) -> None:
        """Ask the app to exit; `message` is shown to the player once it has."""
        if self._closing:
            return
        self._closing = True
        self._close_message = message
        app = self.info._app
        if app is not None and self.task is not None and not self.task.done():
            app.exit()
        if self.task is not None and not self.task.done():
            self._cancel_handle = self._loop.call_later(EXIT_GRACE_SECONDS, self._force_stop)

    def connection_lost(self) -> None:
        """The player is gone (quit, network dropped, killed ssh): stop writing, end."""
        self._channel = None
        self.terminal.close()
        self.close(None)
        if self.task is None:
            self._finish(0, False)

    def _force_stop(self) -> None:
        self._cancel_handle = None
        if self.task is not None and not self.task.done():
            log.warning("session %s: app did not exit in time, cancelling it", self.info.id)
            self.task.cancel()

    def _finish(self, status: int, crashed: bool) -> None:
        if self.done.is_set():
            return
        for handle in (self._idle_handle, self._cancel_handle):
            if handle is not None:
                handle.cancel()
        self._idle_handle = self._cancel_handle = None
        channel, self._channel = self._channel, None
        self.terminal.close()
        if channel is not None:
            lines = []
            if crashed:
                lines.append(CRASH_MESSAGE)
            if self._close_message:
                lines.append(self._close_message)
            try:
                if lines:
                    channel.write("".join(f"\r\n{line}" for line in lines).encode() + b"\r\n")
                channel.exit(status)
            except (BrokenPipeError, ConnectionError, OSError):
                pass
        # Let go of everything that could keep the app alive.
        app = self.info._app
        self.info._app = None
        self.info._session = None
        if app is not None:
            app._driver = None
        self.task = None
        self.done.set()
        self._on_finished(self)
