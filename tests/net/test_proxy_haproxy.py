"""HAProxy (docs/haproxy.cfg as shipped) in front of `rummy serve` workers on 127.0.0.2
and 127.0.0.3 with `--proxy-protocol 127.0.0.1`: the game service sees each player's
own address, not HAProxy's, so a password guesser is penalised by its address while a
friend logs in through the same balancer at once; a machine that is down costs no
player a login.  Without haproxy on the machine these are skipped, saying so."""

from __future__ import annotations

import asyncio

import asyncssh
from haproxy_kit import HAProxy, free_port, needs_haproxy
from proxy_headers import v2
from ssh_room import FAST, arrive, until
from worker_room import OwnWorker, worker_of

from tui.net.door import DoorLimits
from tui.net.proxy_protocol import Balancers
from tui.net.startup import start_server
from tui.net.testing import TerminalClient, counter_factory
from tui.net.workers import WorkerRoom
from tui.service.lobby import Lobby

PASSWORD = "tulip"
GIVE_UP = 3.0
"""Seconds the guesser waits for an answer to its one password before abandoning (the
answer to a wrong one waits as long as the penalty, a minute here)."""
MAX_FRIENDS = 12
"""Friends who log in before both workers must have one (two, but for a health check)."""


async def guess(port: int, source: str, patience: float) -> str:
    """One wrong password from `source` through HAProxy: "abandoned" (no answer in
    `patience` seconds), "wrong" or "refused"."""
    try:
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username="mallory", password="guess", known_hosts=None,
            agent_path=None, client_keys=(), preferred_auth="password",
            local_addr=(source, 0)), patience)
    except TimeoutError:
        return "abandoned"
    except asyncssh.PermissionDenied:
        return "wrong"
    except (asyncssh.ConnectionLost, OSError):  # refused while still greeting
        return "refused"  # (before DisconnectError: ConnectionLost is one)
    except asyncssh.DisconnectError as error:
        assert "failed logins" in error.reason or "one login at a time" in error.reason, \
            error.reason
        return "refused"
    conn.close()
    raise AssertionError("a wrong password got in")


@needs_haproxy
async def test_players_through_haproxy_are_seen_and_penalised_by_their_own_address() -> None:
    lobby = Lobby(FAST)
    # A penalty outlasting the test, and an answer to a wrong password that waits as long.
    door = DoorLimits(first_penalty=60.0, max_penalty=60.0)
    room = await WorkerRoom.open(lobby, 1, "127.0.0.2", 0, host_key=None,
                                 authorized_keys=None, password=PASSWORD, max_sessions=40,
                                 idle_timeout=None, door_limits=door,
                                 proxy_protocol="127.0.0.1")
    other = OwnWorker(room, 10, host="127.0.0.3")
    keeper = room.service.door
    seen: list[str] = []
    arrive_at_door = keeper.arrive
    keeper.arrive = lambda attempt, address: (seen.append(address),  # type: ignore[method-assign]
                                              arrive_at_door(attempt, address))[1]
    haproxy = HAProxy([f"127.0.0.2:{room.port}", f"127.0.0.3:{other.port}"])
    clients: list[TerminalClient] = []
    try:
        await other.start()
        await haproxy.start()
        # Friends, one after the other, until both workers hold one: round robin puts
        # the first two on both, unless a health check on a loaded machine has just
        # taken a worker out for a moment (HAProxy then sends everyone to the other).
        friends: dict[str, str] = {}
        for n in range(MAX_FRIENDS):
            name, source = f"friend{n}", f"127.0.1.{n + 1}"
            clients.append(await arrive(haproxy.port, name, password=PASSWORD,
                                        source=source))
            friends[name] = source
            if {worker_of(room, f) for f in friends} == {0, 10}:
                break
        assert {worker_of(room, f) for f in friends} == {0, 10}
        assert set(friends.values()) <= set(seen)
        assert "127.0.0.1" not in seen

        # A guesser at 127.0.0.6 gives up waiting on its wrong password: penalised...
        assert await guess(haproxy.port, "127.0.0.6", GIVE_UP) == "abandoned"
        await until(lambda: keeper.failures("127.0.0.6") >= 1, what="the penalty")
        # ...so its next tries through HAProxy, on either worker, are refused at once...
        assert [await guess(haproxy.port, "127.0.0.6", 20) for _ in range(2)] == \
            ["refused", "refused"]
        # ...while a friend at 127.0.0.7 logs in through the same HAProxy.
        clients.append(await arrive(haproxy.port, "cat", password=PASSWORD,
                                    source="127.0.0.7"))
        assert keeper.failures("127.0.0.7") == 0
        assert keeper.failures("127.0.0.1") == 0  # HAProxy's own address: never blamed
    finally:
        for client in clients:
            client.abort()
        await haproxy.stop()
        await other.stop()
        await room.close()
        lobby.close()


async def test_a_worker_refuses_a_header_sent_around_the_balancer() -> None:
    """Straight to a worker process from an address that is not the balancer's: a
    forged header naming someone else is refused; the door never hears that address."""
    lobby = Lobby(FAST)
    room = await WorkerRoom.open(lobby, 1, "127.0.0.2", 0, host_key=None,
                                 authorized_keys=None, password=PASSWORD, max_sessions=40,
                                 idle_timeout=None, proxy_protocol="127.0.0.1")
    keeper = room.service.door
    seen: list[str] = []
    arrive_at_door = keeper.arrive
    keeper.arrive = lambda attempt, address: (seen.append(address),  # type: ignore[method-assign]
                                              arrive_at_door(attempt, address))[1]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.2", room.port,
                                                       local_addr=("127.0.0.9", 0))
        writer.write(v2(("127.0.0.77", 1)))
        assert await reader.readline() == b"SSH-2.0-rummy-tui\r\n"
        assert await reader.read() == b""  # closed
        writer.close()
        await until(lambda: "127.0.0.9" in seen)
        assert "127.0.0.77" not in seen
    finally:
        await room.close()
        lobby.close()


@needs_haproxy
async def test_a_machine_that_is_down_costs_no_player_a_login() -> None:
    """docs/haproxy.cfg sends a player on to the next machine when one refuses the
    connection (before its checks have even marked it down): every player gets in."""
    server = await start_server(counter_factory, "127.0.0.2", 0, idle_timeout=None,
                                proxy_protocol=Balancers.parse("127.0.0.1"))
    haproxy = HAProxy([f"127.0.0.2:{server.port}", f"127.0.0.3:{free_port('127.0.0.3')}"])
    clients: list[TerminalClient] = []
    try:
        await haproxy.start()
        for number in range(4):  # round robin: every other one is sent to the dead one
            client = await TerminalClient.connect(haproxy.port, username=f"p{number}",
                                                  source=f"127.0.0.{20 + number}")
            clients.append(client)
            await client.wait_for(f"user=p{number}")
        assert sorted(info.peer.split(":")[0] for info in server.sessions) == \
            [f"127.0.0.{20 + number}" for number in range(4)]
    finally:
        for client in clients:
            client.abort()
        await haproxy.stop()
        await server.close()
