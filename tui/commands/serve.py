"""`rummy serve`: open an SSH card room that friends join with a plain `ssh` command.

By default this process becomes the game service (the lobby, the tables, who is who, the
records) and starts one SSH session worker per core (`tui.net.workers`): the workers share
the port, host the players' apps and play through the service over a local socket.  With
`--workers 0` everything runs in this one process instead: each player's app, the lobby
and the tables on one event loop.  `serve()` is the reusable entry point (tests pass
their own app factory, which runs in this process); `run()` is the command.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import math
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.commands import serve_link
from tui.net.door import DoorLimits
from tui.net.proxy_protocol import Balancers
from tui.net.server import Server
from tui.net.session import AppFactory, SessionInfo, SessionRefused
from tui.net.startup import (
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_KEEPALIVE,
    DEFAULT_MAX_SESSIONS,
    KEEPALIVE_COUNT,
    ServeError,
    is_loopback,
    load_authorized_keys,
    start_server,
)
from tui.net.workers import WorkerRoom, WorkerSettings, default_workers
from tui.service.lobby import Guest, Lobby, LobbyConfig, LobbyError

if TYPE_CHECKING:
    import ssl

    from textual.app import App

    from tui.service.identity import NameBook
    from tui.service.table_keeper import TableKeeper

PASSWORD_ENV = "RUMMY_TABLE_PASSWORD"
NAMES_FILE = "names.sqlite"
"""The server's database of which SSH key owns which player name."""
_PROMPT = object()


EPILOG = """\
who is who:
  A player who connects with an SSH key is that key: the first key to use a name owns
  it (kept in the server's names database), and only that key plays under that name or
  takes that name's seat back.  A player without a key (password, or an open server)
  is their session: when they sit down their table shows a one-time rejoin code, the
  only way to take a dropped seat back from a new connection.  In --authorized-keys a
  key may be given its player's name: environment="RUMMY_NAME=alice" before the key,
  or the key's comment (up to "@").  The host's word wins: that key owns the name even
  if another key used it first (which then loses it; logged), and nobody else may use it.

letting only friends in:
  Keep the default --host 127.0.0.1 unless others must connect.  On a network, use
  --authorized-keys with your friends' public keys (only those keys get in, under the
  names you gave them) or a --password you tell them (anyone who knows it gets in).
  With neither, anyone who can reach the address plays.

the door:
  Connections still logging in do not count against --max-sessions; they get
  --login-grace seconds, and past 8 of them from one address (128 in all) the oldest
  is closed.  Each worker keeps its own door with its share of these caps (8 / workers
  and 128 / workers, at least 1), so the totals hold across workers.  Each wrong
  password is logged with the address and the user, answered after a delay that
  doubles per failure from that address (1 s, 2 s, ... 16 s; counted over all
  workers by the game service), and
  the third on one connection closes it.  Refusals say why: "the server is full"
  (--max-sessions) is not "table N is full" (its seats).

session workers:
  This process is the game service: the lobby, every table and game, bots, chat, who is
  who, the records. --workers N processes (default one per core) each listen on the same
  port (SO_REUSEPORT: the kernel spreads connections over them), run the SSH door and
  their players' screens, and are sent only their own players' seat views.  Drawing the
  screens is nearly all the work of a move, so give the server one worker per core it
  may use: fewer leave cores idle, more only add memory (about 60 MiB each) - though a
  worker that dies takes fewer players with it (they reconnect to their kept seats; a
  new worker starts a second later).  Count about 3 MiB per player on top, and a core for
  about 35 moves a second across all tables.

kept tables:
  Every game in progress is written down as it is played, in the "tables" folder of
  the server's data folder (one small SQLite file per table).  Started again on the same
  data folder, rummy serve brings every unfinished game back to the lobby under its old
  number: the same hands, turn and scores.  Each player keeps their seat for --grace
  seconds from the restart (by their key, or with the rejoin code their table showed);
  then a bot plays it until they come back.  A finished game is recorded and forgotten;
  a kept table that cannot be read is logged and skipped (the others come back).
  --list-tables shows the kept tables; --drop-table N forgets one (server stopped).

turns keep moving:
  Each turn has --turn-timeout seconds (counted down on the table); then the seat's
  bot plays that turn.  A player who drops keeps their seat for --grace seconds, then
  the bot plays it until they come back; a frozen connection is noticed within about
  3 x --keepalive seconds.  Reconnecting puts a player straight back at their seat,
  closing their old session if it still lingers.
"""


