"""One lobby on every screen: whichever worker process a player's connection lands on,
they see the lobby as it is the moment they arrive, and every change after.

The room is what `rummy serve` runs (the game service here, its pool of real worker
processes sharing one port); the test adds workers of its own on ports of their own, so
that a session can be put on a chosen worker rather than wherever the kernel spreads
it: the first session of an idle worker, and of a worker killed and started again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from ssh_room import FAST, arrive, create_table
from worker_room import OwnWorker, worker_of

from tui.net.testing import TerminalClient
from tui.net.workers import WorkerRoom
from tui.service.lobby import Lobby

pytestmark = pytest.mark.slow  # worker processes: a few seconds

SEEN = 10.0
"""How long a screen may take to show a change: generous for a busy machine (on a quiet
one it is well under a second)."""


def heads(clients: dict[str, TerminalClient]) -> Iterator[tuple[str, str]]:
    for name, client in clients.items():
        yield name, client.text.splitlines()[0] if client.text else ""


async def all_see(clients: dict[str, TerminalClient], words: str) -> None:
    """Every client's lobby head line says `words` (e.g. "2 tables")."""
    async def one(client: TerminalClient) -> None:
        await client.wait_until(lambda: words in client.text.splitlines()[0], SEEN)

    try:
        await asyncio.gather(*(one(c) for c in clients.values()))
    except TimeoutError:
        raise AssertionError(f"not everyone sees {words!r}: {dict(heads(clients))}") from None


async def test_every_session_on_every_worker_sees_the_lobby_as_it_is() -> None:
    lobby = Lobby(FAST)
    room = await WorkerRoom.open(lobby, 2, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=None, max_sessions=40,
                                 idle_timeout=None)
    own = [OwnWorker(room, 10), OwnWorker(room, 11)]
    clients: dict[str, TerminalClient] = {}
    try:
        for worker in own:
            await worker.start()
        # The host is the first session of an idle worker, and opens a table by keys.
        clients["host"] = await arrive(own[0].port, "host")
        assert worker_of(room, "host") == 10
        await create_table(clients["host"])
        # The first session of the other idle worker finds that table on arrival.
        clients["late"] = await arrive(own[1].port, "late")
        assert worker_of(room, "late") == 11
        await all_see({"late": clients["late"]}, "1 table")
        # Players on the pool's port, until both of its workers have one.
        for number in range(16):
            name = f"p{number}"
            clients[name] = await arrive(room.port, name)
            await all_see({name: clients[name]}, "1 table")
            if {worker_of(room, n) for n in clients} >= {0, 1, 10, 11}:
                break
        assert {worker_of(room, n) for n in clients} >= {0, 1, 10, 11}, \
            "the kernel put every pool connection on one worker"

        # A second table, opened from outside every worker: everyone sees it.
        guest = lobby.enter("outsider")
        guest.create("three_thirteen", 2, "medium")
        await all_see(clients, "2 tables")

        # A worker killed and started again: its first new session sees both tables.
        await own[1].kill()
        await clients.pop("late").wait_closed(SEEN)
        await own[1].start()
        clients["again"] = await arrive(own[1].port, "again")
        await all_see({"again": clients["again"]}, "2 tables")
        # ...and the next change reaches it as well as everyone else.
        guest.close()
        await all_see(clients, "1 table ")
    finally:
        for client in clients.values():
            client.abort()
        for worker in own:
            await worker.stop()
        await room.close()
        lobby.close()
