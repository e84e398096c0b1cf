"""SSH session workers: the processes that host the players' Textual apps.

`rummy serve` runs the game service (`tui.service.authority`) in its own process and
starts `WorkerPool.count` workers (by default one per core).  The pool makes one
listening socket per worker, all on the same address with `SO_REUSEPORT`, so the kernel
spreads new connections over them and rendering uses every core; each worker serves on
the one it is handed and talks to the service over a local Unix socket
(`tui.net.remote`).  The pool keeps the sockets: a connection that arrives while a worker
is being replaced waits in its socket's queue for the next one instead of being reset.
A worker that dies takes only its own sessions: the pool starts a new one, and the
players who were on it find their seats kept when they reconnect.

A worker left empty for a while (`RETIRE_IDLE`) after its players made it grow
(`RETIRE_GROWTH`) retires: a Python process does not give back most of the memory its
busiest moment took (see docs/performance.md), a fresh one starts small.  It stops
accepting, leaves the service and exits with `RETIRED`, and the pool starts a fresh
worker on the same socket at once.

The same pool runs the workers of a worker machine (`rummy serve --workers-only`,
`tui.net.worker_machine`): there each worker links to the game service on another
machine over TCP and TLS (`WorkerSettings.service`, `.tls`) and keeps that link through
outages instead of ending with it.

Run one by hand (the pool does this): `python -m tui.net.workers [--socket PATH] --worker
N --settings JSON [--listen-fd FD]` (the table password, if any, comes in
`RUMMY_TABLE_PASSWORD`; without `--listen-fd` the worker listens by itself and never
retires).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shutil
import signal
import socket
import ssl
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.app.collector import tune_collector
from tui.net.door import DoorLimits
from tui.net.proxy_protocol import Balancers
from tui.net.remote import OUT_OF_REACH, Connector, RemoteGuest, ServiceDoor, ServiceLink
from tui.net.session import SessionInfo, SessionRefused
from tui.net.socket_dirs import private_socket_dir
from tui.service.authority import GameService
from tui.service.door_keeper import DoorKeeper
from tui.service.lobby import Lobby

if TYPE_CHECKING:
    import asyncssh
    from textual.app import App

    from tui.net.server import Server

log = logging.getLogger(__name__)

PASSWORD_ENV = "RUMMY_TABLE_PASSWORD"
RESTART_DELAY = 1.0
START_TIMEOUT = 60.0
RETIRE_IDLE = 20.0
"""Seconds without any connection after which a grown worker retires."""
RETIRE_GROWTH = 40.0
"""MiB a worker's resident memory must have grown since it started for it to retire."""
RETIRED = 75
"""The exit status of a worker that retired (not a failure: replaced at once)."""
MIB = 1 << 20


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class WorkerSettings:
    """What every worker of one server is started with (the password travels apart)."""

    host: str
    port: int
    host_key: str
    authorized_keys: str | None = None
    max_sessions: int = 64
    idle_timeout: float | None = None
    keepalive: float = 5.0
    login_grace: float = 15.0
    service: str | None = None
    """HOST:PORT of the game service on another machine (None: its Unix socket here)."""
    tls: str | None = None
    """The folder of this worker machine's certificate, key and CA (`tui.net.certs`)."""
    proxy_protocol: str | None = None
    """The load balancers whose PROXY header names the player (`--proxy-protocol`)."""
    retire_idle: float | None = RETIRE_IDLE
    """Seconds without any connection before a grown worker retires (None: never)."""
    retire_growth: float = RETIRE_GROWTH
    """MiB over its resident memory once started that a worker must have to retire."""

    def door_limits(self) -> DoorLimits:
        """The worker's own door (see `tui.net.door`): it answers only when the game
        service, which keeps the door for every worker at once, does not."""
        return DoorLimits(login_grace=self.login_grace)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> WorkerSettings:
        return cls(**json.loads(text))


