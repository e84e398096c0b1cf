"""Several machines on one machine: the game service on 127.0.0.4 (this process, so the
test can read the table), two worker "machines" (`rummy serve --workers-only`
processes, each with its own certificate) on 127.0.0.2 and 127.0.0.3, HAProxy (the
shipped docs/haproxy.cfg) in front on 127.0.0.1.  Players connect through HAProxy from
addresses of their own, sit at one table across both machines and play a deal; one
machine is killed in the middle of it and its player takes their seat back through
the other; a worker machine with a certificate from another CA is refused."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import sys
from pathlib import Path

import asyncssh
import pytest
from haproxy_kit import HAProxy, needs_haproxy
from ssh_room import IN_PLAY, arrive, create_table, join_and_deal, play_until, until

from tui.net.certs import make_certs
from tui.net.testing import TerminalClient
from tui.net.tls_link import service_context
from tui.net.workers import WorkerRoom
from tui.service.lobby import Lobby, LobbyConfig

pytestmark = needs_haproxy

ROOT = Path(__file__).resolve().parents[2]
SERVICE_HOST = "127.0.0.4"
# A seat whose player's machine went away waits for them (no bot takes it meanwhile).
CONFIG = LobbyConfig(bot_delay=0.01, grace=120, summary_pause=0.05, summary_timeout=30,
                     seed=5)


class WorkerMachine:
    """`rummy serve --workers-only` on `host`, in a process group of its own (killing
    the group is the machine going away, its worker processes with it)."""

    def __init__(self, host: str, tls: Path, host_key: Path, service_port: int,
                 home: Path) -> None:
        self.host = host
        self.args = ["--workers-only", "--service", f"{SERVICE_HOST}:{service_port}",
                     "--tls", str(tls), "--host", host, "--port", "0", "--workers", "1",
                     "--host-key", str(host_key), "--proxy-protocol", "127.0.0.1"]
        self.home = home
        self.port = 0
        self.said: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> WorkerMachine:
        env = dict(os.environ, RUMMY_HOME=str(self.home), PYTHONPATH=str(ROOT))
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui", "serve", *self.args, env=env,
            stdout=asyncio.subprocess.PIPE, start_new_session=True)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            self.said.append(line.decode(errors="replace").rstrip())
            found = re.search(rf"listening on {re.escape(self.host)}:(\d+)", self.said[-1])
            if found:
                self.port = int(found.group(1))

    async def listening(self) -> None:
        await until(lambda: self.port != 0, 60, f"the machine on {self.host} to listen")

    def kill(self) -> None:
        """The machine is gone: its processes end at once, without a word."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)

    async def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                await asyncio.wait_for(self.proc.wait(), 30)
            except (ProcessLookupError, TimeoutError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        if self._reader is not None:
            await self._reader


def machine_of(room: WorkerRoom, name: str) -> str | None:
    """The certificate name of the worker machine `name`'s session is on."""
    for link in room.service.links:
        if any(s.guest.name == name for s in link.sessions.values()):
            return link.machine
    return None


def linked(room: WorkerRoom) -> list[str]:
    return sorted(link.machine for link in room.service.links if link.worker is not None)


async def test_players_across_two_worker_machines_behind_haproxy(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tui.service.authority")
    certs, stranger = tmp_path / "certs", tmp_path / "other-ca"
    make_certs(certs, SERVICE_HOST, ["w1", "w2"])
    # An impostor: it trusts the host's CA (ca.pem is no secret) and has a certificate
    # of the right name, but from a CA of its own.
    make_certs(stranger, SERVICE_HOST, ["w1"])
    (stranger / "w1" / "ca.pem").write_bytes((certs / "ca.pem").read_bytes())
    host_key = tmp_path / "host_key"  # one host key for every machine
    asyncssh.generate_private_key("ssh-ed25519").write_private_key(host_key)
    host_key.chmod(0o600)

    lobby = Lobby(CONFIG)
    room = await WorkerRoom.open(lobby, 0, SERVICE_HOST, 0, host_key=host_key,
                                 authorized_keys=None, password=None, max_sessions=40,
                                 idle_timeout=None, service_listen=(SERVICE_HOST, 0),
                                 tls=service_context(certs / "service"))
    assert room.link_port is not None
    seen: list[str] = []  # every address the service's door hears of
    keeper = room.service.door
    arrive_at_door = keeper.arrive
    keeper.arrive = lambda attempt, address: (seen.append(address),  # type: ignore[method-assign]
                                              arrive_at_door(attempt, address))[1]
    machines = {name: WorkerMachine(host, certs / name, host_key, room.link_port,
                                    tmp_path / name)
                for name, host in (("w1", "127.0.0.2"), ("w2", "127.0.0.3"))}
    impostor = WorkerMachine("127.0.0.9", stranger / "w1", host_key, room.link_port,
                             tmp_path / "impostor")
    haproxy: HAProxy | None = None
    clients: list[TerminalClient] = []
    try:
        await asyncio.gather(*(m.start() for m in (*machines.values(), impostor)))
        await asyncio.gather(*(m.listening() for m in machines.values()))
        await until(lambda: linked(room) == ["w1", "w2"], 60, "both machines to link")
        # The impostor is turned away in the TLS handshake, before it says a word.
        await until(lambda: "refused a worker link from" in caplog.text, 60,
                    "the impostor's refusal")
        refusal = next(r.getMessage() for r in caplog.records
                       if "refused a worker link" in r.getMessage())
        assert "certificate" in refusal.lower(), refusal
        await impostor.stop()
        assert linked(room) == ["w1", "w2"]

        haproxy = await HAProxy([f"127.0.0.2:{machines['w1'].port}",
                                 f"127.0.0.3:{machines['w2'].port}"]).start()
        addresses = {"alice": "127.0.0.5", "bob": "127.0.0.8"}
        alice = await arrive(haproxy.port, "alice", keyed=True, source=addresses["alice"])
        clients.append(alice)
        await create_table(alice, "Three Thirteen", 3, "medium")
        bob = await arrive(haproxy.port, "bob", keyed=True, source=addresses["bob"])
        clients.append(bob)
        await join_and_deal(alice, "alice", bob, "bob")
        # One table, across both machines; the service knows each player's own address.
        on = {name: machine_of(room, name) for name in addresses}
        assert set(on.values()) == {"w1", "w2"}, on
        assert set(addresses.values()) <= set(seen) and "127.0.0.1" not in seen

        [shared] = lobby.tables
        assert shared.table is not None
        table, game = shared.table, shared.table.game
        players = {0: alice, 1: bob}
        await play_until(shared, players, lambda: len(
            [a for a in game.history if a.seat < 2]) >= 3 or game.phase not in IN_PLAY)
        assert game.phase in IN_PLAY and game.round.number == 1, "the deal ended early"

        # bob's machine goes away in the middle of the deal.
        gone = on["bob"]
        assert gone is not None
        machines[gone].kill()
        await bob.wait_closed(30)
        await until(lambda: gone not in linked(room), 30, "the service to lose the machine")
        assert not shared.seats[1].present and not table.is_bot(1)  # his seat waits
        # He connects again, as before: HAProxy sends him to the machine still up.
        back = await arrive(haproxy.port, "bob", keyed=True, source=addresses["bob"])
        clients.append(back)
        await back.wait_for("Deal 1 of 11")
        await until(lambda: shared.seats[1].present and not table.is_bot(1))
        assert machine_of(room, "bob") == on["alice"]
        assert seen.count(addresses["bob"]) >= 2

        # The deal is played to its end.
        await play_until(shared, {0: alice, 1: back}, lambda: game.phase == "round_over")
        await alice.wait_for("— over")
        await back.wait_for("— over")
    finally:
        for client in clients:
            client.abort()
        if haproxy is not None:
            await haproxy.stop()
        await asyncio.gather(*(m.stop() for m in (*machines.values(), impostor)))
        await room.close()
        lobby.close()
