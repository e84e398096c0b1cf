"""Benchmark: the SSH card room with N players at shared tables (loopback only).

The server runs as `rummy serve` does: the game service in a child process and its SSH
session workers as that child's children (`--workers 1,2`: one worker, then two side by
side; 0 runs everything in the one child process, as before the service/worker split).
For N concurrent sessions (10, 25, 50 by default) seated at tables of 4 (a remainder of
2-3 makes a smaller table, a remainder of 1 watches the first table), it prints:
- how long the N players take to reach the lobby, and the server CPU it costs each;
- server memory per session: RSS of the service and every worker, read from /proc
  before the N players connect and once they all sit at dealt tables (after a warm-up,
  so imported modules and caches are not charged to the players);
- action-to-every-screen latency: at every table at once, the player to move presses a
  key (draw, then discard, ...); the time until the effect shows on *every* screen at
  that table (players and spectator, as their terminal emulators show it) - median,
  95th percentile and max over all tables and actions - and the same per single screen;
  then one table plays alone while every other player sits (what a move feels like);
- server CPU time per action (service and workers together, and the workers' share),
  and the server's CPU use while everyone sits idle;
- the players' side CPU time per action (this process: SSH decryption and the terminal
  emulators), which competes with the server for the same cores, and the bytes a screen
  receives per move.

Players sit down through the lobby service (the child seats the connected guests), then
play only by keys.  The players' terminals (asyncssh clients with terminal emulators) run
in this process, on the same machine: their CPU is not the server's, but it competes for
the same cores.  Bounded: at most 104 sessions (26 tables of 4), a few actions, a global
time limit, only 127.0.0.1.  Run: `python tests/bench/bench_ssh_tables.py [--sizes 10,25,50]
[--actions 6] [--table-size 4] [--workers 1,2] [--kept no,yes] [--link no,yes,haproxy]`
(the modes side by side at each size; `--link yes`: each worker count also as a worker
machine linked to the service over TCP+TLS, as `rummy serve --workers-only` runs;
`--link haproxy`: the workers as two such machines (127.0.0.2 and 127.0.0.3, half the
workers each) behind HAProxy with the shipped docs/haproxy.cfg and the PROXY protocol,
HAProxy's CPU counted as the server's; `--kept no,yes`:
each mode with and without the tables kept on disk, and the service's write system calls
and bytes per move: the cost of durability; `tests/bench/bench_kept_tables.py` measures the
keeping alone).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

import server_child
from server_child import ROOT, cpu_seconds, live_apps, rss_kib

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TIME_LIMIT = 1800.0  # seconds for the whole run
MAX_SESSIONS = 104
IDLE_SECONDS = 3.0
RULES = "three_thirteen"


# -- the server side (child process) ------------------------------------------------


def _seat(guests: list, size: int) -> list[dict]:  # noqa: ANN001 - lobby Guests
    """Seat every guest not at a table yet: tables of `size`, the remainder smaller (or
    watching the first new table when it is one person)."""
    free = sorted((g for g in guests if g.handle is None), key=lambda g: int(g.name[1:]))
    groups = [free[i:i + size] for i in range(0, len(free), size)]
    watcher = None
    if len(groups) > 1 and len(groups[-1]) == 1:
        watcher = groups.pop()[0]
    tables = []
    for group in groups:
        host = group[0]
        host.create(RULES, len(group), "medium")
        shared = host.shared
        for guest in group[1:]:
            guest.join(shared.id)  # the last one fills the table: it deals
        tables.append({"id": shared.id, "players": [g.name for g in group], "watchers": []})
    if watcher is not None and tables:
        watcher.watch(tables[0]["id"])
        tables[0]["watchers"].append(watcher.name)
    return tables


async def _linked_room(lobby, workers: int):  # noqa: ANN001, ANN202 - Lobby, rooms
    """The game service alone on 127.0.0.4 and a worker machine (`rummy serve
    --workers-only`: `workers` processes on 127.0.0.1) linked to it over TCP and TLS:
    every move crosses the link the way it does between machines."""
    from pathlib import Path

    from tui.net.certs import make_certs
    from tui.net.tls_link import service_context
    from tui.net.worker_machine import WorkerMachine
    from tui.net.workers import WorkerRoom, WorkerSettings

    certs = Path(os.environ["RUMMY_HOME"]) / "certs"
    make_certs(certs, "127.0.0.4", ["bench"])
    room = await WorkerRoom.open(lobby, 0, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=None,
                                 max_sessions=MAX_SESSIONS + 4, idle_timeout=900,
                                 service_listen=("127.0.0.4", 0),
                                 tls=service_context(certs / "service"))
    machine = await WorkerMachine.open(WorkerSettings(
        "127.0.0.1", 0, "", max_sessions=MAX_SESSIONS + 4, idle_timeout=900,
        service=f"127.0.0.4:{room.link_port}", tls=str(certs / "bench")), workers, None)
    await room.service.wait_workers(workers, 60)
    return room, machine


async def _balanced_room(lobby, workers: int):  # noqa: ANN001, ANN202 - Lobby, rooms
    """As `_linked_room`, but two worker machines (127.0.0.2 and 127.0.0.3, half the
    workers each) behind HAProxy on 127.0.0.1, which sends each player's address in a
    PROXY header: the whole of "more than one machine" in docs/server.md."""
    from pathlib import Path

    from tests.support.haproxy_kit import HAPROXY, HAProxy
    from tui.net.certs import make_certs
    from tui.net.tls_link import service_context
    from tui.net.worker_machine import WorkerMachine
    from tui.net.workers import WorkerRoom, WorkerSettings

    if HAPROXY is None:
        raise SystemExit("--link haproxy needs haproxy (Debian package haproxy)")
    certs = Path(os.environ["RUMMY_HOME"]) / "certs"
    make_certs(certs, "127.0.0.4", ["w1", "w2"])
    room = await WorkerRoom.open(lobby, 0, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=None,
                                 max_sessions=MAX_SESSIONS + 4, idle_timeout=900,
                                 service_listen=("127.0.0.4", 0),
                                 tls=service_context(certs / "service"))
    each = max(1, workers // 2)
    machines = [await WorkerMachine.open(WorkerSettings(
        host, 0, "", max_sessions=MAX_SESSIONS + 4, idle_timeout=900,
        service=f"127.0.0.4:{room.link_port}", tls=str(certs / name),
        proxy_protocol="127.0.0.1"), each, None)
        for name, host in (("w1", "127.0.0.2"), ("w2", "127.0.0.3"))]
    await room.service.wait_workers(2 * each, 60)
    haproxy = await HAProxy([f"127.0.0.2:{machines[0].port}",
                             f"127.0.0.3:{machines[1].port}"]).start()
    return room, machines, haproxy


async def _serve_child(workers: int, keep: bool = False, link: str = "") -> None:
    """Start the card room on 127.0.0.1:0 (with `workers` session workers, or all in this
    process for 0; with `keep`, every game written down as `rummy serve` keeps it), then
    answer one-line commands on stdin."""
    import gc

    from tui.commands.serve import LobbyApps
    from tui.net.startup import start_server
    from tui.net.workers import WorkerRoom
    from tui.service.lobby import Lobby, LobbyConfig

    # No turn timer: on a loaded machine a move may take longer to reach every screen
    # than a turn is allowed, and a bot playing it would break the script.
    lobby = Lobby(LobbyConfig(max_tables=40, bot_delay=0.3, grace=0.5, seed=7,
                              turn_timeout=0))
    keeper = None
    if keep:
        from tui.commands.serve import tables_folder
        from tui.service.table_keeper import TableKeeper

        keeper = TableKeeper.open(tables_folder(), lobby)
    machine = None
    balanced: list = []
    haproxy = None
    room = None
    if workers and link == "haproxy":
        room, balanced, haproxy = await _balanced_room(lobby, workers)
        server = room
        assert haproxy.process is not None
        haproxy_pid = haproxy.process.pid

        def worker_pids() -> list[int]:
            return [pid for m in balanced for pid in m.pool.pids()] + [haproxy_pid]
    elif workers and link:
        room, machine = await _linked_room(lobby, workers)
        server = machine
        worker_pids = machine.pool.pids
    elif workers:
        room = await WorkerRoom.open(lobby, workers, "127.0.0.1", 0, host_key=None,
                                     authorized_keys=None, password=None,
                                     max_sessions=MAX_SESSIONS + 4, idle_timeout=900)
        server = room
        worker_pids = room.pool.pids
    else:
        apps = LobbyApps(lobby)
        server = await start_server(apps, "127.0.0.1", 0, max_sessions=MAX_SESSIONS + 4,
                                    idle_timeout=900, on_session_end=apps.session_ended)
        worker_pids = list

    def guests() -> list:
        if room is None:
            return list(apps._guests.values())
        return [s.guest for link in room.service.links for s in link.sessions.values()]

    def sessions() -> int:
        return len(server.sessions) if room is None else room.service.session_count

    print(f"port {haproxy.port if haproxy is not None else server.port}", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        word, _, rest = line.partition(" ")
        if word in ("stats", "mem"):
            if word == "mem":
                gc.collect()
            workers_cpu = sum(cpu_seconds(pid) for pid in worker_pids())
            rss = rss_kib() + sum(rss_kib(pid) for pid in worker_pids())
            io = _io_counters()
            print(f"stats {rss} {cpu_seconds() + workers_cpu:.4f} {sessions()} "
                  f"{len(lobby.tables)} {workers_cpu:.4f} {io['syscw']} {io['wchar']}",
                  flush=True)
        elif word == "apps":  # (with workers, the apps live in their processes)
            print(f"apps {live_apps() if not workers else -1}", flush=True)
        elif word == "seat":
            print("seated " + json.dumps(_seat(guests(), int(rest))), flush=True)
        elif word == "quit":
            break
    if keeper is not None:
        keeper.stop()
    if haproxy is not None:
        await haproxy.stop()
    for each in balanced:
        await each.close()
    await server.close()
    if machine is not None:
        await room.close()
    lobby.close()
    if keeper is not None:
        keeper.close()


def _io_counters() -> dict[str, int]:
    """This process's write system calls and bytes so far (the service's: with workers,
    the players' screens are written by the workers)."""
    with open("/proc/self/io") as io:
        return {key: int(value) for key, value in (line.split(": ") for line in io)}