class WorkerApps:
    """The app factory of a worker: each session gets the whole app, opened at the
    service's lobby as a remote guest named after its SSH user."""

    def __init__(self, link: ServiceLink) -> None:
        self.link = link
        self._guests: dict[int, RemoteGuest] = {}

    def __call__(self, info: SessionInfo) -> App[Any]:
        from tui.app.app import RummyApp
        from tui.app.environment import AppEnvironment
        from tui.app.settings import SettingsStore
        from tui.paths import player_rulesets_dir

        if self.link.closed.is_set():
            raise SessionRefused(OUT_OF_REACH)
        guest = self.link.open_session(
            info.id, info.player_name, info.key,
            turned_away=lambda why: turn_away(info, why),
            replaced=lambda: info.close("You connected again from elsewhere: this older "
                                        "session is closed."))
        self._guests[info.id] = guest
        env = AppEnvironment(
            settings_store=SettingsStore(None),
            save_path=None,
            player_name=info.player_name,
            drive_bots=False,
            can_quit_to_shell=False,
            lobby=guest,
            rulesets_dir=player_rulesets_dir(info.player_name),
            rulesets_confined=True,
        )
        return RummyApp(env)

    def session_ended(self, info: SessionInfo) -> None:
        guest = self._guests.pop(info.id, None)
        if guest is not None:
            guest.close()
        if not self._guests:  # the last player left: give the memory back
            asyncio.get_running_loop().call_later(1.0, self._release_memory)

    def _release_memory(self) -> None:
        if self._guests:
            return
        import gc

        gc.collect()
        release_freed_memory()


def release_freed_memory() -> None:
    """Hand the C allocator's freed pages back to the system (glibc keeps them for reuse
    otherwise: an empty worker would stay as big as its busiest moment)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return
    try:
        ctypes.CDLL(name).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def turn_away(info: SessionInfo, why: str) -> None:
    """The service refused this player (a name not theirs, the server full): the app
    closes with `why` shown and the `ssh` command exits non-zero, as for any refusal."""
    info.close(f"rummy-tui: {why}")
    app = info.app
    if app is not None:  # (after close: its exit would set the status back to 0)
        app.exit(return_code=1)


def resident_bytes() -> int | None:
    """This process's resident memory now (None where /proc does not say)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class Retirement:
    """Watches for the moment an empty worker should make way for a fresh process: no
    connection at all for `idle` seconds (no session, no login in progress) while its
    resident memory is `growth` MiB over what it was once started."""

    def __init__(self, server: Server, link: ServiceLink, idle: float, growth: float
                 ) -> None:
        self.server = server
        self.link = link
        self.idle = idle
        self.growth = growth * MIB
        self.start = resident_bytes()
        self.quiet_for = 0.0
        """Seconds the worker had been without connections when it retired."""

    async def wait(self) -> int:
        """Once it is time, stop listening and return the resident bytes then.  The
        socket stays open (the pool keeps it): connections arriving from then on wait in
        its queue for the next worker.  One accepted just before is served here, and
        the worker listens again and retires later."""
        loop = asyncio.get_running_loop()
        check = max(0.02, min(self.idle / 4, 1.0))
        quiet_since = loop.time()
        while True:
            await asyncio.sleep(check)
            now = loop.time()
            if not self.server.quiet or self.link.closed.is_set():
                quiet_since = now
                continue
            resident = resident_bytes()
            if now - quiet_since < self.idle or resident is None or self.start is None \
                    or resident - self.start < self.growth:
                continue
            self.server.stop_listening()
            # A connection the loop accepted before the listener closed is counted by the
            # time its task has run once: give it that turn.
            for _ in range(3):
                await asyncio.sleep(0)
            if self.server.quiet:
                self.quiet_for = now - quiet_since
                return resident
            log.info("a player arrived as this worker was retiring: it stays for now")
            await self.server.listen_again()
            quiet_since = loop.time()


