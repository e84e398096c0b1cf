"""`rummy serve`: open an SSH card room that friends join with a plain `ssh` command.

Everything runs in this one process; each player gets their own copy of the app, opened
at the lobby, and all apps share one event loop and one in-memory `Lobby` of tables.
`serve()` is the reusable entry point (tests pass their own app factory); `run()` is the
command.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.net.server import (
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_SESSIONS,
    ServeError,
    Server,
    is_loopback,
    start_server,
)
from tui.net.session import AppFactory, SessionInfo, SessionRefused
from tui.service.lobby import Guest, Lobby, LobbyConfig, LobbyError

if TYPE_CHECKING:
    from textual.app import App

PASSWORD_ENV = "RUMMY_TABLE_PASSWORD"
_PROMPT = object()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 lets the network in)",
    )
    parser.add_argument("--port", type=int, default=2222, help="TCP port (default 2222)")
    parser.add_argument(
        "--host-key",
        metavar="FILE",
        type=Path,
        help="SSH host private key to use (default: one generated on first start "
        "and kept in the user data folder)",
    )
    parser.add_argument(
        "--authorized-keys",
        metavar="FILE",
        type=Path,
        help="admit only players whose public key is in this authorized_keys file",
    )
    parser.add_argument(
        "--password",
        nargs="?",
        const=_PROMPT,
        metavar="PASSWORD",
        help=f"require a shared table password (asked for, or taken from {PASSWORD_ENV}, "
        "when no value is given; a value on the command line is visible to other local "
        "users)",
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=f"most players connected at once (default {DEFAULT_MAX_SESSIONS})",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT / 60,
        metavar="MINUTES",
        help=f"disconnect players idle this long (default {DEFAULT_IDLE_TIMEOUT // 60}; 0 = never)",
    )


    parser.add_argument(
        "--max-tables",
        type=int,
        default=LobbyConfig.max_tables,
        metavar="N",
        help=f"most tables open at once (default {LobbyConfig.max_tables})",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=LobbyConfig.bot_delay,
        metavar="SECONDS",
        help=f"pause before each bot move, so players can follow (default "
        f"{LobbyConfig.bot_delay:g})",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=LobbyConfig.grace,
        metavar="SECONDS",
        help=f"how long a player who dropped keeps their seat before a bot plays it "
        f"(default {LobbyConfig.grace:g}); they take it back by reconnecting with the same name",
    )


class LobbyApps:
    """The app factory of the card room: every SSH session gets the whole app, opened at
    the lobby, as a guest named after its SSH user; `session_ended` lets go of the guest's
    seat (kept through the grace period) whenever and however the session ended."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self._guests: dict[int, Guest] = {}

    def __call__(self, info: SessionInfo) -> App[Any]:
        from tui.app.app import RummyApp
        from tui.app.environment import AppEnvironment
        from tui.app.settings import SettingsStore
        from tui.paths import player_rulesets_dir

        try:
            guest = self.lobby.enter(
                info.player_name, info.key,
                on_replaced=lambda: info.close("You connected again from elsewhere: this "
                                               "older session is closed."))
        except LobbyError as exc:
            raise SessionRefused(str(exc)) from None
        self._guests[info.id] = guest
        env = AppEnvironment(
            settings_store=SettingsStore(None),  # in memory: guests share no file
            save_path=None,
            player_name=info.player_name,
            drive_bots=False,  # each table's own driver moves its bots
            can_quit_to_shell=False,
            lobby=guest,
            rulesets_dir=player_rulesets_dir(info.player_name),  # house rules per player
            rulesets_confined=True,
        )
        return RummyApp(env)

    def session_ended(self, info: SessionInfo) -> None:
        guest = self._guests.pop(info.id, None)
        if guest is not None:
            guest.close()


def exposure_warning(host: str) -> str | None:
    """The warning printed when the table is reachable from other machines."""
    if is_loopback(host):
        return None
    where = "every network interface" if host in ("", "0.0.0.0", "::") else host
    return (
        f"warning: listening on {where}: anyone who can reach this address on the "
        "network can reach the table (see --password and --authorized-keys)"
    )


