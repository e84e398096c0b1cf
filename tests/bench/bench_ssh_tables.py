"""Benchmark: the SSH card room with N players at shared tables (loopback only).

For N concurrent sessions (10, 25, 50 by default) seated at tables of 4 (a remainder of
2-3 makes a smaller table, a remainder of 1 watches the first table), it prints:
- server memory per session: the server runs in a child process; its RSS is read from
  /proc before the N players connect and once they all sit at dealt tables (after a
  warm-up table, so imported modules and caches are not charged to the players);
- action-to-every-screen latency: at every table at once, the player to move presses a
  key (draw, then discard, ...); the time until the effect shows on *every* screen at
  that table (players and spectator, as their terminal emulators show it) - median,
  95th percentile and max over all tables and actions - and the same per single screen;
  then one table plays alone while every other player sits (what a move feels like);
- server CPU time per action, and the server's CPU use while everyone sits idle.

Players sit down through the lobby service (the child seats the connected guests), then
play only by keys.  Bounded: at most 60 sessions, a few actions, a global time limit,
only 127.0.0.1.  Run:
`python tests/bench/bench_ssh_tables.py [--sizes 10,25,50] [--actions 6] [--table-size 4]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

import server_child
from server_child import ROOT, cpu_seconds, live_apps, rss_kib

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TIME_LIMIT = 600.0  # seconds for the whole run
MAX_SESSIONS = 60
IDLE_SECONDS = 3.0
RULES = "three_thirteen"


# -- the server side (child process) ------------------------------------------------


def _seat(apps, size: int) -> list[dict]:  # noqa: ANN001 - LobbyApps
    """Seat every guest not at a table yet: tables of `size`, the remainder smaller (or
    watching the first new table when it is one person)."""
    free = [g for _, g in sorted(apps._guests.items()) if g.handle is None]
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


async def _serve_child() -> None:
    """Start the card room on 127.0.0.1:0, then answer one-line commands on stdin."""
    import gc

    from tui.commands.serve import LobbyApps
    from tui.net.server import start_server
    from tui.service.lobby import Lobby, LobbyConfig

    lobby = Lobby(LobbyConfig(max_tables=40, bot_delay=0.3, grace=0.5, seed=7))
    apps = LobbyApps(lobby)
    server = await start_server(apps, "127.0.0.1", 0, max_sessions=MAX_SESSIONS + 4,
                                idle_timeout=900, on_session_end=apps.session_ended)
    print(f"port {server.port}", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        word, _, rest = line.partition(" ")
        if word in ("stats", "mem"):
            if word == "mem":
                gc.collect()
            print(f"stats {rss_kib()} {cpu_seconds():.4f} {len(server.sessions)} "
                  f"{len(lobby.tables)}", flush=True)
        elif word == "apps":
            print(f"apps {live_apps()}", flush=True)
        elif word == "seat":
            print("seated " + json.dumps(_seat(apps, int(rest))), flush=True)
        elif word == "quit":
            break
    await server.close()
    lobby.close()


# -- the players' side (this process) -------------------------------------------------


class ServerProcess(server_child.ServerProcess):
    def __init__(self, home: str) -> None:
        super().__init__(__file__, home)

    def stats(self, collect: bool = False) -> tuple[int, float, int, int]:
        """(RSS KiB, CPU seconds, sessions, tables) of the server process now; `collect`
        runs the garbage collector first (for memory figures, not CPU ones)."""
        _, rss, cpu, sessions, tables = self.ask("mem" if collect else "stats").split()
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
            await client.wait_until(lambda: check[name](client.text), 60)
            return client.last_change - sent

        delays = await asyncio.gather(*(seen(n) for n in names))
        single.extend(delays)
        every.append(max(delays))


async def bench_size(server: ServerProcess, count: int, actions: int,
                     table_size: int) -> dict[str, float]:
    from tui.net.testing import TerminalClient

    rss_before, _, _, _ = await _wait_empty(server)
    started = time.perf_counter()
    clients = {}
    for batch in range(0, count, 10):  # like friends arriving: a few at a time
        names = [f"p{i}" for i in range(batch, min(count, batch + 10))]
        joined = await asyncio.gather(*(TerminalClient.connect(server.port, username=n)
                                        for n in names))
        clients.update(zip(names, joined, strict=True))
    await asyncio.gather(*(c.wait_for(f"you are {n}", 120) for n, c in clients.items()))
    join_seconds = time.perf_counter() - started
    tables = await asyncio.to_thread(server.seat, table_size)
    await asyncio.gather(*(c.wait_for("Deal 1 of", 120) for c in clients.values()))
    await _settle(server)  # every first paint (and penalty solver) done
    rss_after, _, sessions, _ = await _stats(server, collect=True)
    _, idle_from, _, _ = await _stats(server)
    assert sessions == count
    await asyncio.sleep(IDLE_SECONDS)  # everyone seated, nobody moving
    _, cpu_before, _, _ = await _stats(server)

    every: list[float] = []
    single: list[float] = []
    await asyncio.gather(*(_play_table(clients, t, actions, every, single) for t in tables))
    _, cpu_after, _, _ = await _stats(server)
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
        "kib_per_session": (rss_after - rss_before) / count,
        "every_p50_ms": statistics.median(every) * 1000,
        "every_p95_ms": _percentile(every, 0.95) * 1000,
        "every_max_ms": max(every) * 1000,
        "screen_p50_ms": statistics.median(single) * 1000,
        "cpu_ms_per_action": (cpu_after - cpu_before) / len(every) * 1000,
        "idle_cpu_pct": (cpu_before - idle_from) / IDLE_SECONDS * 100,
        "solo_p50_ms": statistics.median(solo) * 1000,
    }


async def _warm_up(server: ServerProcess) -> None:
    """One table of two plays a few moves: imports, CSS and caches load here."""
    await bench_size(server, 2, 4, 2)


async def main(sizes: list[int], actions: int, table_size: int) -> None:
    with tempfile.TemporaryDirectory() as home:
        server = ServerProcess(home)
        try:
            await _warm_up(server)
            base_rss, _, _, _ = await _wait_empty(server)
            print(f"server RSS after warm-up: {base_rss / 1024:.1f} MiB; tables of "
                  f"{table_size}, {actions} actions per table, all tables at once")
            print(f"{'sessions':>8} {'tables':>6} {'join s':>7} {'KiB/session':>12} "
                  f"{'all-screens p50 ms':>19} {'p95 ms':>7} {'max ms':>7} "
                  f"{'one-screen p50 ms':>18} {'server CPU ms/action':>21} "
                  f"{'idle CPU %':>10} {'one table alone p50 ms':>22}")
            for count in sizes:
                row = await bench_size(server, count, actions, table_size)
                print(f"{row['sessions']:>8} {row['tables']:>6} {row['join_s']:>7.2f} "
                      f"{row['kib_per_session']:>12.0f} {row['every_p50_ms']:>19.1f} "
                      f"{row['every_p95_ms']:>7.1f} {row['every_max_ms']:>7.1f} "
                      f"{row['screen_p50_ms']:>18.1f} {row['cpu_ms_per_action']:>21.1f} "
                      f"{row['idle_cpu_pct']:>10.1f} {row['solo_p50_ms']:>22.1f}",
                      flush=True)
            rss, _, _, _ = await _wait_empty(server)
            live = await asyncio.to_thread(server.live_apps)
            for _ in range(50):  # a hand still being solved holds its app a moment
                if not live:
                    break
                await asyncio.sleep(0.2)
                live = await asyncio.to_thread(server.live_apps)
            print(f"after everyone left: server RSS {rss / 1024:.1f} MiB (the allocator keeps "
                  f"freed arenas), no tables open, live app objects: {live}")
        finally:
            server.close()


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,25,50", help=f"session counts (max "
                        f"{MAX_SESSIONS})")
    parser.add_argument("--actions", type=int, default=6, help="moves per table per size")
    parser.add_argument("--table-size", type=int, default=4, help="players per table (2-8)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    options = _parse()
    if options.child:
        asyncio.run(_serve_child())
    else:
        sizes = [max(2, min(MAX_SESSIONS, int(s))) for s in options.sizes.split(",")
                 if s.strip()]
        actions = max(2, min(options.actions, 20))
        asyncio.run(asyncio.wait_for(
            main(sizes, actions, max(2, min(options.table_size, 8))), TIME_LIMIT))
