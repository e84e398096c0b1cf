"""Benchmark: many SSH players on one `rummy serve` process (loopback only).

For N concurrent sessions (10, 25, 50 by default) of the test counter app it prints:
- server memory per session: the server runs in a child process, its RSS is read from
  /proc before and after the N players joined (after one warm-up session, so imported
  modules and caches are not charged to the players);
- keypress-to-screen latency: every player presses a key at the same moment; the time
  until *that player's* emulated screen shows the new count, over several rounds
  (median, 95th percentile and max over all players and rounds);
- server CPU time spent per keypress round.

Bounded: at most 50 sessions by default, a few rounds, a global time limit, and only
127.0.0.1. Run: `python tests/bench/bench_ssh.py [--sizes 10,25,50] [--rounds 5]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time

import server_child
from server_child import ROOT, cpu_seconds, live_apps, rss_kib

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TIME_LIMIT = 300.0  # seconds for the whole run
MAX_SESSIONS = 100


# -- the server side (child process) ------------------------------------------------


async def _serve_child() -> None:
    """Start a server on 127.0.0.1:0, then answer one-word commands on stdin."""
    import gc

    from tui.net.startup import start_server
    from tui.net.testing import counter_factory

    server = await start_server(
        counter_factory, "127.0.0.1", 0, max_sessions=MAX_SESSIONS, idle_timeout=600
    )
    print(f"port {server.port}", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        if line == "stats":
            gc.collect()
            print(f"stats {rss_kib()} {cpu_seconds():.4f} {len(server.sessions)}", flush=True)
        elif line == "apps":
            print(f"apps {live_apps()}", flush=True)
        elif line == "quit":
            break
    await server.close()


# -- the players' side (this process) -------------------------------------------------


class ServerProcess(server_child.ServerProcess):
    def __init__(self, home: str) -> None:
        super().__init__(__file__, home)

    def stats(self) -> tuple[int, float, int]:
        """(RSS KiB, CPU seconds, sessions) of the server process now."""
        _, rss, cpu, sessions = self.ask("stats").split()
        return int(rss), float(cpu), int(sessions)


async def _stats(server: ServerProcess) -> tuple[int, float, int]:
    return await asyncio.to_thread(server.stats)


async def _wait_sessions(server: ServerProcess, count: int) -> tuple[int, float, int]:
    for _ in range(200):
        stats = await _stats(server)
        if stats[2] == count:
            return stats
        await asyncio.sleep(0.05)
    raise TimeoutError(f"server never reached {count} sessions")


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


async def bench_size(server: ServerProcess, count: int, rounds: int) -> dict[str, float]:
    from tui.net.testing import TerminalClient

    rss_before, _, _ = await _wait_sessions(server, 0)
    started = time.perf_counter()
    players = await asyncio.gather(
        *(TerminalClient.connect(server.port, username=f"p{i}") for i in range(count))
    )
    await asyncio.gather(*(p.wait_for(f"user=p{i} count=0", 60) for i, p in enumerate(players)))
    join_seconds = time.perf_counter() - started
    await asyncio.sleep(0.5)  # let every first paint settle
    rss_after, cpu_before, _ = await _wait_sessions(server, count)

    latencies: list[float] = []
    for round_number in range(1, rounds + 1):
        expected = f"count={round_number} "
        sent = time.perf_counter()
        for player in players:
            player.send("+")

        async def seen(
            player: TerminalClient, expected: str = expected, sent: float = sent
        ) -> float:
            await player.wait_for(expected, 30)
            return player.last_change - sent

        latencies.extend(await asyncio.gather(*(seen(p) for p in players)))
        await asyncio.sleep(0.2)
    _, cpu_after, _ = await _stats(server)

    # A single player typing while the others sit idle.
    solo: list[float] = []
    for round_number in range(rounds + 1, rounds + 6):
        sent = time.perf_counter()
        players[0].send("+")
        await players[0].wait_for(f"count={round_number} ", 30)
        solo.append(players[0].last_change - sent)

    await asyncio.gather(*(p.close() for p in players))
    await _wait_sessions(server, 0)
    return {
        "sessions": count,
        "join_s": join_seconds,
        "kib_per_session": (rss_after - rss_before) / count,
        "p50_ms": statistics.median(latencies) * 1000,
        "p95_ms": _percentile(latencies, 0.95) * 1000,
        "max_ms": max(latencies) * 1000,
        "solo_ms": statistics.median(solo) * 1000,
        "cpu_ms_per_round": (cpu_after - cpu_before) / rounds * 1000,
    }


async def main(sizes: list[int], rounds: int) -> None:
    from tui.net.testing import TerminalClient

    with tempfile.TemporaryDirectory() as home:
        server = ServerProcess(home)
        try:
            # Warm-up: the first session pays for imports, CSS parsing and caches.
            warm = await TerminalClient.connect(server.port, username="warmup")
            await warm.wait_for("user=warmup count=0", 60)
            warm.send("+")
            await warm.wait_for("count=1", 30)
            await warm.close()
            base_rss, _, _ = await _wait_sessions(server, 0)
            print(f"server RSS after warm-up: {base_rss / 1024:.1f} MiB")
            print(
                f"{'sessions':>8} {'join s':>7} {'KiB/session':>12} {'p50 ms':>7} "
                f"{'p95 ms':>7} {'max ms':>7} {'solo ms':>8} {'server CPU ms/round':>20}"
            )
            for count in sizes:
                row = await bench_size(server, count, rounds)
                print(
                    f"{row['sessions']:>8} {row['join_s']:>7.2f} {row['kib_per_session']:>12.0f} "
                    f"{row['p50_ms']:>7.1f} {row['p95_ms']:>7.1f} {row['max_ms']:>7.1f} "
                    f"{row['solo_ms']:>8.1f} {row['cpu_ms_per_round']:>20.1f}",
                    flush=True,
                )
            rss, _, _ = await _wait_sessions(server, 0)
            live = await asyncio.to_thread(server.live_apps)
            print(
                f"after all players left: server RSS {rss / 1024:.1f} MiB "
                f"(allocator keeps freed arenas), live app objects: {live}"
            )
        finally:
            server.close()


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,25,50", help="session counts (max 100)")
    parser.add_argument("--rounds", type=int, default=5, help="keypress rounds per size")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    options = _parse()
    if options.child:
        asyncio.run(_serve_child())
    else:
        sizes = [min(MAX_SESSIONS, int(s)) for s in options.sizes.split(",") if s.strip()]
        rounds = max(1, min(options.rounds, 20))
        asyncio.run(asyncio.wait_for(main(sizes, rounds), TIME_LIMIT))