# -- the players' side (this process) -------------------------------------------------


class ServerProcess(server_child.ServerProcess):
    def __init__(self, home: str, workers: int, keep: bool = False, link: str = "") -> None:
        super().__init__(__file__, home, ("--workers", str(workers), *(("--keep",) * keep),
                                          *(("--linked", link) * bool(link))))
        self.workers = workers
        self.workers_cpu = 0.0
        self.writes = (0, 0)
        """The service's write system calls and bytes written so far (`/proc/PID/io`)."""

    def stats(self, collect: bool = False) -> tuple[int, float, int, int]:
        """(RSS KiB, CPU seconds, sessions, tables) of the server (service and workers)
        now; `collect` runs the service's garbage collector first (for memory figures,
        not CPU ones).  The workers' CPU seconds are kept in `workers_cpu`."""
        _, rss, cpu, sessions, tables, workers, syscw, wchar = self.ask(
            "mem" if collect else "stats").split()
        self.workers_cpu = float(workers)
        self.writes = (int(syscw), int(wchar))
        return int(rss), float(cpu), int(sessions), int(tables)

    def seat(self, size: int) -> list[dict]:
        return json.loads(self.ask(f"seat {size}").split(" ", 1)[1])


async def _stats(server: ServerProcess, collect: bool = False) -> tuple[int, float, int, int]:
    return await asyncio.to_thread(server.stats, collect)


