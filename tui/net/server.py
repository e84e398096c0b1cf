"""The SSH front of one process: one event loop, one Textual app per player.

Under `rummy serve` every session worker (`tui.net.workers`) runs one of these on the
shared port; in tests and `start_server` callers it may run alone in the process.

`start_server(app_factory, host, port, ...)` listens with asyncssh; each interactive
session (a PTY plus a shell request) gets `app_factory(SessionInfo)` run by a
`Session`. Anything that is not a player at a terminal - a command, SFTP, a session
without a PTY, port or agent forwarding - is refused with a sentence saying why.

Who is who: a client that logs in with a public key is that key (`SessionInfo.key`, its
SHA256 fingerprint, and the name `--authorized-keys` gives it, if any); the lobby decides
what a key may do with a name (`tui.service.identity`).  On an open server any key is
accepted as an identity and a client without one gets in by keyboard-interactive with no
question.  With `--password`, password logins carry no key.  The door (login grace,
connections in progress, penalties for failed logins) is `tui.net.door`: every
connection asks it before it may try to log in.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import itertools
import logging
import socket
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import asyncssh

from tui.net import acceptor
from tui.net.colors import color_system_for
from tui.net.door import Door, DoorLimits, Doorway
from tui.net.hostkey import load_host_key
from tui.net.isolation import isolate_colours, isolate_executor
from tui.net.player_keys import KeysFileError, PlayerKeys, read_player_keys
from tui.net.proxy_protocol import Balancers
from tui.net.session import AppFactory, Session, SessionInfo

log = logging.getLogger(__name__)

DEFAULT_MAX_SESSIONS = 64
DEFAULT_IDLE_TIMEOUT = 30 * 60
DEFAULT_KEEPALIVE = 5.0
"""Seconds between keepalive probes; 3 unanswered ones close a frozen connection."""
KEEPALIVE_COUNT = 3

NOT_A_TERMINAL = (
    "rummy-tui: this is a card table, not a shell: connect with a terminal, "
    "e.g. `ssh -t -p PORT NAME@HOST`.\r\n"
)
NO_COMMANDS = (
    "rummy-tui: commands are not accepted here; just connect: `ssh -p PORT NAME@HOST`.\r\n"
)
NO_SUBSYSTEM = "rummy-tui: file transfer (SFTP/SCP) and subsystems are not available here.\r\n"
NO_FORWARDING = "port forwarding is not available on a rummy-tui table"
NOT_OPEN = "rummy-tui: the table is not open yet; try again in a moment.\r\n"
BAD_USER_NAME = (
    "rummy-tui: that user name cannot be used over SSH (emoji and some other characters "
    "are not allowed): connect under a plain name, e.g. `ssh -p PORT ann@HOST`."
)


SHUTDOWN_MESSAGE = ("The server is shutting down. A game in progress is kept: connect again "
                    "when the server is back to take your seat.")

class ServeError(Exception):
    """A problem with the server's settings (bad key file, address in use...)."""


def is_loopback(host: str) -> bool:
    """True when `host` is reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_authorized_keys(path: Path | str) -> PlayerKeys:
    """Read an OpenSSH authorized_keys file, with a clear error if it is unusable."""
    try:
        return read_player_keys(path)
    except KeysFileError as error:
        raise ServeError(str(error)) from None


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
        self.on_session_end = on_session_end
        """Called with the `SessionInfo` of every session that ended, however it ended."""
        """Called with a `SessionInfo` for every new player; may be set after start."""
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
        self._arrivals = acceptor.Arrivals()
        self._sessions: dict[int, Session] = {}
        self._connections: set[asyncssh.SSHServerConnection] = set()
        self._door_conns: dict[int, _PlayerConnection] = {}
        self._door_ids = itertools.count(1)
        self._ids = itertools.count(1)
        self._closing = False

    def close_crowded(self, conn: int) -> None:
        """The door closes connection `conn`: the oldest past a cap of logins in
        progress (from its address, or in all)."""
        crowded = self._door_conns.get(conn)
        if crowded is not None and crowded._conn is not None:
            crowded._conn.disconnect(
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
        return not self._connections and not self._sessions and not self._arrivals.count

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

    # -- called by the per-connection objects -----------------------------------------

    def _new_session(self, chan: asyncssh.SSHServerChannel[bytes], username: str,
                     key: str = "", given_name: str | None = None) -> Session | None:
        """A player's terminal session is ready: run an app for it (or say why not)."""
        if self._closing:
            _refuse(chan, "rummy-tui: the server is shutting down.\r\n")
            return None
        if self.full:
            _refuse(chan, full_message(self.max_sessions) + "\r\n")
            return None
        factory = self.app_factory
        if factory is None:
            _refuse(chan, NOT_OPEN)
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
        for conn in list(self._connections):
            conn.close()
        self._connections.clear()

    async def __aenter__(self) -> Server:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


