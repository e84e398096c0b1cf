"""The door of a real `rummy serve` room (the game service here, real worker processes on
one port): a password guesser that gives up on slow answers gets few guesses a minute
from its address, while another address logs in at once; a family of 8 behind one
router all log in at the same moment, whichever workers the kernel hands them to.

The guesser's minute is the door's clock (the service keeps the door), moved on by the
guesser as it waits between knocks: the test takes seconds, not a minute."""

from __future__ import annotations

import asyncio
import time

import asyncssh
import pytest
from ssh_room import FAST, arrive, until
from worker_room import OwnWorker, worker_of

from tui.net.testing import TerminalClient
from tui.net.workers import WorkerRoom
from tui.service.lobby import Lobby

pytestmark = pytest.mark.slow  # worker processes: a few seconds

PASSWORD = "tulip"
KNOCK = 0.5
"""Seconds (on the door's clock) a refused guesser waits before knocking again."""
GIVE_UP = 0.25
"""Seconds the guesser waits for an answer to its one password before abandoning."""


async def open_room(lobby: Lobby) -> WorkerRoom:
    return await WorkerRoom.open(lobby, 2, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=PASSWORD, max_sessions=40,
                                 idle_timeout=None)


async def guess(port: int, password: str) -> str:
    """One password on one connection: "in", "wrong", "abandoned" or "refused"."""
    try:
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username="mallory", password=password, known_hosts=None,
            agent_path=None, client_keys=(), preferred_auth="password"), GIVE_UP)
    except TimeoutError:
        return "abandoned"
    except asyncssh.ConnectionLost:  # refused while the client was still greeting
        return "refused"
    except asyncssh.DisconnectError as error:
        if "failed logins" in error.reason or "one login at a time" in error.reason:
            return "refused"
        assert isinstance(error, asyncssh.PermissionDenied), error
        return "wrong"
    except OSError:  # refused so early the client was still writing its greeting
        return "refused"
    conn.close()
    return "in"


async def test_an_abandoning_guesser_gets_few_guesses_a_minute_and_others_get_in() -> None:
    lobby = Lobby(FAST)
    room = await open_room(lobby)
    keeper = room.service.door
    skew = [0.0]
    keeper.clock = lambda: time.monotonic() + skew[0]
    clients: list[TerminalClient] = []
    try:
        start = keeper.clock()
        outcomes: list[str] = []
        friend_in = False
        while keeper.clock() - start < 60:
            outcomes.append(await guess(room.port, f"guess-{len(outcomes)}"))
            if outcomes[-1] == "refused":
                skew[0] += KNOCK
            if not friend_in and outcomes.count("abandoned") + outcomes.count("wrong") >= 3:
                # Meanwhile, from another address, a friend with the password gets in.
                clients.append(await arrive(room.port, "bob", password=PASSWORD,
                                            source="127.0.0.2"))
                friend_in = True
        tried = len(outcomes) - outcomes.count("refused")
        assert "in" not in outcomes
        assert tried <= 20, outcomes
        # Each try the door let through counted (abandoned ones too); on a busy machine a
        # try may be abandoned before the door answered it, which counts nothing.
        assert 3 <= keeper.failures("127.0.0.1") <= tried
        assert friend_in and keeper.failures("127.0.0.2") == 0
    finally:
        for client in clients:
            client.abort()
        await room.close()
        lobby.close()


async def test_a_family_of_eight_at_one_address_all_log_in_at_once() -> None:
    lobby = Lobby(FAST)
    room = await open_room(lobby)
    # Every one of them on the same worker: the cap is the server's, not a worker's share.
    worker = OwnWorker(room, 10)
    clients: list[TerminalClient] = []
    try:
        await worker.start()
        names = [f"kid{n}" for n in range(8)]
        for port in (worker.port, room.port):  # one worker, then the kernel's spread
            clients = list(await asyncio.gather(*(
                arrive(port, name, password=PASSWORD) for name in names)))
            assert room.service.session_count == 8
            assert all(worker_of(room, name) is not None for name in names)
            for client in clients:
                await client.close()
            await asyncio.gather(*(c.wait_closed() for c in clients))
            clients = []
            await until(lambda: room.service.session_count == 0)
        assert room.service.door.failures("127.0.0.1") == 0
    finally:
        for client in clients:
            client.abort()
        await worker.stop()
        await room.close()
        lobby.close()