async def _wait_empty(server: ServerProcess) -> tuple[int, float, int, int]:
    for _ in range(400):
        stats = await _stats(server, collect=True)
        if stats[2] == 0 and stats[3] == 0:
            return stats
        await asyncio.sleep(0.05)
    raise TimeoutError("the server never emptied")


async def _settle(server: ServerProcess, limit: float = 30.0) -> None:
    """Wait until the server has used under 5% of a core for a whole second."""
    started = time.perf_counter()
    _, last, _, _ = await _stats(server)
    while time.perf_counter() - started < limit:
        await asyncio.sleep(1.0)
        _, now, _, _ = await _stats(server)
        if now - last < 0.05:
            return
        last = now


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


Check = Callable[[str], bool]


def _expectations(screens: dict[str, str], players: list[str], watchers: list[str],
                  ) -> tuple[str, str, dict[str, Check]] | None:
    """Who is to move at a table (from the screens) and, for the key they press, what
    every screen at the table shows once the move has reached it."""
    for name in players:
        text = screens[name]
        for phase, key, after in (("draw", "s", "play"), ("play", "d", "draw")):
            if f"your {phase} " not in text:
                continue
            checks: dict[str, Check] = {}
            for other in players + watchers:
                if other == name:
                    checks[other] = (lambda t, a=after: f"your {a} " in t) if after == "play" \
                        else (lambda t: "'s draw " in t and "your play " not in t)
                elif after == "play":
                    checks[other] = lambda t, n=name: f"{n}'s play " in t
                else:
                    checks[other] = lambda t, n=name: f"{n}'s play " not in t and (
                        "'s draw " in t or "your draw " in t)
            return name, key, checks
    return None