def _refuse(chan: asyncssh.SSHServerChannel[bytes], message: str) -> None:
    try:
        chan.write_stderr(message.encode())
        chan.exit(1)
    except (BrokenPipeError, ConnectionError, OSError):
        pass


def _plain_user_name_refusal(conn: asyncssh.SSHServerConnection) -> None:
    """asyncssh refuses a user name SASLprep cannot take (an emoji) with its own words
    ("Unassigned character: '\\360...'"): say it plainly instead.  asyncssh offers no
    hook for it, so this connection's disconnect message is rewritten (a test checks
    it still works after an upgrade)."""
    send = getattr(conn, "_send_disconnect", None)
    if send is None:
        return

    def send_plain(code: int, reason: str, lang: str) -> None:
        if code == asyncssh.DISC_ILLEGAL_USER_NAME:
            reason = BAD_USER_NAME
        send(code, reason, lang)

    conn._send_disconnect = send_plain  # type: ignore[method-assign]


class _PlayerSession(asyncssh.SSHServerSession):
    """asyncssh's view of one session channel; hands over to `Session` once started."""

    def __init__(self, server: Server, owner: _PlayerConnection) -> None:
        self._server = server
        self._owner: _PlayerConnection | None = owner
        self._username = owner.username
        self._key = owner.key
        self._given_name = owner.given_name
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
            _refuse(chan, NO_COMMANDS)
        elif self._kind == "subsystem":
            _refuse(chan, NO_SUBSYSTEM)
        elif not self._pty:
            _refuse(chan, NOT_A_TERMINAL)
        else:
            self._session = self._server._new_session(chan, self._username, self._key,
                                                      self._given_name)

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
        owner, self._owner = self._owner, None
        self._chan = None
        if session is not None:
            session.connection_lost()
        if owner is not None:
            owner.channel_closed()


