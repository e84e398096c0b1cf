"""`rummy serve` with real session worker processes: players on every worker, one worker
killed, the others and the game service carry on and the dead one is replaced."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest
from ssh_room import FAST, arrive, until

from tui.net.testing import TerminalClient
from tui.net.workers import WorkerRoom
from tui.service.lobby import Lobby

pytestmark = pytest.mark.slow  # starts (and restarts) worker processes: a few seconds


async def test_a_killed_worker_takes_only_its_players_and_is_replaced() -> None:
    lobby = Lobby(FAST)
    room = await WorkerRoom.open(lobby, 2, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=None, max_sessions=20,
                                 idle_timeout=None)
    clients: dict[str, TerminalClient] = {}
    try:
        def on_worker(worker: int) -> list[str]:
            return sorted(s.guest.name for link in room.service.links
                          if link.worker == worker for s in link.sessions.values())

        # Players arrive until both workers have some (the kernel picks the worker).
        for number in range(12):
            name = f"p{number}"
            clients[name] = await arrive(room.port, name)
            if on_worker(0) and on_worker(1):
                break
        victims, survivors = on_worker(0), on_worker(1)
        assert victims and survivors, "every connection went to one worker"
        os.kill(room.pool.processes[0].pid, signal.SIGKILL)

        for name in victims:  # their connections end with the worker...
            await asyncio.wait_for(clients[name].wait_closed(), 20)
        await until(lambda: not on_worker(0) and room.service.session_count
                    == len(survivors))
        # ...the others play on: a key still gets an answer from their app.
        survivor = clients[survivors[0]]
        survivor.send("c")
        await survivor.wait_for("New table", 20)
        # The pool starts a new worker, which joins the running service.
        await until(lambda: room.pool.restarts == 1 and len(
            [link for link in room.service.links if link.worker is not None]) == 2,
            timeout=60)
        again = await arrive(room.port, victims[0])
        assert f"you are {victims[0]}" in again.text
        clients["again"] = again
    finally:
        for client in clients.values():
            client.abort()
        await room.close()
        lobby.close()
