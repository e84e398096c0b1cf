"""The SSH front behind a load balancer: a PROXY header from a balancer named with
`--proxy-protocol` gives the player's address to the door and the logs; from anyone
else it is refused, and a balancer that sends no valid header (or too slowly) is cut
off before SSH begins.  The server runs in this process; the "balancer" is a socket
from 127.0.0.1 that writes the header as HAProxy would."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path

import asyncssh
import pytest
from proxy_headers import balancer_socket, closed_by_server, v1, v2
from ssh_room import key_of, until

from tui.cli import main
from tui.commands import serve as serve_command
from tui.net.door import DoorLimits
from tui.net.proxy_protocol import Balancers
from tui.net.server import Server
from tui.net.startup import start_server
from tui.net.testing import TerminalClient, counter_factory

BALANCER = Balancers.parse("127.0.0.1")
PASSWORD = "tulip"
DOOR = DoorLimits(first_penalty=60.0, max_penalty=60.0)
"""A penalty outlasting the test: a penalised address stays refused."""


async def serve(**options: object) -> Server:
    options.setdefault("idle_timeout", None)
    return await start_server(counter_factory, "127.0.0.1", 0, **options)  # type: ignore[arg-type]



async def serve_noting_arrivals(**options: object) -> tuple[Server, list[str]]:
    """A server (`serve`) and, as they come, the addresses its door sees arrive."""
    server = await serve(**options)
    arrivals: list[str] = []
    arrive = server.doorway.arrive
    server.doorway.arrive = lambda conn, address: (arrivals.append(address),  # type: ignore[method-assign]
                                                   arrive(conn, address))[1]
    return server, arrivals

async def through_balancer(server: Server, player: str, header: bytes | None = None,
                           **options: object) -> TerminalClient:
    sock = balancer_socket(server.port, header if header is not None
                           else v2((player, 40000), ("127.0.0.1", server.port)))
    client = await TerminalClient.connect(server.port, sock=sock, **options)  # type: ignore[arg-type]
    await client.wait_for("user=")
    return client


@pytest.mark.parametrize("version", ["v2", "v1"])
async def test_the_door_and_the_session_see_the_player_not_the_balancer(version: str) -> None:
    server, arrivals = await serve_noting_arrivals(proxy_protocol=BALANCER)
    try:
        header = (v2 if version == "v2" else v1)(("127.0.0.5", 40123), ("127.0.0.1", 22))
        client = await through_balancer(server, "127.0.0.5", header)
        assert [info.peer for info in server.sessions] == ["127.0.0.5:40123"]
        assert arrivals == ["127.0.0.5"]
        await client.close()
    finally:
        await server.close()


async def test_penalties_hold_per_player_behind_one_balancer() -> None:
    server = await serve(proxy_protocol=BALANCER, password=PASSWORD, door_limits=DOOR,
                         sleep=lambda seconds: asyncio.sleep(0))
    clients: list[TerminalClient] = []
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await through_balancer(server, "127.0.0.6", password="guess-1",
                                   username="mallory")
        keeper = server.door.keeper
        assert keeper.failures("127.0.0.6") >= 1
        # The guesser's next try through the balancer is refused before it may guess...
        with pytest.raises((asyncssh.DisconnectError, asyncssh.ConnectionLost)) as refused:
            await through_balancer(server, "127.0.0.6", password=PASSWORD,
                                   username="mallory")
        if isinstance(refused.value, asyncssh.DisconnectError):
            assert "failed logins" in refused.value.reason
        # ...while a friend through the same balancer logs in at once.
        clients.append(await through_balancer(server, "127.0.0.7", password=PASSWORD,
                                              username="bob"))
        assert keeper.failures("127.0.0.7") == 0
        assert keeper.failures("127.0.0.1") == 0  # the balancer itself: never penalised
    finally:
        for client in clients:
            await client.close()
        await server.close()


@pytest.mark.parametrize("header", [v2(("127.0.0.9", 1)), v1(("127.0.0.9", 1))],
                         ids=["v2", "v1"])
@pytest.mark.parametrize("balancers", [None, Balancers.parse("127.0.0.3")],
                         ids=["no option", "another balancer"])
async def test_a_header_from_anyone_else_is_refused(
        header: bytes, balancers: Balancers | None, caplog: pytest.LogCaptureFixture) -> None:
    server, arrivals = await serve_noting_arrivals(proxy_protocol=balancers)
    try:
        with caplog.at_level(logging.WARNING, logger="tui.net.acceptor"):
            received = await closed_by_server(server.port, header, source="127.0.0.2")
        assert received.startswith(b"SSH-2.0-rummy-tui")  # SSH had begun, as for anyone
        assert "127.0.0.9" not in arrivals
        assert "127.0.0.2 is not a load balancer" in caplog.text
        # Plain SSH from that address still works, under its own address.
        client = await TerminalClient.connect(server.port, source="127.0.0.2")
        await client.wait_for("user=")
        assert [info.peer.split(":")[0] for info in server.sessions] == ["127.0.0.2"]
        await client.close()
    finally:
        await server.close()


@pytest.mark.parametrize(("what", "first"), [
    ("plain SSH", b"SSH-2.0-OpenSSH_9.2\r\n"),
    ("AF_UNIX", v2(("127.0.0.9", 1), family=0x3)),
    ("garbage", b"GET / HTTP/1.0\r\n\r\n"),
    ("oversized", v2(("127.0.0.9", 1))[:14] + b"\xff\xff"),
], ids=["plain SSH", "AF_UNIX", "garbage", "oversized"])
async def test_a_balancer_without_a_valid_header_is_cut_off_before_ssh(
        what: str, first: bytes, caplog: pytest.LogCaptureFixture) -> None:
    server = await serve(proxy_protocol=BALANCER)
    try:
        with caplog.at_level(logging.WARNING, logger="tui.net.acceptor"):
            received = await closed_by_server(server.port, first, source="127.0.0.1")
        assert received == b""  # not even the SSH greeting
        assert "refused a connection from load balancer 127.0.0.1" in caplog.text
        assert server.door.pending == 0
    finally:
        await server.close()


async def test_a_balancer_health_check_is_closed_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    """HAProxy's health checks send a LOCAL header (no player behind it) every second
    or so: each is closed before SSH, never reaches the door, and fills no log."""
    server = await serve(proxy_protocol=BALANCER)
    try:
        with caplog.at_level(logging.DEBUG, logger="tui.net.acceptor"):
            received = await closed_by_server(server.port, v2(("127.0.0.9", 1), command=0x0))
        assert received == b""
        assert caplog.text == ""
        assert server.door.pending == 0
    finally:
        await server.close()


async def test_a_header_dripped_slower_than_the_limit_is_cut_off() -> None:
    timeout = 0.2
    server = await serve(proxy_protocol=BALANCER, proxy_header_timeout=timeout)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port,
                                                       local_addr=("127.0.0.1", 0))
        header = v2(("127.0.0.9", 1))
        sent = 0
        closed = False
        while not closed and sent < len(header):
            writer.write(header[sent:sent + 1])
            sent += 1
            try:  # a drip every half limit: the whole header would take 14 limits
                closed = await asyncio.wait_for(reader.read(1), timeout / 2) == b""
            except TimeoutError:
                pass
            except ConnectionResetError:
                closed = True
        if not closed:
            closed = await asyncio.wait_for(reader.read(1), 10) == b""
        assert closed and sent < len(header)
        writer.close()
        await until(lambda: not server._connections)
    finally:
        await server.close()


def test_a_balancer_that_is_not_an_address_is_a_usage_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--proxy-protocol", "127.0.0.1,balancer"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "'balancer' is not an address" in err and "Traceback" not in err


async def test_rummy_serve_hands_the_option_to_its_worker_processes() -> None:
    """`rummy serve --proxy-protocol` with a worker process: the balancer's player gets
    in (a worker without the option would refuse the header and close)."""
    said: list[str] = []
    stop = asyncio.Event()
    serving = asyncio.create_task(serve_command.serve(
        host="127.0.0.1", port=0, workers=1, keep_tables=False, idle_timeout=None,
        proxy_protocol=BALANCER, stop=stop, report=said.append))
    try:
        await until(lambda: any("listening on" in line for line in said) or serving.done(),
                    60, "the server to listen")
        found = re.search(r"127\.0\.0\.1:(\d+)", "\n".join(said))
        assert found, said
        port = int(found.group(1))
        client = await TerminalClient.connect(
            port, username="ann", sock=balancer_socket(port, v2(("127.0.0.5", 40000))))
        await client.wait_for("you are ann", 30)
        await client.close()
    finally:
        stop.set()
        await serving


async def test_from_in_authorized_keys_is_held_to_the_player_address(tmp_path: Path) -> None:
    """A key allowed only `from="127.0.0.5"` gets in through the balancer for a player
    at 127.0.0.5, and not for one elsewhere (HAProxy's own address does not count)."""
    key = key_of("ann")
    keys = tmp_path / "authorized_keys"
    keys.write_text(f'from="127.0.0.5" {key.export_public_key().decode()}')
    server = await serve(proxy_protocol=BALANCER, authorized_keys=keys)
    try:
        client = await through_balancer(server, "127.0.0.5", client_keys=[key])
        await client.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await through_balancer(server, "127.0.0.6", client_keys=[key])
    finally:
        await server.close()