class _PlayerConnection(asyncssh.SSHServer):
    """One TCP connection: the door (see `tui.net.door`), authentication policy, and
    refusal of everything but play."""

    def __init__(self, server: Server) -> None:
        self._server = server
        self._conn: asyncssh.SSHServerConnection | None = None
        self.username = ""
        self.key = ""
        """Fingerprint of the public key this connection logged in with ("" for none)."""
        self.given_name: str | None = None
        """The name `--authorized-keys` gives that key, if any."""
        self._address = ""
        self._failures = 0
        self._keys_refused = 0
        self._logged_in = False
        self._channels = 0
        self._channels_opened = 0
        self._no_session_timer: asyncio.TimerHandle | None = None
        self._door_id = next(server._door_ids)
        self._admitted: asyncio.Future[str] | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        _plain_user_name_refusal(conn)
        server = self._server
        server._connections.add(conn)
        server._door_conns[self._door_id] = self
        peer = conn.get_extra_info("peername") or ("", 0)
        self._address = str(peer[0])
        # Asked before anything is read from the client; refused, it is closed at once.
        self._admitted = asyncio.ensure_future(server.doorway.arrive(self._door_id,
                                                                     self._address))
        self._admitted.add_done_callback(self._door_answered)

    def _door_answered(self, answer: asyncio.Future[str]) -> None:
        if answer.cancelled() or answer.exception() is not None or not answer.result():
            return
        if self._conn is not None:
            self._conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                  f"rummy-tui: {answer.result()}")

    def connection_lost(self, exc: Exception | None) -> None:
        server = self._server
        server._door_conns.pop(self._door_id, None)
        if not self._logged_in:
            # Ended without logging in: abandoned, if it was let try and there was
            # something to get right; closed by the server's choice otherwise.
            admitted = self._admitted
            tried = admitted is not None and admitted.done() and not admitted.cancelled() \
                and admitted.exception() is None and not admitted.result()
            counts = tried and server.requires_auth and not server._closing
            server.doorway.settled(self._door_id, "abandoned" if counts else "closed")
        if self._admitted is not None and not self._admitted.done():
            self._admitted.cancel()
        if self._keys_refused and not self._logged_in:
            log.warning("door: login refused from %s as %r (%s key(s) not allowed)",
                        self._address, self.username, self._keys_refused)
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None
        if self._conn is not None:
            self._server._connections.discard(self._conn)
        self._conn = None

    def auth_completed(self) -> None:
        self._logged_in = True
        self._server.doorway.settled(self._door_id, "in")
        # A logged-in connection that never opens a session only holds a slot.
        timeout = self._server.login_timeout
        if timeout:
            self._no_session_timer = asyncio.get_running_loop().call_later(
                timeout, self._close_if_unused
            )

    def _close_if_unused(self) -> None:
        self._no_session_timer = None
        if self._channels_opened == 0 and self._conn is not None:
            self._conn.close()

    def channel_closed(self) -> None:
        """A session channel ended; with none left the connection has no purpose."""
        self._channels -= 1
        if self._channels <= 0 and self._conn is not None:
            self._conn.close()

    async def begin_auth(self, username: str) -> bool:
        server = self._server
        self.username = username
        if server.full:
            raise asyncssh.DisconnectError(
                asyncssh.DISC_TOO_MANY_CONNECTIONS, full_message(server.max_sessions)
            )
        admitted = self._admitted
        why = await admitted if admitted is not None else ""
        if why:  # penalised: nothing it sends is looked at, a right password neither
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                           f"rummy-tui: {why}")
        # Always ask, even on an open server: a client's key, offered, is its identity.
        return True

    # -- keys ---------------------------------------------------------------------------

    def public_key_auth_supported(self) -> bool:
        return self._server.open or self._server.authorized_keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for each key offered and again, with its signature checked by asyncssh,
        # for the one that logs in: the last key accepted is the one the player holds.
        keys = self._server.authorized_keys
        if keys is None:
            admitted, name = self._server.open, None
        else:
            conn = self._conn
            host = str(conn.get_extra_info("peername", ("", 0))[0]) if conn else ""
            admitted, name = keys.match(key, host, self._address)
        if admitted:
            self.key, self.given_name = key.get_fingerprint("sha256"), name
        else:
            self._keys_refused += 1
        return admitted

    # -- no key: an open server lets keyless clients in without a question ---------------

    def kbdint_auth_supported(self) -> bool:
        return self._server.open

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key, self.given_name = "", None
        return self._server.open

    # -- the table password ---------------------------------------------------------------

    def password_auth_supported(self) -> bool:
        return self._server.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        expected = self._server.password
        if expected is not None and hmac.compare_digest(password.encode(), expected.encode()):
            self.key, self.given_name = "", None
            return True
        self._failures += 1
        server = self._server
        await server.sleep(await server.doorway.failed(self._door_id, self._address,
                                                       username, "password"))
        if self._failures >= self._server.door.limits.failures_per_connection \
                and self._conn is not None:
            self._conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                  "rummy-tui: too many wrong passwords; try again later.")
        return False

    def session_requested(self) -> _PlayerSession:
        self._channels += 1
        self._channels_opened += 1
        return _PlayerSession(self._server, self)

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_FORWARDING)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_FORWARDING)

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


