"""The SSH front of one process: who is connected, one Textual app per player.

Under `rummy serve` every session worker (`tui.net.workers`) runs one of these on the
shared port; in tests and `start_server` callers it may run alone in the process.
`tui.net.startup.start_server` builds and opens it; each TCP connection is a
`tui.net.player_connection.PlayerConnection` (the door and the login), each session
channel a `tui.net.player_channel.PlayerChannel`.  The `Server` is what they share:
the sessions and connections of the process, so a worker can tell when it is quiet,
refuse players past `max_sessions`, and end everyone's session when it stops.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

import asyncssh

from tui.net import acceptor
from tui.net.colors import color_system_for
from tui.net.door import Door, Doorway
from tui.net.player_channel import refuse
from tui.net.player_keys import PlayerKeys
from tui.net.session import AppFactory, Session, SessionInfo

log = logging.getLogger(__name__)

NOT_OPEN = "rummy-tui: the table is not open yet; try again in a moment.\r\n"
SHUTDOWN_MESSAGE = ("The server is shutting down. A game in progress is kept: connect again "
                    "when the server is back to take your seat.")


def full_message(max_sessions: int) -> str:
    players = "1 player" if max_sessions == 1 else f"{max_sessions} players"
    return f"rummy-tui: the server is full ({players} connected); try again later."


class Server:
    """A running SSH table. `port` is the actual port (useful with port 0)."""

    def __init__(
        self,
        app_factory: AppFactory | None,
        *,
        max_sessions: int,
        idle_timeout: float | None,
        password: str | None,
        authorized_keys: PlayerKeys | None,
        host_key_path: Path,
        host_key_fingerprint: str = "",
        login_timeout: float = 60,
        on_session_end: Callable[[SessionInfo], None] | None = None,
        door: Door | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.app_factory = app_factory
        """Called with a `SessionInfo` for every new player; may be set after start."""
        self.on_session_end = on_session_end
        """Called with the `SessionInfo` of every session that ended, however it ended."""
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self.password = password
        self.authorized_keys = authorized_keys
        self.host_key_path = host_key_path
        self.host_key_fingerprint = host_key_fingerprint
        self.login_timeout = login_timeout
        """Seconds to log in, and then to open a session, before the link is closed."""
        self.door = door or Door()
        self.door.close_connection = self.close_crowded
        self.doorway: Doorway = self.door
        """Where connections ask to try a login: this server's own door, or the game
        service's for every worker (`tui.net.remote.ServiceDoor`)."""
        self.sleep = sleep
        """How the door waits before answering a failed login (tests record instead)."""
        self.host = ""
        self.port = 0
        self._listener: asyncio.Server | None = None
        self._listen: Callable[[], Awaitable[asyncio.Server]] | None = None
        self.arrivals = acceptor.Arrivals()
        """Connections accepted whose SSH has not begun yet (the acceptor counts them)."""
        self._sessions: dict[int, Session] = {}
        self._connections: dict[int, asyncssh.SSHServerConnection] = {}
        """Every connection open now, by the number the door knows it by."""
        self._connection_ids = itertools.count(1)
        self._ids = itertools.count(1)
        self._closing = False

    def close_crowded(self, conn: int) -> None:
        """The door closes connection `conn`: the oldest past a cap of logins in
        progress (from its address, or in all)."""
        crowded = self._connections.get(conn)
        if crowded is not None:
            crowded.disconnect(
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                "rummy-tui: too many connections logging in from your address at once; "
                "this, the oldest, is closed.")

    @property
    def sessions(self) -> list[SessionInfo]:
        """The players connected now (a snapshot)."""
        return [session.info for session in self._sessions.values()]

    @property
    def requires_auth(self) -> bool:
        return self.password is not None or self.authorized_keys is not None

    @property
    def open(self) -> bool:
        """Anyone who can connect plays (a key, if offered, is their identity)."""
        return not self.requires_auth

    @property
    def full(self) -> bool:
        return len(self._sessions) >= self.max_sessions

    @property
    def connection_count(self) -> int:
        return len(self._connections)

    @property
    def quiet(self) -> bool:
        """No connection at all: no session, no login in progress, none just accepted."""
        return not self._connections and not self._sessions and not self.arrivals.count

    @property
    def closing(self) -> bool:
        """`close` has begun: no new session, and a connection lost is not the client's
        doing."""
        return self._closing

    async def start_listening(self, listen: Callable[[], Awaitable[asyncio.Server]],
                              host: str, port: int) -> None:
        """Listen with `listen` (which `listen_again` calls again); `port` is the one
        asked for, the actual one is read from the socket.  Raises `OSError`."""
        self._listener = await listen()
        self._listen = listen
        self.host = host
        sockets = self._listener.sockets
        self.port = sockets[0].getsockname()[1] if sockets else port

    def stop_listening(self) -> None:
        """Accept no more connections (those already accepted carry on); the socket
        itself stays open if it was given (`sock`), its queue for whoever serves next."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    async def listen_again(self) -> None:
        """Accept connections again after `stop_listening`."""
        if self._listener is None and self._listen is not None and not self._closing:
            self._listener = await self._listen()

    # -- called by each connection (`tui.net.player_connection`) ------------------------

    def connection_opened(self, conn: asyncssh.SSHServerConnection) -> int:
        """A connection began; returns the number the door knows it by."""
        conn_id = next(self._connection_ids)
        self._connections[conn_id] = conn
        return conn_id

    def connection_closed(self, conn_id: int) -> None:
        self._connections.pop(conn_id, None)

    def new_session(self, chan: asyncssh.SSHServerChannel[bytes], username: str,
                    key: str = "", given_name: str | None = None) -> Session | None:
        """A player's terminal session is ready: run an app for it (or say why not)."""
        if self._closing:
            refuse(chan, "rummy-tui: the server is shutting down.\r\n")
            return None
        if self.full:
            refuse(chan, full_message(self.max_sessions) + "\r\n")
            return None
        factory = self.app_factory
        if factory is None:
            refuse(chan, NOT_OPEN)
            return None
        env: Mapping[str, str] = dict(chan.get_environment())
        term_type = chan.get_terminal_type() or "xterm"
        width, height, _, _ = chan.get_terminal_size()
        peer = chan.get_extra_info("peername") or ("", 0)
        info = SessionInfo(
            id=next(self._ids),
            username=username,
            term_type=term_type,
            size=(width or 80, height or 24),
            color_system=color_system_for(term_type, env),
            peer=f"{peer[0]}:{peer[1]}",
            env=env,
            key=key,
            given_name=given_name,
        )
        session = Session(
            info, chan, idle_timeout=self.idle_timeout, on_finished=self._session_finished
        )
        self._sessions[info.id] = session
        log.info(
            "session %s: %s from %s (%s %sx%s%s)", info.id, info.player_name, info.peer,
            term_type, *info.size, f", key {key}" if key else "",
        )
        session.start(factory)
        return session

    def _session_finished(self, session: Session) -> None:
        self._sessions.pop(session.info.id, None)
        log.info("session %s ended", session.info.id)
        if self.on_session_end is not None:
            try:
                self.on_session_end(session.info)
            except Exception:
                log.exception("session %s: cleaning up after it failed", session.info.id)

    # -- lifecycle ----------------------------------------------------------------------

    async def close(self) -> None:
        """Stop listening, end every session (players see why), wait for the apps."""
        self._closing = True
        if self._listener is not None:
            self._listener.close()
            await self._listener.wait_closed()
            self._listener = None
        sessions = list(self._sessions.values())
        for session in sessions:
            session.close(SHUTDOWN_MESSAGE)
        if sessions:
            waits = [asyncio.ensure_future(session.done.wait()) for session in sessions]
            _, pending = await asyncio.wait(waits, timeout=10)
            for waiter in pending:
                waiter.cancel()
        for conn in list(self._connections.values()):
            conn.close()
        self._connections.clear()

    async def __aenter__(self) -> Server:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
