"""Benchmark: what the service link between machines adds to one request and its reply.

A worker's move is one request (`act`) and its reply, then the views of the seats; the
link adds the same to each.  Here a game service and a worker's `ServiceLink` run in this
process and exchange numbered requests one at a time (the door's `door` question, which
the service answers at once without touching a table), over the service's Unix socket
and over TCP with mutual TLS on loopback (127.0.0.4, as `rummy serve --service-listen`),
side by side in the same run, rounds alternating: wall time per round trip (p50, p95)
and CPU per round trip (both ends: they share this process).  Loopback only: a real
network adds its own round trip on top.
Run: `python tests/bench/bench_service_link.py [--rounds 2000]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


async def _round_trips(link, count: int, walls: list[float]) -> float:  # noqa: ANN001
    """`count` questions one after the other; their wall times into `walls`; CPU."""
    cpu = time.process_time()
    for conn in range(count):
        started = time.perf_counter()
        reply = await link.ask({"t": "door", "conn": conn, "address": "10.1.2.3"}, 10)
        walls.append(time.perf_counter() - started)
        assert reply.get("ok"), reply
        link.send({"t": "settled", "conn": conn, "outcome": "in"})
    return time.process_time() - cpu


async def main(rounds: int) -> None:
    from tui.net.certs import make_certs
    from tui.net.remote import ServiceLink
    from tui.net.tls_link import dial, service_context, worker_context
    from tui.service.authority import GameService
    from tui.service.lobby import Lobby

    with tempfile.TemporaryDirectory() as home:
        os.environ["RUMMY_HOME"] = home  # (nothing of the user's is read or written)
        folder = Path(home)
        make_certs(folder / "certs", "127.0.0.4", ["bench"])
        lobby = Lobby()
        service = GameService(lobby)
        await service.listen(folder / "service.sock")
        port = await service.listen_tls("127.0.0.4", 0, service_context(folder / "certs" /
                                                                          "service"))
        local = await ServiceLink.connect(folder / "service.sock", 0)
        remote = ServiceLink(1)
        remote.attach(*await dial("127.0.0.4", port, worker_context(folder / "certs" /
                                                                     "bench")))
        for link in (local, remote):
            link.hello()
        await service.wait_workers(2, 10)
        walls: dict[str, list[float]] = {"Unix socket": [], "TCP + TLS": []}
        cpu = dict.fromkeys(walls, 0.0)
        for link in (local, remote):
            await _round_trips(link, 200, [])  # warm up
        step = 100
        for _ in range(0, rounds, step):
            for link, name in ((local, "Unix socket"), (remote, "TCP + TLS")):
                cpu[name] += await _round_trips(link, step, walls[name])
        print(f"{len(os.sched_getaffinity(0))} cores; load average {os.getloadavg()[0]:.2f}; "
              f"{rounds} round trips each, alternating in blocks of {step}")
        print(f"{'link':>12} {'p50 us':>8} {'p95 us':>8} {'CPU us/round trip':>18}")
        for name, values in walls.items():
            ordered = sorted(values)
            print(f"{name:>12} {statistics.median(values) * 1e6:>8.0f} "
                  f"{ordered[int(0.95 * (len(ordered) - 1))] * 1e6:>8.0f} "
                  f"{cpu[name] / len(values) * 1e6:>18.0f}")
        await local.close()
        await remote.close()
        await service.close()
        lobby.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    options = parser.parse_args()
    asyncio.run(main(max(100, min(options.rounds, 100_000))))