async def start_server(
    app_factory: AppFactory | None,
    host: str = "127.0.0.1",
    port: int = 2222,
    *,
    host_key_path: Path | str | None = None,
    authorized_keys: Path | str | None = None,
    password: str | None = None,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
    keepalive_interval: float = DEFAULT_KEEPALIVE,
    login_timeout: float | None = None,
    on_session_end: Callable[[SessionInfo], None] | None = None,
    door_limits: DoorLimits | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    reuse_port: bool = False,
    proxy_protocol: Balancers | None = None,
    proxy_header_timeout: float = acceptor.HEADER_TIMEOUT,
    sock: socket.socket | None = None,
) -> Server:
    """Listen for players; each session runs `app_factory(info)` until it exits.

    `app_factory` may be None and set later on `Server.app_factory` (players arriving
    before are told the table is not open yet). `host_key_path` None uses (and on first
    start creates) the key in the user data folder. `authorized_keys` restricts players
    to the keys in that file; `password` admits whoever knows it; with both, either
    works; with neither, anyone who can reach the address plays under their SSH user
    name (a key, if offered, is their identity). `idle_timeout` (seconds, None for
    never) ends sessions without input. `keepalive_interval`: a client that answers
    none of `KEEPALIVE_COUNT` probes this far apart is dropped. `login_timeout` (default:
    the door's login grace) is the time to log in, and then to open a session.
    `door_limits` and `sleep` set the door (`tui.net.door`); tests pass their own.
    `on_session_end(info)` runs after each session ended (quit, drop, crash, timeout).
    `reuse_port` listens with `SO_REUSEPORT`, so several worker processes can share the
    port (the kernel spreads connections over them). `proxy_protocol` names the load
    balancers whose PROXY header gives the player's address (`tui.net.acceptor`).
    `sock`: a listening socket to serve on instead of `host:port` (a worker's, kept
    by its pool: it stays open when this server closes).
    Raises `ServeError` for unusable settings.
    """
    door = Door(door_limits)
    if login_timeout is None:
        login_timeout = door.limits.login_grace
    if max_sessions < 1:
        raise ServeError("--max-sessions must be at least 1")
    if idle_timeout is not None and idle_timeout <= 0:
        idle_timeout = None
    key, key_path = load_host_key(host_key_path)
    isolate_executor(asyncio.get_running_loop())
    isolate_colours()
    keys = load_authorized_keys(authorized_keys) if authorized_keys is not None else None
    server = Server(
        app_factory,
        max_sessions=max_sessions,
        idle_timeout=idle_timeout,
        password=password,
        authorized_keys=keys,
        host_key_path=key_path,
        host_key_fingerprint=key.get_fingerprint(),
        login_timeout=login_timeout,
        on_session_end=on_session_end,
        door=door,
        sleep=sleep,
    )
    arrivals = server._arrivals

    async def listen() -> asyncio.Server:
        return await acceptor.listen_ssh(
            lambda: _PlayerConnection(server),
            host,
            port,
            balancers=proxy_protocol,
            header_timeout=proxy_header_timeout,
            reuse_port=reuse_port,
            sock=sock,
            arrivals=arrivals,
            server_host_keys=[key],
            encoding=None,
            line_editor=False,
            allow_pty=True,
            x11_forwarding=False,
            agent_forwarding=False,
            allow_scp=False,
            keepalive_interval=keepalive_interval,
            keepalive_count_max=KEEPALIVE_COUNT,
            login_timeout=login_timeout,
            server_version="rummy-tui",
        )

    try:
        listener = await listen()
    except OSError as error:
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    server._listener = listener
    server._listen = listen
    server.host = host
    sockets = listener.sockets
    server.port = sockets[0].getsockname()[1] if sockets else port
    return server
