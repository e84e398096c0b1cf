"""A player the game service turns away - a name that belongs to another key, the server
full across its workers - sees why, and their `ssh` command exits non-zero (scripts and
launchers can tell a refusal from a game played and left)."""

from __future__ import annotations

import pytest
from ssh_room import FAST, arrive, key_of
from worker_room import OwnWorker

from tui.net.testing import TerminalClient
from tui.net.workers import WorkerRoom
from tui.service.lobby import Lobby

pytestmark = pytest.mark.slow  # worker processes: a few seconds


async def test_a_refused_player_sees_why_and_ssh_exits_non_zero() -> None:
    lobby = Lobby(FAST)
    room = await WorkerRoom.open(lobby, 1, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=None, max_sessions=2,
                                 idle_timeout=None)
    other = OwnWorker(room, 10)  # a second worker: "full" is counted by the service
    clients: list[TerminalClient] = []
    try:
        await other.start()
        clients.append(await arrive(room.port, "ann", keyed=True))
        # ann's name, from another key: refused by the service
        impostor = await TerminalClient.connect(room.port, username="ann",
                                                client_keys=[key_of("mallory")])
        await impostor.wait_closed(20)
        assert impostor.exit_status == 1
        assert b"belongs to another player's key" in impostor.output
        clients.append(await arrive(other.port, "bob"))
        # Two players, one on each worker: the third is refused by the service (neither
        # worker is full by itself).
        third = await TerminalClient.connect(other.port, username="cy")
        await third.wait_closed(20)
        assert third.exit_status == 1
        assert b"the server is full" in third.output
        # A player who leaves by quitting is not a refusal.
        bob = clients.pop()
        bob.send("q")
        await bob.wait_closed(20)
        assert bob.exit_status == 0
    finally:
        for client in clients:
            client.abort()
        await other.stop()
        await room.close()
        lobby.close()