def _resolve_password(value: object) -> str | None:
    if value is None:
        return None
    if value is not _PROMPT:
        return str(value)
    from_env = os.environ.get(PASSWORD_ENV)
    if from_env:
        return from_env
    if not sys.stdin.isatty():
        raise ServeError(f"--password without a value needs a terminal or {PASSWORD_ENV}")
    first = getpass.getpass("Table password: ")
    if not first:
        raise ServeError("the table password cannot be empty")
    if getpass.getpass("Again: ") != first:
        raise ServeError("the two passwords differ")
    return first


def _join_hint(server: Server) -> str:
    host = server.host if server.host not in ("", "0.0.0.0", "::") else "THIS-MACHINE"
    port = "" if server.port == 22 else f"-p {server.port} "
    return f"ssh {port}YOUR-NAME@{host}"


async def serve(
    app_factory: AppFactory | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 2222,
    host_key: Path | None = None,
    authorized_keys: Path | None = None,
    password: str | None = None,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
    stop: asyncio.Event | None = None,
    report: Callable[[str], None] = print,
    lobby_config: LobbyConfig | None = None,
) -> int:
    """Serve until `stop` is set (or SIGINT/SIGTERM), then close every session.

    `app_factory` None serves the card room: the app at a lobby set by `lobby_config`.
    """
    lobby: Lobby | None = None
    on_session_end = None
    if app_factory is None:
        lobby = Lobby(lobby_config)
        apps = LobbyApps(lobby)
        app_factory, on_session_end = apps, apps.session_ended
    warning = exposure_warning(host)
    if warning:
        report(warning)
    server = await start_server(
        app_factory,
        host,
        port,
        host_key_path=host_key,
        authorized_keys=authorized_keys,
        password=password,
        max_sessions=max_sessions,
        idle_timeout=idle_timeout,
        on_session_end=on_session_end,
    )
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    installed = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, stop.set)
            installed.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):
            pass
    access = (
        "password or known key"
        if password and authorized_keys
        else "table password"
        if password
        else "known keys only"
        if authorized_keys
        else "open to anyone who can connect"
    )
    report(
        f"rummy-tui table listening on {host}:{server.port} ({access}).\n"
        f"Players join with:  {_join_hint(server)}\n"
        f"Host key {server.host_key_fingerprint} ({server.host_key_path})\n"
        "Press Ctrl+C to close the table."
    )
    try:
        await stop.wait()
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
        report("Closing the table...")
        await server.close()
        if lobby is not None:
            lobby.close()
    return 0


def run(args: argparse.Namespace, app_factory: AppFactory | None = None) -> int:
    """The `rummy serve` command."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    from tui.net.hostkey import HostKeyError

    try:
        if not 0 <= args.port <= 65535:
            raise ServeError(f"--port {args.port}: must be between 0 and 65535")
        if args.max_sessions < 1:
            raise ServeError(f"--max-sessions {args.max_sessions}: must be at least 1")
        if args.idle_timeout < 0:
            raise ServeError(f"--idle-timeout {args.idle_timeout:g}: cannot be negative")
        if args.max_tables < 1:
            raise ServeError(f"--max-tables {args.max_tables}: must be at least 1")
        if not 0 <= args.bot_delay <= 60:
            raise ServeError(f"--bot-delay {args.bot_delay:g}: must be between 0 and 60 seconds")
        if args.grace < 0:
            raise ServeError(f"--grace {args.grace:g}: cannot be negative")
        lobby_config = LobbyConfig(
            max_tables=args.max_tables, bot_delay=args.bot_delay, grace=args.grace
        )
        password = _resolve_password(args.password)
        idle = args.idle_timeout * 60 or None
        return asyncio.run(
            serve(
                app_factory,
                host=args.host,
                port=args.port,
                host_key=args.host_key,
                authorized_keys=args.authorized_keys,
                password=password,
                max_sessions=args.max_sessions,
                idle_timeout=idle,
                lobby_config=lobby_config,
            )
        )
    except (ServeError, HostKeyError) as error:
        print(f"rummy serve: error: {error}", file=sys.stderr)
        return 2