async def _play_table(clients: dict, table: dict, actions: int,  # noqa: ANN001
                      every: list[float], single: list[float]) -> None:
    players, watchers = table["players"], table["watchers"]
    names = players + watchers
    for _ in range(actions):
        plan = None
        for _ in range(200):  # the previous move may still be reaching the actor's screen
            plan = _expectations({n: clients[n].text for n in names}, players, watchers)
            if plan is not None:
                break
            await asyncio.sleep(0.01)
        if plan is None:
            raise RuntimeError(f"nobody to move at table {table['id']}")
        actor, key, checks = plan
        sent = time.perf_counter()
        clients[actor].send(key)

        async def seen(name: str, check: Check = checks, sent: float = sent) -> float:
            client = clients[name]
            await client.wait_until(lambda: check[name](client.text), 300)
            return client.last_change - sent

        delays = await asyncio.gather(*(seen(n) for n in names))
        single.extend(delays)
        every.append(max(delays))


async def bench_size(server: ServerProcess, count: int, actions: int,
                     table_size: int) -> dict[str, float]:
    from tui.net.door import DoorLimits
    from tui.net.testing import TerminalClient

    rss_before, _, _, _ = await _wait_empty(server)
    _, join_cpu, _, _ = await _stats(server)
    started = time.perf_counter()
    clients = {}
    # Like friends arriving: a few at a time.  The door lets at most 8 connections log in
    # at once from one address (every worker together), and every bench player comes
    # from 127.0.0.1.
    step = max(1, min(5, DoorLimits().pending_per_address))
    for batch in range(0, count, step):
        names = [f"p{i}" for i in range(batch, min(count, batch + step))]
        joined = await asyncio.gather(*(TerminalClient.connect(server.port, username=n)
                                        for n in names))
        clients.update(zip(names, joined, strict=True))
    await asyncio.gather(*(c.wait_for(f"you are {n}", 120) for n, c in clients.items()))
    join_seconds = time.perf_counter() - started
    _, joined_cpu, _, _ = await _stats(server)
    tables = await asyncio.to_thread(server.seat, table_size)
    await asyncio.gather(*(c.wait_for("Deal 1 of", 120) for c in clients.values()))
    await _settle(server)  # every first paint (and penalty solver) done
    rss_after, _, sessions, _ = await _stats(server, collect=True)
    _, idle_from, _, _ = await _stats(server)
    assert sessions == count
    await asyncio.sleep(IDLE_SECONDS)  # everyone seated, nobody moving
    _, cpu_before, _, _ = await _stats(server)
    workers_before = server.workers_cpu
    writes_before = server.writes

    every: list[float] = []
    single: list[float] = []
    received = sum(len(c.output) for c in clients.values())
    clients_cpu = time.process_time()
    moving = time.perf_counter()
    await asyncio.gather(*(_play_table(clients, t, actions, every, single) for t in tables))
    moving = time.perf_counter() - moving
    clients_cpu = time.process_time() - clients_cpu
    received = sum(len(c.output) for c in clients.values()) - received
    _, cpu_after, _, _ = await _stats(server)
    workers_cpu = server.workers_cpu - workers_before
    writes = [after - before for after, before in zip(server.writes, writes_before,
                                                      strict=True)]
    # One table plays while all the others sit and watch: what a move feels like.
    solo: list[float] = []
    await _play_table(clients, tables[0], 4, solo, [])

    for client in clients.values():
        client.abort()
    await _wait_empty(server)
    return {
        "sessions": count,
        "tables": len(tables),
        "join_s": join_seconds,
        "join_cpu_ms": (joined_cpu - join_cpu) / count * 1000,
        "kib_per_session": (rss_after - rss_before) / count,
        "every_p50_ms": statistics.median(every) * 1000,
        "every_p95_ms": _percentile(every, 0.95) * 1000,
        "every_max_ms": max(every) * 1000,
        "screen_p50_ms": statistics.median(single) * 1000,
        "cpu_ms_per_action": (cpu_after - cpu_before) / len(every) * 1000,
        "workers_cpu_ms_per_action": workers_cpu / len(every) * 1000,
        "service_writes_per_action": writes[0] / len(every),
        "service_kib_written_per_action": writes[1] / len(every) / 1024,
        "moves_per_s": len(every) / moving,
        "clients_cpu_ms_per_action": clients_cpu / len(every) * 1000,
        "kib_per_screen_move": received / len(single) / 1024,
        "idle_cpu_pct": (cpu_before - idle_from) / IDLE_SECONDS * 100,
        "solo_p50_ms": statistics.median(solo) * 1000,
    }


