"""Benchmark: does the server give memory back after everyone leaves? (loopback only)

The card room runs as `rummy serve` does (the child of `bench_ssh_tables.py`: the game
service and its session workers).  Three waves of N players (50 by default) come in a
few at a time, sit at dealt tables of 4, then all leave; after each wave, once the
server is empty, the RSS of the service and every worker is read (after a garbage
collection in the service), and read again once every worker, left empty, has retired
and a fresh process has taken its place (`tui.net.workers.Retirement`: after 20 s
without a connection, as shipped).  Printed: RSS before the first wave and after each,
the growth from the first wave's end to the last's - what the server keeps per wave and
never gives back (the goal: none after the first wave, which loads modules and caches) -
and what it is back to once the workers were replaced.
Run: `python tests/bench/bench_memory_waves.py [--players 50] [--waves 3] [--workers 2]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time

from bench_ssh_tables import ServerProcess, _settle, _stats, _wait_empty
from server_child import rss_kib

TIME_LIMIT = 1800.0


def workers_of(server: ServerProcess) -> set[str]:
    """The server's worker processes now (its children)."""
    pid = server.proc.pid
    children: set[str] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listed:
            children.update(listed.read().split())
    return children


def shares(server: ServerProcess) -> str:
    """The RSS of the service and of each worker (its children), MiB."""
    workers = " ".join(f"{rss_kib(child) / 1024:.0f}" for child in sorted(workers_of(server)))
    return f"service {rss_kib(server.proc.pid) / 1024:.0f}, workers {workers}"


async def replaced(server: ServerProcess, old: set[str], count: int) -> float:
    """Wait until none of the workers `old` is left, `count` fresh ones run and the
    server is quiet again; the seconds it took."""
    started = time.perf_counter()
    while True:
        now = workers_of(server)
        if len(now) == count and not now & old:
            break
        await asyncio.sleep(0.5)
    took = time.perf_counter() - started
    await _settle(server)
    return took


async def wave(server: ServerProcess, players: int, number: int) -> None:
    from tui.net.testing import TerminalClient

    clients = {}
    for batch in range(0, players, 5):  # friends arriving, a few at a time
        names = [f"p{number * 100 + i}" for i in range(batch, min(players, batch + 5))]
        joined = await asyncio.gather(*(TerminalClient.connect(server.port, username=n)
                                        for n in names))
        clients.update(zip(names, joined, strict=True))
    await asyncio.gather(*(c.wait_for(f"you are {n}", 120) for n, c in clients.items()))
    await asyncio.to_thread(server.seat, 4)
    await asyncio.gather(*(c.wait_for("Deal 1 of", 120) for c in clients.values()))
    await _settle(server)
    for client in clients.values():
        await client.close()


async def main(players: int, waves: int, workers: int) -> None:
    print(f"{len(os.sched_getaffinity(0))} cores; load average {os.getloadavg()[0]:.2f}; "
          f"{waves} waves of {players} players, {workers} worker(s)")
    with tempfile.TemporaryDirectory() as home:
        server = ServerProcess(home, workers)
        try:
            before, _, _, _ = await _wait_empty(server)
            print(f"before anyone came: {before / 1024:7.1f} MiB ({shares(server)})")
            cpu = server.workers_cpu
            after = []
            for number in range(1, waves + 1):
                await wave(server, players, number)
                await _settle(server)
                rss, _, _, _ = await _wait_empty(server)
                rss, _, _, _ = await _stats(server, collect=True)
                after.append(rss)
                print(f"after wave {number} left:  {rss / 1024:7.1f} MiB "
                      f"({(rss - before) / 1024:+.1f} MiB on the start; {shares(server)}; "
                      f"workers' CPU {server.workers_cpu - cpu:.1f} s)")
                took = await replaced(server, workers_of(server), workers)
                rss, _, _, _ = await _stats(server, collect=True)
                print(f"  workers replaced:  {rss / 1024:7.1f} MiB "
                      f"({(rss - before) / 1024:+.1f} MiB on the start; {shares(server)}; "
                      f"{took:.0f} s after the server was empty)")
                cpu = server.workers_cpu
            if len(after) > 1:
                growth = (after[-1] - after[0]) / 1024
                print(f"growth from wave 1 to wave {waves}: {growth:+.1f} MiB "
                      f"({growth / (waves - 1):+.1f} MiB a wave)")
        finally:
            server.close()


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50, help="players per wave (max 60)")
    parser.add_argument("--waves", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    return parser.parse_args()


if __name__ == "__main__":
    options = _parse()
    asyncio.run(asyncio.wait_for(
        main(max(4, min(options.players, 60)), max(2, min(options.waves, 6)),
             max(0, min(options.workers, 8))), TIME_LIMIT))
