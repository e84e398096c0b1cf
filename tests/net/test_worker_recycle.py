"""Workers replaced without losing a connection: the pool keeps each worker's listening
socket, so a connection that arrives while its worker retires, or dies, waits in that
socket's queue for the next worker instead of being reset; an empty worker that grew
retires and its place gets a fresh process that sees the lobby as it is; a worker with
players never retires.

Real worker processes on loopback.  The tests make retiring easy (a short wait, no
growth needed) so that it happens often, and wait for it, never for a time.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
from pathlib import Path

import pytest
from ssh_room import FAST, arrive, until
from worker_room import ready_workers, worker_of

from tui.net.certs import make_certs
from tui.net.proxy_protocol import Balancers
from tui.net.startup import start_server
from tui.net.testing import TerminalClient, counter_factory
from tui.net.tls_link import service_context
from tui.net.worker_machine import WorkerMachine
from tui.net.workers import WorkerRoom, WorkerSettings, listening_socket
from tui.service.lobby import Lobby

pytestmark = pytest.mark.slow  # starts (and replaces) worker processes: several seconds

EAGER = {"retire_idle": 0.3, "retire_growth": 0.0}
"""Retire after 0.3 s without a connection, however little the worker grew."""


@pytest.mark.parametrize("proxy", [False, True], ids=["plain", "behind a balancer"])
async def test_a_server_on_a_kept_socket_counts_every_connection_and_leaves_the_queue(
        proxy: bool) -> None:
    """What a retiring worker relies on: a connection accepted but not logged in (nor,
    from a balancer, past its header) makes the server not quiet; after
    `stop_listening` connections wait in the socket's queue, served once it listens
    again; and the socket given stays listening when the server closes."""
    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = await start_server(counter_factory, sock=sock, idle_timeout=None,
                                proxy_protocol=Balancers.parse("127.0.0.1") if proxy
                                else None)
    raws: list[socket.socket] = []
    try:
        assert server.quiet
        raws.append(socket.create_connection(("127.0.0.1", port)))
        await until(lambda: not server.quiet, 10, "the connection to count")
        assert server.connection_count == (0 if proxy else 1)
        server.stop_listening()
        raws.append(socket.create_connection(("127.0.0.1", port)))  # queued, not refused
        await server.listen_again()
        if not proxy:
            await until(lambda: server.connection_count == 2, 10, "the queued one served")
        raws[0].close()
    finally:
        await server.close()
    raws.append(socket.create_connection(("127.0.0.1", port)))  # still listening
    for raw in raws:
        raw.close()
    sock.close()


async def open_room(lobby: Lobby, workers: int, **retire: float | None) -> WorkerRoom:
    return await WorkerRoom.open(lobby, workers, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=None, max_sessions=40,
                                 idle_timeout=None, **retire)


async def test_players_arriving_while_workers_retire_all_get_in() -> None:
    lobby = Lobby(FAST)
    room = await open_room(lobby, 2, **EAGER)
    got_in: list[str] = []
    mid_replacement = 0
    try:
        # Each time a worker retires, two players arrive at once, before its place has
        # a worker again (a connection the kernel puts there waits for the fresh one):
        # every one of them must get in.
        for turn in range(40):
            retired = room.pool.retirements
            await until(lambda r=retired: room.pool.retirements > r, 60, "a retirement")
            if len(ready_workers(room)) < 2:
                mid_replacement += 1
            names = [f"a{turn}", f"b{turn}"]
            clients = await asyncio.gather(*(arrive(room.port, n) for n in names))
            got_in += names
            for client in clients:
                await client.close()
            if mid_replacement >= 4:
                break
        assert mid_replacement >= 4, "players never arrived while a worker was replaced"
        assert room.pool.restarts == 0, "a retired worker was taken for a crashed one"
    finally:
        await room.close()
        lobby.close()
    assert len(got_in) >= 8


async def test_a_connection_waiting_for_a_killed_worker_is_served_by_the_next() -> None:
    lobby = Lobby(FAST)
    room = await open_room(lobby, 1, retire_idle=None)
    waiting = socket.socket()
    client: TerminalClient | None = None
    try:
        first = room.pool.processes[0].pid
        os.kill(first, signal.SIGSTOP)  # it accepts nothing now: the connection queues
        waiting.connect(("127.0.0.1", room.port))
        os.kill(first, signal.SIGKILL)
        await room.pool.processes[0].wait()
        client = await TerminalClient.connect(room.port, username="queued", sock=waiting)
        await client.wait_for("you are queued", 60)
        assert room.pool.restarts == 1 and room.pool.processes[0].pid != first
    finally:
        if client is not None:
            client.abort()
        waiting.close()
        await room.close()
        lobby.close()


async def test_a_retired_workers_place_gets_a_fresh_process_that_sees_the_lobby() -> None:
    lobby = Lobby(FAST)
    room = await open_room(lobby, 1, retire_idle=0.5, retire_growth=0.0)
    outsider = lobby.enter("outsider")
    clients: list[TerminalClient] = []
    try:
        outsider.create("three_thirteen", 2, "medium")
        first = room.pool.processes[0].pid
        visitor = await arrive(room.port, "visitor")
        await visitor.wait_for("1 table", 10)
        await visitor.close()
        # Left empty, the worker retires; the pool puts a fresh one in its place.
        await until(lambda: room.pool.retirements >= 1 and 0 in ready_workers(room)
                    and room.pool.processes[0].pid != first, 60, "a fresh worker")
        clients.append(await arrive(room.port, "late"))
        late = clients[0]
        await late.wait_for("1 table", 10)
        # ...and every change after reaches it.
        lobby.enter("another").create("three_thirteen", 2, "medium")
        await late.wait_for("2 tables", 10)
        assert room.pool.restarts == 0
    finally:
        for client in clients:
            client.abort()
        await room.close()
        lobby.close()


async def test_a_worker_with_a_player_never_retires() -> None:
    lobby = Lobby(FAST)
    room = await open_room(lobby, 2, **EAGER)
    clients: list[TerminalClient] = []
    try:
        clients.append(await arrive(room.port, "stayer"))
        stayer = clients[0]
        busy = worker_of(room, "stayer")
        assert busy is not None
        pid = room.pool.processes[busy].pid
        # The other worker, empty, retires again and again meanwhile.
        await until(lambda: room.pool.retirements >= 3, 120, "the empty worker to retire")
        assert room.pool.processes[busy].pid == pid
        assert worker_of(room, "stayer") == busy
        stayer.send("c")  # the player's app still answers
        await stayer.wait_for("New table", 20)
    finally:
        for client in clients:
            client.abort()
        await room.close()
        lobby.close()


async def test_a_worker_machines_worker_retires_and_its_place_takes_players(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`rummy serve --workers-only`: the same pool, linked to a service elsewhere.  The
    worker says it retires: the service logs no loss."""
    caplog.set_level(logging.INFO, logger="tui.service.authority")
    make_certs(tmp_path, "127.0.0.4", ["m1"])
    lobby = Lobby(FAST)
    room = await WorkerRoom.open(lobby, 0, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=None, max_sessions=40,
                                 idle_timeout=None, service_listen=("127.0.0.4", 0),
                                 tls=service_context(tmp_path / "service"))
    machine = await WorkerMachine.open(WorkerSettings(
        "127.0.0.1", 0, "", max_sessions=40, service=f"127.0.0.4:{room.link_port}",
        tls=str(tmp_path / "m1"), retire_idle=0.5, retire_growth=0.0), 1, None)
    clients: list[TerminalClient] = []
    try:
        await room.service.wait_workers(1, 60)
        first = machine.pool.processes[0].pid
        await until(lambda: machine.pool.retirements >= 1
                    and machine.pool.processes[0].pid != first, 60, "a retirement")
        clients.append(await arrive(machine.port, "roamer"))
        assert machine.pool.restarts == 0
        said = [(r.levelno, r.getMessage()) for r in caplog.records]
        assert (logging.INFO, "worker m1/0 retired") in said
        assert not [m for level, m in said if level >= logging.WARNING and "gone" in m]
    finally:
        for client in clients:
            client.abort()
        await machine.close()
        await room.close()
        lobby.close()