async def _warm_up(server: ServerProcess) -> None:
    """Two tables of two play a few moves: imports, CSS and caches load here (in every
    worker the kernel happened to hand a connection to)."""
    await bench_size(server, 4, 4, 2)


LINKS = {"no": "", "yes": "tls", "haproxy": "haproxy"}
"""`--link` words: how the workers reach the game service (and the players the workers)."""


def _mode(workers: int, keep: bool = False, link: str = "") -> str:
    mode = "one process" if workers == 0 else f"{workers} worker" + "s" * (workers > 1)
    return (mode + ", kept" * keep + {"": "", "tls": ", TLS link",
                                      "haproxy": ", 2 machines+HAProxy"}[link])


async def bench_mode(workers: int, sizes: list[int], actions: int,
                     table_size: int, keep: bool = False,
                     link: str = "") -> dict[int, dict[str, float]]:
    rows = {}
    with tempfile.TemporaryDirectory() as home:
        server = ServerProcess(home, workers, keep, link)
        try:
            await _warm_up(server)
            base_rss, _, _, _ = await _wait_empty(server)
            print(f"\n{_mode(workers, keep, link)}: server RSS after warm-up "
                  f"{base_rss / 1024:.1f} MiB; "
                  f"tables of {table_size}, {actions} actions per table, all tables at once")
            print(f"{'sessions':>8} {'tables':>6} {'join s':>7} {'join CPU ms/session':>19} "
                  f"{'KiB/session':>12} "
                  f"{'all-screens p50 ms':>19} {'p95 ms':>7} {'max ms':>7} "
                  f"{'one-screen p50 ms':>18} {'server CPU ms/action':>21} "
                  f"{'of it workers':>13} {'clients CPU ms/action':>21} "
                  f"{'KiB/screen/move':>15} {'moves/s':>8} "
                  f"{'idle CPU %':>10} {'one table alone p50 ms':>22}")
            for count in sizes:
                row = rows[count] = await bench_size(server, count, actions, table_size)
                print(f"{row['sessions']:>8} {row['tables']:>6} {row['join_s']:>7.2f} "
                      f"{row['join_cpu_ms']:>19.0f} "
                      f"{row['kib_per_session']:>12.0f} {row['every_p50_ms']:>19.1f} "
                      f"{row['every_p95_ms']:>7.1f} {row['every_max_ms']:>7.1f} "
                      f"{row['screen_p50_ms']:>18.1f} {row['cpu_ms_per_action']:>21.1f} "
                      f"{row['workers_cpu_ms_per_action']:>13.1f} "
                      f"{row['clients_cpu_ms_per_action']:>21.1f} "
                      f"{row['kib_per_screen_move']:>15.1f} {row['moves_per_s']:>8.2f} "
                      f"{row['idle_cpu_pct']:>10.1f} {row['solo_p50_ms']:>22.1f}",
                      flush=True)
            rss, _, _, _ = await _wait_empty(server)
            live = await asyncio.to_thread(server.live_apps)
            for _ in range(50):  # a hand still being solved holds its app a moment
                if live <= 0:
                    break
                await asyncio.sleep(0.2)
                live = await asyncio.to_thread(server.live_apps)
            apps = "in the workers" if live < 0 else str(live)
            print(f"after everyone left: server RSS {rss / 1024:.1f} MiB (the allocator keeps "
                  f"freed arenas), no tables open, live app objects: {apps}")
        finally:
            server.close()
    return rows


