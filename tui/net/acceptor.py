"""Accepting TCP connections for the SSH front, with or without a load balancer.

asyncssh's own listener hands each connection straight to SSH; this one first looks at
who connected.  A connection from a balancer named with `--proxy-protocol` must begin
with a PROXY header (`tui.net.proxy_protocol`) before SSH starts, and the address in it
is the one the connection reports from then on (`peername`), so the door, the logs and
`from=` in authorized_keys all see the player, not the balancer.  A connection from
anyone else is SSH at once, as without a balancer; if it begins with a PROXY header
anyway (a client trying to choose the address the door sees) it is closed.

Once the header is read (or the first bytes show plain SSH) the transport delivers
straight to asyncssh's protocol, so nothing is added per packet.  Until SSH has the
connection, `Arrivals` counts it: a worker that stops listening to retire looks there for
a connection accepted at the last moment (`tui.net.workers`).

A worker of `rummy serve` listens on a socket its pool made and keeps (`sock`), so the
connections waiting on it outlive the worker.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from typing import Any

import asyncssh

from tui.net.proxy_protocol import (
    BalancerCheck,
    Balancers,
    ProxiedAddress,
    ProxyHeaderError,
    looks_like_header,
    parse_header,
)

log = logging.getLogger(__name__)

HEADER_TIMEOUT = 5.0
"""Seconds a balancer has to send the whole header (it sends it at once on connect)."""


class ProxiedTransport(asyncio.Transport):
    """The connection's transport, reporting the player's address as its peer."""

    def __init__(self, transport: asyncio.Transport, address: ProxiedAddress) -> None:
        super().__init__()
        self._transport = transport
        self._peername = address.peername
        self.balancer = transport.get_extra_info("peername")
        """The balancer's own end of the connection."""

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername":
            return self._peername
        return self._transport.get_extra_info(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._transport.write(data)

    def writelines(self, list_of_data: Any) -> None:
        self._transport.writelines(list_of_data)

    def write_eof(self) -> None:
        self._transport.write_eof()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def abort(self) -> None:
        self._transport.abort()

    def close(self) -> None:
        self._transport.close()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None
                                ) -> None:
        self._transport.set_write_buffer_limits(high, low)


class Arrivals:
    """Connections accepted that SSH does not have yet (from the moment they are
    accepted until asyncssh's connection is made, or they are refused or lost)."""

    def __init__(self) -> None:
        self.count = 0