def finite_float(text: str) -> float:
    """A number of seconds for an option: `nan` and `inf` are refused as usage errors."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number: {text!r}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, not {text!r}")
    return number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG + serve_link.EPILOG
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
        help="admit only players whose public key is in this authorized_keys file "
        "(a line may name its player: see below)",
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
        type=finite_float,
        default=DEFAULT_IDLE_TIMEOUT / 60,
        metavar="MINUTES",
        help=f"disconnect players idle this long (default {DEFAULT_IDLE_TIMEOUT // 60}; 0 = never)",
    )

    parser.add_argument(
        "--list-tables",
        action="store_true",
        help="list the games kept for a restart (see below), then exit",
    )
    parser.add_argument(
        "--drop-table",
        type=int,
        metavar="N",
        help="forget kept game N (as --list-tables numbers it) with the server stopped, "
        "then exit",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="SSH session worker processes (default: one per core, here "
        f"{default_workers()}; see below); 0: everything in this one process",
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
        type=finite_float,
        default=LobbyConfig.bot_delay,
        metavar="SECONDS",
        help=f"pause before each bot move, so players can follow (default "
        f"{LobbyConfig.bot_delay:g})",
    )
    parser.add_argument(
        "--grace",
        type=finite_float,
        default=LobbyConfig.grace,
        metavar="SECONDS",
        help=f"how long a player who dropped keeps their seat before a bot plays it "
        f"(default {LobbyConfig.grace:g}); they take it back by reconnecting (same key, or "
        "their rejoin code)",
    )
    parser.add_argument(
        "--turn-timeout",
        type=finite_float,
        default=LobbyConfig.turn_timeout,
        metavar="SECONDS",
        help=f"time for each turn, counted down on the table; then the seat's bot plays "
        f"that turn (default {LobbyConfig.turn_timeout:g}; 0 = no limit)",
    )
    parser.add_argument(
        "--keepalive",
        type=finite_float,
        default=DEFAULT_KEEPALIVE,
        metavar="SECONDS",
        help=f"probe each connection this often; {KEEPALIVE_COUNT} unanswered probes drop "
        f"it (default {DEFAULT_KEEPALIVE:g})",
    )
    parser.add_argument(
        "--login-grace",
        type=finite_float,
        default=DoorLimits.login_grace,
        metavar="SECONDS",
        help=f"time a connection has to log in (default {DoorLimits.login_grace:g})",
    )
    parser.add_argument(
        "--proxy-protocol",
        type=_balancers,
        metavar="ADDR[,ADDR...]",
        help="the load balancers (addresses or networks) in front of this port: their "
        "connections must begin with a PROXY protocol header (HAProxy's send-proxy-v2), "
        "whose player address the door and logs use; see docs/haproxy.cfg",
    )
    serve_link.add_arguments(parser)


def _balancers(text: str) -> Balancers:
    try:
        return Balancers.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


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


def _join_hint(server: Server | WorkerRoom) -> str:
    host = server.host if server.host not in ("", "0.0.0.0", "::") else "THIS-MACHINE"
    port = "" if server.port == 22 else f"-p {server.port} "
    return f"ssh {port}YOUR-NAME@{host}"


def name_book(path: Path, authorized_keys: Path | None) -> NameBook:
    """The server's names database, told the names the host gave keys in
    `authorized_keys`.  The service reads that file itself: a session worker's word that
    a key was named is never needed, nor believed.  `ServeError` for an unusable file."""
    from tui.service.identity import NameBook

    host_names = (load_authorized_keys(authorized_keys).host_names()
                  if authorized_keys is not None else {})
    return NameBook(path, host_names)


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
    keepalive: float = DEFAULT_KEEPALIVE,
    door_limits: DoorLimits | None = None,
    names_path: Path | None = None,
    workers: int = 0,
    keep_tables: bool = True,
    service_link: tuple[tuple[str, int], ssl.SSLContext] | None = None,
    proxy_protocol: Balancers | None = None,
) -> int:
    """Serve until `stop` is set (or SIGINT/SIGTERM), then close every session.

    `app_factory` None serves the card room: the app at a lobby set by `lobby_config`,
    in this process (`workers` 0) or hosted by `workers` worker processes that play
    through this process's game service; the names SSH keys own are kept in `names_path`
    (default: `NAMES_FILE` in the user data folder), and with `keep_tables` every game
    in progress in its "tables" folder (`tui.service.table_keeper`).  `service_link`
    (an address and TLS context) lets worker machines link to the service over TCP.
    `proxy_protocol` names the load balancers in front of the SSH port.
    """
    lobby: Lobby | None = None
    keeper: TableKeeper | None = None
    on_session_end = None
    if app_factory is None:
        from tui.paths import user_data_dir

        lobby = Lobby(lobby_config,
                      names=name_book(names_path or user_data_dir() / NAMES_FILE,
                                      authorized_keys))
        apps = LobbyApps(lobby)
        app_factory, on_session_end = apps, apps.session_ended
        keeper = _keep_tables(lobby, report) if keep_tables else None
    warning = exposure_warning(host)
    if warning:
        report(warning)
    if (workers > 0 or service_link is not None) and lobby is not None:
        listen, tls = service_link if service_link is not None else (None, None)
        room: Server | WorkerRoom = await WorkerRoom.open(
            lobby, workers, host, port, host_key=host_key, authorized_keys=authorized_keys,
            password=password, max_sessions=max_sessions, idle_timeout=idle_timeout,
            keepalive=keepalive, door_limits=door_limits, service_listen=listen, tls=tls,
            proxy_protocol=None if proxy_protocol is None else str(proxy_protocol))
    else:
        room = await start_server(
            app_factory,
            host,
            port,
            host_key_path=host_key,
            authorized_keys=authorized_keys,
            password=password,
            max_sessions=max_sessions,
            idle_timeout=idle_timeout,
            on_session_end=on_session_end,
            keepalive_interval=keepalive,
            door_limits=door_limits,
            proxy_protocol=proxy_protocol,
        )
    server = room
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
    where = (f" ({workers} session workers, pids {', '.join(map(str, room.pool.pids()))})"
             if isinstance(room, WorkerRoom) else "")
    if isinstance(room, WorkerRoom) and room.link_port is not None and service_link:
        report(f"Game service taking worker machines on {service_link[0][0]}:"
               f"{room.link_port} (TLS).")
    if isinstance(room, WorkerRoom) and workers == 0:
        report("Game service only: no players connect to this machine (--workers 0); "
               "they join through the worker machines.\nPress Ctrl+C to close the table.")
    else:
        report(f"rummy-tui table listening on {host}:{server.port} ({access}){where}.\n"
               f"Players join with:  {_join_hint(server)}\n"
               f"Host key {server.host_key_fingerprint} ({server.host_key_path})\n"
               "Press Ctrl+C to close the table.")
    if proxy_protocol is not None:
        report(f"Behind a load balancer: PROXY protocol headers are taken from "
               f"{proxy_protocol} only.")
    try:
        await stop.wait()
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
        report("Closing the table...")
        if keeper is not None:
            keeper.stop()  # the games in progress stay kept as their tables close
        await server.close()
        if lobby is not None:
            lobby.close()
            lobby.names.close()
        if keeper is not None:
            keeper.close()
    return 0


def tables_folder() -> Path:
    """Where the server keeps its games in progress."""
    from tui.paths import user_data_dir
    from tui.service.kept_tables import TABLES_DIR

    return user_data_dir() / TABLES_DIR


def _keep_tables(lobby: Lobby, report: Callable[[str], None]) -> TableKeeper | None:
    """Keep `lobby`'s games in the tables folder, and bring back the ones kept there."""
    from tui.service.table_keeper import TableKeeper

    keeper = TableKeeper.open(tables_folder(), lobby)
    if keeper is not None:
        back = keeper.restore()
        if back:
            report(f"Brought back {len(back)} kept game(s): table "
                   + ", ".join(map(str, back)) + ".")
    return keeper


