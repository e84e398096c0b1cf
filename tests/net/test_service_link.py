"""Session workers on other machines: a `rummy serve --workers-only` process (on
127.0.0.2) linked over TCP and TLS to the game service (on 127.0.0.4) carries a player
to a table and their moves; its link lost, the player is told their seat is kept and
carries on when it is back; a worker without a certificate from the host's CA is
refused in the handshake, before a line of it is read."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import ssl
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from ssh_room import FAST, arrive, create_table, play_move, until
from worker_machines import (
    ROOT,
    SERVICE_HOST,
    WorkerMachine,
    certificates,
    foreign_certificate,
    host_key,
)

from tui.engine.game import Game
from tui.net.testing import TerminalClient
from tui.net.tls_link import service_context
from tui.net.workers import WorkerRoom
from tui.service.kept_tables import KeptTable, SqliteTables
from tui.service.lobby import Lobby, LobbyConfig

LINK_LOG = "tui.service.authority"


async def open_service(certs: Path, config: LobbyConfig = FAST) -> tuple[WorkerRoom, Lobby]:
    """The game service alone (no local workers), taking worker machines over TLS."""
    lobby = Lobby(config)
    room = await WorkerRoom.open(lobby, 0, "127.0.0.1", 0, host_key=None,
                                 authorized_keys=None, password=None, max_sessions=20,
                                 idle_timeout=None, service_listen=(SERVICE_HOST, 0),
                                 tls=service_context(certs / "service"))
    return room, lobby


def machines_linked(room: WorkerRoom) -> list[str]:
    return [link.machine for link in room.service.links if link.worker is not None]


async def test_a_worker_machine_carries_a_player_through_a_lost_link(tmp_path: Path) -> None:
    certs = certificates(tmp_path / "certs", ["w1"])
    room, lobby = await open_service(certs, replace(FAST, grace=60.0))
    assert room.link_port is not None
    machine = WorkerMachine(tmp_path / "w1", "127.0.0.2", room.link_port, certs / "w1",
                            host_key(tmp_path))
    bob: TerminalClient | None = None
    try:
        await machine.start()
        assert machines_linked(room) == ["w1"]
        bob = await arrive(machine.port, "bob", host="127.0.0.2")  # keyless: by his code
        await create_table(bob, "Three Thirteen", 2, "medium")
        bob.send("s")
        await bob.wait_for("Deal 1 of", 30)
        shared = lobby.tables[0]
        seat = next(i for i, s in enumerate(shared.seats) if s.person == "bob")
        await play_move(bob, shared, seat, timeout=30)

        # The network between the machines fails: the service drops the machine's
        # players (seats kept), the machine tells them so and dials again.
        link = next(link for link in room.service.links if link.machine == "w1")
        link.writer.transport.abort()
        await bob.wait_for("Reconnecting", 20)
        assert shared.seats[seat].person == "bob"  # held for him, not given away
        await machine.linked(times=2)
        await bob.wait_for("Reconnected", 30)
        await until(lambda: any(s.guest.name == "bob" and s.guest.handle is not None
                                for link in room.service.links
                                for s in link.sessions.values()), what="bob seated again")
        await play_move(bob, shared, seat, timeout=30)  # and he plays on, same screen
        assert not bob.closed.is_set()
    finally:
        if bob is not None:
            bob.abort()
        await machine.stop()
        await room.close()
        lobby.close()


async def test_a_worker_without_the_hosts_certificate_is_refused_before_a_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, LINK_LOG)
    certs = certificates(tmp_path / "certs", ["w1"])
    intruder = foreign_certificate(tmp_path / "other", certs)
    room, lobby = await open_service(certs)
    assert room.link_port is not None
    machine = WorkerMachine(tmp_path / "bad", "127.0.0.3", room.link_port, intruder,
                            host_key(tmp_path))
    try:
        def refusals() -> list[str]:
            return [r.getMessage() for r in caplog.records
                    if "refused a worker link" in r.getMessage()]

        # A client that trusts the service but has no certificate, and speaks at once.
        bare = ssl.create_default_context(cafile=str(certs / "service" / "ca.pem"))
        reader, writer = await asyncio.open_connection(SERVICE_HOST, room.link_port, ssl=bare)
        writer.write(b'{"t":"hello","worker":7}\n')
        with contextlib.suppress(OSError):  # (the service ends it, with an alert)
            await reader.read()
        writer.close()
        await until(lambda: len(refusals()) == 1, 30, "the bare client refused")
        assert "CERTIFICATE" in refusals()[0].upper()
        # A worker machine with a certificate from another CA.
        await machine.start(linked=False)
        await until(lambda: len(refusals()) >= 2, 30, "the foreign worker refused")
        assert "CERTIFICATE" in refusals()[1].upper()
        await until(lambda: machine.said_times("cannot reach the game service") +
                    machine.said_times("lost the game service") >= 1, 30,
                    "the foreign worker to see it is not linked")
        # Nothing either sent was read: no link, no message refused, no worker said hello.
        assert not room.service.links
        assert not any("refused a message" in r.getMessage() for r in caplog.records)
        assert machine.said_times("linked to the game service") == 0
        # Its players are told the service is out of reach, and let go.
        eve = await TerminalClient.connect(machine.port, host="127.0.0.3", username="eve")
        await eve.wait_closed(30)
        assert b"out of reach" in eve.output
    finally:
        await machine.stop()
        await room.close()
        lobby.close()


class ServiceProcess:
    """`rummy serve --service-listen 127.0.0.4:PORT --workers 0`: the game service alone,
    in a process of its own (killed and started again on the same data folder)."""

    def __init__(self, home: Path, port: int, certs: Path) -> None:
        self.home = home
        self.args = ["--service-listen", f"{SERVICE_HOST}:{port}", "--tls",
                     str(certs / "service"), "--workers", "0", "--port", "0",
                     "--bot-delay", "0", "--grace", "60", "--turn-timeout", "0"]
        self.said: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> ServiceProcess:
        env = dict(os.environ, RUMMY_HOME=str(self.home), PYTHONPATH=str(ROOT))
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui", "serve", *self.args, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        assert self.proc.stdout is not None
        stdout = self.proc.stdout

        async def read() -> None:
            while line := await stdout.readline():
                self.said.append(line.decode(errors="replace"))

        self._reader = asyncio.create_task(read())
        await until(lambda: any("taking worker machines" in line for line in self.said),
                    60, "the service to listen")
        return self

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
            await self._reader


def kept_game(home: Path) -> Game:
    entry = SqliteTables(home / "data" / "tables").load(1)
    assert isinstance(entry, KeptTable)
    return entry.game


async def bob_moves(home: Path, bob: TerminalClient, seat: int) -> None:
    """When it is bob's turn (the bot's are played by the service), he draws or
    discards by keys; until the service has kept the move."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while loop.time() < deadline:
        game = kept_game(home)
        if game.actor != seat:
            await asyncio.sleep(0.05)
            continue
        done = len(game.history)
        bob.send("s" if game.phase == "draw" else "d")
        with contextlib.suppress(AssertionError):
            await until(lambda done=done: len(kept_game(home).history) > done, 1.0)
            return
    raise AssertionError(f"bob never moved; screen:\n{bob.text}")


