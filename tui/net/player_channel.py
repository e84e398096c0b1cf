"""One SSH session channel: a player at a terminal gets a game, anything else a reason.

A client may open a session for a command, SFTP or a shell without a PTY; none of them
can play, so each is answered with a sentence saying how to connect instead of a bare
failure.  Only a shell with a PTY is handed to `tui.net.session.Session`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import asyncssh

from tui.net.session import Session

NOT_A_TERMINAL = (
    "rummy-tui: this is a card table, not a shell: connect with a terminal, "
    "e.g. `ssh -t -p PORT NAME@HOST`.\r\n"
)
NO_COMMANDS = (
    "rummy-tui: commands are not accepted here; just connect: `ssh -p PORT NAME@HOST`.\r\n"
)
NO_SUBSYSTEM = "rummy-tui: file transfer (SFTP/SCP) and subsystems are not available here.\r\n"

SessionStarter = Callable[[asyncssh.SSHServerChannel[bytes]], Session | None]
"""Runs a player's app on a channel ready to play, or refuses it (returning None)."""


def refuse(chan: asyncssh.SSHServerChannel[bytes], message: str) -> None:
    """Tell the client why on stderr and end the channel; a client already gone is
    not an error."""
    try:
        chan.write_stderr(message.encode())
        chan.exit(1)
    except (BrokenPipeError, ConnectionError, OSError):
        pass


class PlayerChannel(asyncssh.SSHServerSession):
    """asyncssh's view of one session channel; hands over to `Session` once started.

    `start` is asked for the session only when the client has asked for a PTY and a
    shell; `closed` is called once when the channel is gone, however it ended."""

    def __init__(self, start: SessionStarter, closed: Callable[[], None]) -> None:
        self._start = start
        self._closed: Callable[[], None] | None = closed
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._pty = False
        self._kind = ""
        self._session: Session | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        self._pty = True
        return True

    def shell_requested(self) -> bool:
        self._kind = "shell"
        return True

    def exec_requested(self, command: str) -> bool:
        # Accepted only to be able to tell the player why nothing runs.
        self._kind = "exec"
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self._kind = "subsystem"
        return True

    def session_started(self) -> None:
        chan = self._chan
        if chan is None:
            return
        if self._kind == "exec":
            refuse(chan, NO_COMMANDS)
        elif self._kind == "subsystem":
            refuse(chan, NO_SUBSYSTEM)
        elif not self._pty:
            refuse(chan, NOT_A_TERMINAL)
        else:
            self._session = self._start(chan)

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self._session is not None:
            self._session.data_received(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self._session is not None:
            self._session.terminal_size_changed(width or 80, height or 24)

    def eof_received(self) -> bool:
        if self._session is not None:
            self._session.close(None)
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        session, self._session = self._session, None
        closed, self._closed = self._closed, None
        self._chan = None
        if session is not None:
            session.connection_lost()
        if closed is not None:
            closed()
