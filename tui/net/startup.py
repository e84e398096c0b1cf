"""From `rummy serve`'s settings to a listening SSH front (`tui.net.server.Server`).

`start_server(app_factory, host, port, ...)` checks the settings, loads the host key and
`--authorized-keys`, and listens with asyncssh through `tui.net.acceptor`; each
interactive session (a PTY plus a shell request) gets `app_factory(SessionInfo)` run by a
`Session`. Anything that is not a player at a terminal - a command, SFTP, a session
without a PTY, port or agent forwarding - is refused with a sentence saying why
(`tui.net.player_connection`, `tui.net.player_channel`).  Settings that cannot work
raise `ServeError`, which `rummy serve` prints as they are, without a traceback.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

from tui.net import acceptor
from tui.net.door import Door, DoorLimits
from tui.net.hostkey import load_host_key
from tui.net.isolation import isolate_colours, isolate_executor
from tui.net.player_connection import PlayerConnection
from tui.net.player_keys import KeysFileError, PlayerKeys, read_player_keys
from tui.net.proxy_protocol import Balancers
from tui.net.server import Server
from tui.net.session import AppFactory, SessionInfo

DEFAULT_MAX_SESSIONS = 64
DEFAULT_IDLE_TIMEOUT = 30 * 60
DEFAULT_KEEPALIVE = 5.0
"""Seconds between keepalive probes; 3 unanswered ones close a frozen connection."""
KEEPALIVE_COUNT = 3


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
    arrivals = server.arrivals

    async def listen() -> asyncio.Server:
        return await acceptor.listen_ssh(
            lambda: PlayerConnection(server),
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
        await server.start_listening(listen, host, port)
    except OSError as error:
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return server