def _kept_tables_command(args: argparse.Namespace) -> int:
    """`--list-tables` / `--drop-table N`: the host's look at the kept games."""
    from tui.service.kept_tables import KeptTableError
    from tui.service.table_keeper import describe_kept, drop_kept

    folder = tables_folder()
    if args.drop_table is not None:
        try:
            print(drop_kept(folder, args.drop_table))
        except KeptTableError as error:
            print(f"rummy serve: error: {error}", file=sys.stderr)
            return 2
        return 0
    lines = describe_kept(folder)
    print(f"Kept games in {folder}:" if lines else f"No kept games in {folder}.")
    for line in lines:
        print(line)
    return 0


def run(args: argparse.Namespace, app_factory: AppFactory | None = None) -> int:
    """The `rummy serve` command."""
    if getattr(args, "list_tables", False) or getattr(args, "drop_table", None) is not None:
        return _kept_tables_command(args)
    if getattr(args, "make_certs", None) is not None:
        return serve_link.make_certs_command(args)
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
        if args.turn_timeout < 0:
            raise ServeError(f"--turn-timeout {args.turn_timeout:g}: cannot be negative")
        if not 0.5 <= args.keepalive <= 600:
            raise ServeError(f"--keepalive {args.keepalive:g}: must be between 0.5 and 600 "
                             "seconds")
        if not 1 <= args.login_grace <= 600:
            raise ServeError(f"--login-grace {args.login_grace:g}: must be between 1 and 600 "
                             "seconds")
        workers = default_workers() if args.workers is None else args.workers
        if not 0 <= workers <= 256:
            raise ServeError(f"--workers {workers}: must be between 0 and 256")
        lobby_config = LobbyConfig(
            max_tables=args.max_tables, bot_delay=args.bot_delay, grace=args.grace,
            turn_timeout=args.turn_timeout or None,
        )
        password = _resolve_password(args.password)
        idle = args.idle_timeout * 60 or None
        link = serve_link.service_link(args)
        if args.workers_only:
            return serve_link.workers_only_command(WorkerSettings(
                args.host, args.port, str(args.host_key) if args.host_key else "",
                None if args.authorized_keys is None else str(args.authorized_keys),
                args.max_sessions, idle, args.keepalive, args.login_grace,
                args.service, None if args.tls is None else str(args.tls),
                proxy_protocol=None if args.proxy_protocol is None
                else str(args.proxy_protocol)),
                workers, password)
        if workers == 0:  # every player's app in this process, as in a worker
            from tui.app.collector import tune_collector

            tune_collector()
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
                keepalive=args.keepalive,
                door_limits=DoorLimits(login_grace=args.login_grace),
                workers=workers,
                service_link=link,
                proxy_protocol=args.proxy_protocol,
            )
        )
    except (ServeError, HostKeyError) as error:
        print(f"rummy serve: error: {error}", file=sys.stderr)
        return 2