class FrontDoorProtocol(asyncio.Protocol):
    """The first bytes of one connection: a balancer's header, or plain SSH."""

    def __init__(self, make_ssh: Callable[[], asyncio.Protocol],
                 balancers: Balancers | None, header_timeout: float,
                 arrivals: Arrivals | None = None) -> None:
        self._make_ssh = make_ssh
        self._balancers = balancers
        self._header_timeout = header_timeout
        self._arrivals = arrivals
        if arrivals is not None:  # (made as the connection is accepted)
            arrivals.count += 1
        self._transport: asyncio.Transport | None = None
        self._ssh: asyncio.Protocol | None = None
        self._buffer = b""
        self._peer = ""
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        peer = transport.get_extra_info("peername") or ("", 0)
        self._peer = str(peer[0])
        if self._balancers is not None and self._balancers.trusts(self._peer):
            self._timer = asyncio.get_running_loop().call_later(
                self._header_timeout, self._too_slow)
        else:  # SSH at once: the server speaks first
            self._ssh = self._make_ssh()
            self._ssh.connection_made(transport)
            self._arrived()

    def _arrived(self) -> None:
        """SSH has the connection now (or nobody will): no longer counted here."""
        if self._arrivals is not None:
            self._arrivals.count -= 1
            self._arrivals = None

    def data_received(self, data: bytes) -> None:
        transport = self._transport
        if transport is None:
            return
        self._buffer += data
        if self._ssh is None:
            self._read_header(transport)
            return
        looks = looks_like_header(self._buffer)
        if looks is None:
            return
        if looks:
            log.warning("refused a connection from %s: it sent a PROXY header, and "
                        "%s is not a load balancer named with --proxy-protocol",
                        self._peer, self._peer)
            transport.abort()
            return
        self._pass_on(transport, self._ssh)

    def _read_header(self, transport: asyncio.Transport) -> None:
        try:
            parsed = parse_header(self._buffer)
        except BalancerCheck:  # HAProxy's health checks say LOCAL: closed, unlogged
            self._refuse(transport, "")
            return
        except ProxyHeaderError as error:
            self._refuse(transport, str(error))
            return
        if parsed is None:
            return
        address, used = parsed
        self._cancel_timer()
        self._buffer = self._buffer[used:]
        ssh = self._ssh = self._make_ssh()
        ssh.connection_made(ProxiedTransport(transport, address))
        self._arrived()
        self._pass_on(transport, ssh)

    def _pass_on(self, transport: asyncio.Transport, ssh: asyncio.Protocol) -> None:
        transport.set_protocol(ssh)
        rest, self._buffer = self._buffer, b""
        self._transport = None
        if rest:
            ssh.data_received(rest)

    def _refuse(self, transport: asyncio.Transport, why: str) -> None:
        self._cancel_timer()
        self._arrived()
        if why:
            log.warning("refused a connection from load balancer %s: %s", self._peer, why)
        self._transport = None
        transport.abort()

    def _too_slow(self) -> None:
        self._timer = None
        if self._transport is not None and self._ssh is None:
            self._refuse(self._transport, f"no complete PROXY header within "
                                          f"{self._header_timeout:g} seconds")

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def eof_received(self) -> bool | None:
        if self._ssh is not None:
            return self._ssh.eof_received()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timer()
        self._arrived()
        self._transport = None
        if self._ssh is not None:
            self._ssh.connection_lost(exc)

    def pause_writing(self) -> None:
        if self._ssh is not None:
            self._ssh.pause_writing()

    def resume_writing(self) -> None:
        if self._ssh is not None:
            self._ssh.resume_writing()


BACKLOG = 100
"""Connections the kernel holds for a listener until they are accepted."""


async def listen(make_ssh: Callable[[], asyncio.Protocol], host: str, port: int, *,
                 balancers: Balancers | None = None,
                 header_timeout: float = HEADER_TIMEOUT,
                 reuse_port: bool = False, sock: socket.socket | None = None,
                 arrivals: Arrivals | None = None) -> asyncio.Server:
    """Listen on `host:port`, or on the listening socket `sock` (a copy of it: `sock`
    stays open when this listener closes); each connection goes to a new `make_ssh()`
    protocol, after the balancer's header where `balancers` names the peer, and is
    counted in `arrivals` until then."""
    loop = asyncio.get_running_loop()

    def front() -> FrontDoorProtocol:
        return FrontDoorProtocol(make_ssh, balancers, header_timeout, arrivals)

    if sock is not None:
        return await loop.create_server(front, sock=sock.dup(), backlog=BACKLOG)
    return await loop.create_server(front, host, port, backlog=BACKLOG,
                                    reuse_port=reuse_port or None)


async def listen_ssh(server_factory: Callable[[], asyncssh.SSHServer], host: str, port: int,
                     *, balancers: Balancers | None = None,
                     header_timeout: float = HEADER_TIMEOUT, reuse_port: bool = False,
                     sock: socket.socket | None = None, arrivals: Arrivals | None = None,
                     **options: Any) -> asyncio.Server:
    """`asyncssh.create_server(server_factory, host, port, **options)`, accepting through
    `listen`: each connection is the one asyncssh's own listener would make."""
    ssh_options = await asyncssh.SSHServerConnectionOptions.construct(
        server_factory=server_factory, host=host, port=port, **options)
    ssh_options.proxy_command = None  # (as asyncssh.listen has it)
    loop = asyncio.get_running_loop()
    return await listen(lambda: asyncssh.SSHServerConnection(loop, ssh_options), host, port,
                        balancers=balancers, header_timeout=header_timeout,
                        reuse_port=reuse_port, sock=sock, arrivals=arrivals)