async def main(sizes: list[int], actions: int, table_size: int, modes: list[int],
               kept: list[bool] | None = None, linked: list[str] | None = None) -> None:
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} cores here; load average {os.getloadavg()[0]:.2f} at the start (other "
          "work on the machine slows every figure)")
    results = {(workers, keep, link): await bench_mode(workers, sizes, actions, table_size,
                                                       keep, link)
               for workers in modes for keep in (kept or [False])
               for link in (linked or [""]) if workers or not link}
    for count in sorted(set(sizes)):
        _side_by_side(results, count)
    if kept and len(kept) > 1:
        print("(service writes: its system calls writing to the workers' sockets, and with "
              "kept tables also to the tables' files; their difference is the keeping)")


def _side_by_side(results: dict[tuple[int, bool, str], dict[int, dict[str, float]]],
                  count: int) -> None:
    print(f"\nside by side at {count} sessions "
          f"(load average {os.getloadavg()[0]:.2f} at the end):")
    print(f"{'':>30} {'all-screens p50':>15} {'p95':>7} {'alone p50':>9} {'CPU ms/move':>11} "
          f"{'moves/s':>8} {'KiB/session':>11} {'service CPU ms/move':>19} "
          f"{'service writes/move':>19} "
          f"{'KiB written/move':>16}")
    for (workers, keep, link), rows in results.items():
        row = rows[count]
        print(f"{_mode(workers, keep, link):>30} {row['every_p50_ms']:>13.0f}ms "
              f"{row['every_p95_ms']:>5.0f}ms "
              f"{row['solo_p50_ms']:>7.0f}ms {row['cpu_ms_per_action']:>11.1f} "
              f"{row['moves_per_s']:>8.2f} {row['kib_per_session']:>11.0f} "
              f"{row['cpu_ms_per_action'] - row['workers_cpu_ms_per_action']:>19.2f} "
              f"{row['service_writes_per_action']:>19.1f} "
              f"{row['service_kib_written_per_action']:>16.1f}")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,25,50", help=f"session counts (max "
                        f"{MAX_SESSIONS})")
    parser.add_argument("--actions", type=int, default=6, help="moves per table per size")
    parser.add_argument("--table-size", type=int, default=4, help="players per table (2-8)")
    parser.add_argument("--workers", default="1,2", help="session worker counts to compare "
                        "(0: everything in one process)")
    parser.add_argument("--kept", default="no", help="keep the tables on disk as `rummy "
                        "serve` does: no, yes, or no,yes to compare (the cost of durability)")
    parser.add_argument("--link", default="no", help="no, yes, haproxy (several, comma "
                        "separated): yes, the workers as a worker machine (`rummy serve "
                        "--workers-only`) linked to the service over TCP and TLS (127.0.0.4); "
                        "haproxy, as two worker machines behind HAProxy")
    parser.add_argument("--keep", action="store_true", help=argparse.SUPPRESS)  # (child)
    parser.add_argument("--linked", default="", help=argparse.SUPPRESS)  # (child)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    options = _parse()
    if options.child:
        asyncio.run(_serve_child(int(options.workers), options.keep, options.linked))
    else:
        sizes = [max(2, min(MAX_SESSIONS, int(s))) for s in options.sizes.split(",")
                 if s.strip()]
        actions = max(2, min(options.actions, 20))
        modes = [max(0, min(int(w), 8)) for w in options.workers.split(",") if w.strip()]
        kept = [word.strip() == "yes" for word in options.kept.split(",") if word.strip()]
        words = [word.strip() for word in options.link.split(",") if word.strip()]
        if any(word not in LINKS for word in words):
            raise SystemExit(f"--link takes {', '.join(LINKS)}, not {options.link!r}")
        linked = [LINKS[word] for word in words]
        asyncio.run(asyncio.wait_for(
            main(sizes, actions, max(2, min(options.table_size, 8)), modes, kept, linked),
            TIME_LIMIT))