async def run_worker(socket_path: Path | None, worker: int, settings: WorkerSettings,
                     password: str | None = None, listen_fd: int | None = None) -> int:
    """Serve SSH sessions for the game service at `socket_path` until it goes away or
    this process is told to stop; or, with `settings.service`, for the game service on
    another machine, kept linked through its outages, until this process is told to
    stop.  On `listen_fd`, a listening socket the pool keeps, if given (else on
    `settings.host:port`, by itself); only then does the worker retire (`RETIRED`)."""
    from tui.net.startup import start_server

    if settings.service is None:
        assert socket_path is not None, "a worker on the service's machine has its socket"
        link = await ServiceLink.connect(socket_path, worker)
    else:
        link = ServiceLink(worker)
    apps = WorkerApps(link)
    sock = None if listen_fd is None else socket.socket(fileno=listen_fd)
    server = await start_server(
        apps, settings.host, settings.port, host_key_path=settings.host_key,
        authorized_keys=settings.authorized_keys, password=password,
        max_sessions=settings.max_sessions, idle_timeout=settings.idle_timeout,
        on_session_end=apps.session_ended, reuse_port=sock is None, sock=sock,
        keepalive_interval=settings.keepalive,
        door_limits=settings.door_limits(),
        proxy_protocol=Balancers.parse(settings.proxy_protocol)
        if settings.proxy_protocol else None)
    server.doorway = ServiceDoor(link, server.door)  # one door for every worker
    link.on_evict = server.close_crowded
    if settings.service is None:
        link.hello()
    else:
        link.keep(_dialler(settings))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    gone = loop.create_task(link.closed.wait() if settings.service is None
                            else asyncio.Event().wait())  # (a kept link is never gone)
    stopped = loop.create_task(stop.wait())
    waits: list[asyncio.Task[Any]] = [gone, stopped]
    retirement = retiring = None
    if sock is not None and settings.retire_idle is not None:
        retirement = Retirement(server, link, settings.retire_idle, settings.retire_growth)
        retiring = loop.create_task(retirement.wait())
        waits.append(retiring)
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    retired = retiring is not None and retiring.done() and not stopped.done() \
        and not gone.done()
    for task in waits:
        task.cancel()
    if retired:
        assert retirement is not None and retiring is not None
        assert retirement.start is not None
        resident = retiring.result()
        log.info("retiring after %.0f s without players: %.0f MiB given back (%.0f over "
                 "its start); a fresh worker takes this one's place",
                 retirement.quiet_for, resident / MIB, (resident - retirement.start) / MIB)
        link.bye()
    await server.close()
    await link.close()
    return RETIRED if retired else 0


def _dialler(settings: WorkerSettings) -> Connector:
    """Dials the game service on another machine, over TLS (`tui.net.tls_link`)."""
    from tui.net.tls_link import dial, parse_address, worker_context

    assert settings.service is not None and settings.tls is not None
    host, port = parse_address(settings.service, "--service")
    context = worker_context(Path(settings.tls))
    return lambda: dial(host, port, context)


