"""Test kit for the PROXY protocol: headers as a load balancer writes them, and a
"balancer" connection that sends one before the player's SSH.

Written from the specification (HAProxy's proxy-protocol.txt), apart from the parser in
`tui.net.proxy_protocol`, so the tests do not check the parser against itself.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import struct

from tui.net.proxy_protocol import crc32c

SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"


def v2(source: tuple[str, int], destination: tuple[str, int] = ("127.0.0.1", 2222), *,
       tlvs: bytes = b"", command: int = 0x1, family: int | None = None,
       transport: int = 0x1, version: int = 2, checksum: bool = False) -> bytes:
    """A version 2 header; `family` None picks it from the addresses."""
    src, dst = ipaddress.ip_address(source[0]), ipaddress.ip_address(destination[0])
    if family is None:
        family = 0x1 if src.version == 4 else 0x2
    body = src.packed + dst.packed + struct.pack("!HH", source[1], destination[1]) + tlvs
    if checksum:
        body += b"\x03\x00\x04" + bytes(4)
    head = SIGNATURE + bytes([version << 4 | command, family << 4 | transport])
    header = head + struct.pack("!H", len(body)) + body
    if checksum:
        header = header[:-4] + struct.pack("!I", crc32c(header))
    return header


def v1(source: tuple[str, int], destination: tuple[str, int] = ("127.0.0.1", 2222)) -> bytes:
    protocol = "TCP4" if ipaddress.ip_address(source[0]).version == 4 else "TCP6"
    return (f"PROXY {protocol} {source[0]} {destination[0]} {source[1]} "
            f"{destination[1]}\r\n").encode()


def tlv(kind: int, value: bytes) -> bytes:
    return bytes([kind]) + struct.pack("!H", len(value)) + value


def balancer_socket(port: int, header: bytes, balancer: str = "127.0.0.1") -> socket.socket:
    """A connection from `balancer` to the worker at `port` that has sent `header`
    (hand it to `TerminalClient.connect(sock=...)` to speak SSH after it)."""
    sock = socket.create_connection(("127.0.0.1", port), source_address=(balancer, 0))
    sock.sendall(header)
    sock.setblocking(False)
    return sock


async def closed_by_server(port: int, first: bytes, source: str = "127.0.0.1") -> bytes:
    """Connect from `source`, send `first`, and read until the server closes: all it
    sent (an SSH greeting, or nothing when it refused before SSH began)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                   local_addr=(source, 0))
    writer.write(first)
    received = bytearray()
    try:
        while chunk := await reader.read(4096):
            received += chunk
    except ConnectionResetError:
        pass
    writer.close()
    return bytes(received)