@pytest.mark.slow  # the service started twice, a worker machine: about 15 s
async def test_a_killed_and_restarted_service_gets_the_worker_machines_players_back(
        tmp_path: Path) -> None:
    certs = certificates(tmp_path / "certs", ["w1"])
    probe = socket.socket()
    probe.bind((SERVICE_HOST, 0))
    port = probe.getsockname()[1]
    probe.close()
    home = tmp_path / "service"
    service = await ServiceProcess(home, port, certs).start()
    machine = WorkerMachine(tmp_path / "w1", "127.0.0.2", port, certs / "w1",
                            host_key(tmp_path))
    bob: TerminalClient | None = None
    again: ServiceProcess | None = None
    try:
        await machine.start()
        bob = await arrive(machine.port, "bob", host="127.0.0.2")
        await create_table(bob, "Three Thirteen", 2, "medium")
        bob.send("s")
        await bob.wait_for("Deal 1 of", 30)
        seat = next(i for i, s in enumerate(
            SqliteTables(home / "data" / "tables").load(1).seats) if s["person"] == "bob")
        await bob_moves(home, bob, seat)
        await service.kill()
        await bob.wait_for("Reconnecting", 30)
        before = len(kept_game(home).history)
        again = await ServiceProcess(home, port, certs).start()
        await machine.linked(times=2)
        await bob.wait_for("Reconnected", 30)
        await bob_moves(home, bob, seat)  # at the same table, kept by the new service
        assert len(kept_game(home).history) > before
    finally:
        if bob is not None:
            bob.abort()
        await machine.stop()
        for process in (service, again):
            if process is not None:
                await process.kill()