def listening_socket(host: str, port: int) -> socket.socket:
    """A `SO_REUSEPORT` socket listening on `host:port`, one of a pool's: it outlives
    the workers that serve on it (`OSError` if the address cannot be had)."""
    from tui.net.acceptor import BACKLOG

    sock = reserve_port(host, port)
    try:
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def reserve_port(host: str, port: int) -> socket.socket:
    """Bind (without listening) a `SO_REUSEPORT` socket to `host:port`, so the workers
    can all listen there; with port 0 this picks the port.  `OSError` if it is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def hold_front(host: str, port: int, host_key: Path | str | None,
               authorized_keys: Path | str | None) -> tuple[asyncssh.SSHKey, Path, socket.socket]:
    """What every worker will present to players, checked and held here before any
    starts, so a bad setting is told once (`ServeError`) instead of by each worker: the
    host key (made on first start; returned with its file), the authorized_keys file,
    and the port they will share (`reserve_port`)."""
    from tui.net.hostkey import load_host_key
    from tui.net.startup import ServeError, load_authorized_keys

    key, key_path = load_host_key(host_key)
    if authorized_keys is not None:
        load_authorized_keys(authorized_keys)
    try:
        reserved = reserve_port(host, port)
    except OSError as error:
        raise ServeError(f"cannot listen on {host}:{port}: "
                         f"{error.strerror or error}") from None
    return key, key_path, reserved


class WorkerPool:
    """A machine's workers: started, watched, restarted when one dies, replaced at
    once when one retires (linked to the service at `socket_path`, or with
    `settings.service`, to one on another machine).  Each worker's place has its
    listening socket, made here and kept for as long as the pool runs."""

    def __init__(self, socket_path: Path | None, settings: WorkerSettings, count: int,
                 password: str | None = None) -> None:
        self.socket_path = socket_path
        self.settings = settings
        self.count = count
        self.password = password
        self.processes: dict[int, asyncio.subprocess.Process] = {}
        self.listeners: dict[int, socket.socket] = {}
        self.restarts = 0
        """Workers started again after one ended without retiring (a crash, a kill)."""
        self.retirements = 0
        """Workers replaced after they retired (`RETIRED`)."""
        self._watchers: list[asyncio.Task[None]] = []
        self._stopping = False

    async def start(self) -> None:
        for worker in range(self.count):
            await self._spawn(worker)
            self._watchers.append(asyncio.get_running_loop().create_task(
                self._watch(worker), name=f"worker-{worker}-watch"))

    async def _spawn(self, worker: int) -> None:
        import tui

        env = dict(os.environ)
        root = str(Path(tui.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        env.pop(PASSWORD_ENV, None)
        if self.password is not None:
            env[PASSWORD_ENV] = self.password
        where = [] if self.socket_path is None else ["--socket", str(self.socket_path)]
        listener = self.listeners.get(worker)
        if listener is None:
            listener = self.listeners[worker] = listening_socket(self.settings.host,
                                                                 self.settings.port)
        fd = listener.fileno()
        self.processes[worker] = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.net.workers", *where,
            "--worker", str(worker), "--settings", self.settings.to_json(),
            "--listen-fd", str(fd), env=env, pass_fds=(fd,))

    async def _watch(self, worker: int) -> None:
        while not self._stopping:
            code = await self.processes[worker].wait()
            if self._stopping:
                return
            if code == RETIRED:  # (it said so in its own log): replaced at once
                self.retirements += 1
            else:
                log.error("worker %s (pid %s) ended with status %s; starting another",
                          worker, self.processes[worker].pid, code)
                self.restarts += 1
                await asyncio.sleep(RESTART_DELAY)
                if self._stopping:
                    return
            await self._spawn(worker)

    def pids(self) -> list[int]:
        return [process.pid for process in self.processes.values()]

    async def stop(self) -> None:
        """Ask every worker to finish (players are told), then wait for them."""
        self._stopping = True
        for task in self._watchers:
            task.cancel()
        for process in self.processes.values():
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                await asyncio.wait_for(process.wait(), 15)
            except TimeoutError:
                process.kill()
                await process.wait()
        for listener in self.listeners.values():
            listener.close()
        self.listeners.clear()


class WorkerRoom:
    """A card room served by worker processes: the game service, the reserved port and
    the pool of workers (what `rummy serve` runs by default)."""

    def __init__(self, service: GameService, pool: WorkerPool, reserved: socket.socket,
                 socket_dir: Path, host: str, key_path: Path, fingerprint: str) -> None:
        self.service = service
        self.pool = pool
        self._reserved = reserved
        self._socket_dir = socket_dir
        self.host = host
        self.port: int = reserved.getsockname()[1]
        self.host_key_path = key_path
        self.host_key_fingerprint = fingerprint
        self.link_port: int | None = None
        """The TCP port worker machines link to (None: no `--service-listen`)."""

    @classmethod
    async def open(cls, lobby: Lobby, workers: int, host: str, port: int, *,
                   host_key: Path | str | None, authorized_keys: Path | str | None,
                   password: str | None, max_sessions: int,
                   idle_timeout: float | None, keepalive: float = 5.0,
                   door_limits: DoorLimits | None = None,
                   service_listen: tuple[str, int] | None = None,
                   tls: ssl.SSLContext | None = None,
                   proxy_protocol: str | None = None,
                   retire_idle: float | None = RETIRE_IDLE,
                   retire_growth: float = RETIRE_GROWTH) -> WorkerRoom:
        """Start the service and `workers` workers; `ServeError` for unusable settings.
        With `service_listen` the service also takes worker machines' links on that TCP
        address, through TLS with `tls` (`tui.net.tls_link.service_context`).
        `proxy_protocol`: the load balancers in front (`tui.net.proxy_protocol`).
        `retire_idle`, `retire_growth`: when an empty worker retires (`Retirement`)."""
        from tui.net.startup import ServeError

        if max_sessions < 1:
            raise ServeError("--max-sessions must be at least 1")
        key, key_path, reserved = hold_front(host, port, host_key, authorized_keys)
        socket_dir = private_socket_dir()
        path = socket_dir / "service.sock"
        service = GameService(lobby, max_sessions,
                              DoorKeeper((door_limits or DoorLimits()).rules()))
        await service.listen(path)
        link_port = None
        if service_listen is not None:
            assert tls is not None, "a service link over TCP is always TLS"
            try:
                link_port = await service.listen_tls(*service_listen, tls)
            except OSError as error:
                await service.close()
                reserved.close()
                raise ServeError(f"--service-listen {service_listen[0]}:{service_listen[1]}: "
                                 f"{error.strerror or error}") from None
        settings = WorkerSettings(host, reserved.getsockname()[1], str(key_path),
                                  None if authorized_keys is None else str(authorized_keys),
                                  max_sessions, idle_timeout, keepalive,
                                  (door_limits or DoorLimits()).login_grace,
                                  proxy_protocol=proxy_protocol, retire_idle=retire_idle,
                                  retire_growth=retire_growth)
        pool = WorkerPool(path, settings, workers, password)
        room = cls(service, pool, reserved, socket_dir, host, key_path,
                   key.get_fingerprint())
        room.link_port = link_port
        await pool.start()
        try:
            await service.wait_workers(workers, START_TIMEOUT)
        except TimeoutError:
            await room.close()
            raise ServeError(f"the session workers did not start within "
                             f"{START_TIMEOUT:g} seconds") from None
        return room

    async def close(self) -> None:
        """Stop the workers (their players are told), then the service."""
        await self.pool.stop()
        await self.service.close()
        self._reserved.close()
        shutil.rmtree(self._socket_dir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="one SSH session worker of `rummy serve`")
    parser.add_argument("--socket", type=Path)
    parser.add_argument("--worker", type=int, required=True)
    parser.add_argument("--settings", required=True)
    parser.add_argument("--listen-fd", type=int)
    args = parser.parse_args(argv)
    if args.listen_fd is not None:
        try:  # (a socket there, or the worker would end in a traceback)
            socket.socket(fileno=args.listen_fd).detach()
        except OSError as error:
            parser.error(f"--listen-fd {args.listen_fd}: {error.strerror or error}")
    logging.basicConfig(level=logging.INFO, datefmt="%H:%M:%S",
                        format=f"%(asctime)s [worker {args.worker}] %(message)s")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    settings = WorkerSettings.from_json(args.settings)
    tune_collector()  # this process only hosts apps (see tui.app.collector)
    return asyncio.run(run_worker(args.socket, args.worker, settings,
                                  os.environ.get(PASSWORD_ENV), args.listen_fd))


if __name__ == "__main__":
    sys.exit(main())
