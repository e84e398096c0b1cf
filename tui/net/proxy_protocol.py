"""The PROXY protocol header a TCP load balancer puts before a player's SSH stream.

Behind a balancer (HAProxy in TCP mode) every connection comes from the balancer's own
address, so the door would count every player as one: one login cap for all, one
guesser's penalty on everyone.  With `send-proxy-v2` the balancer first sends a short
header naming the player's address, and the worker uses that address everywhere.

The header is believed only from the balancers the host names (`Balancers`); from
anyone else it would let a client choose the address the door sees, so it is refused.
Parsing is strict and bounded: version 2 (binary) and version 1 (text) TCP over IPv4 or
IPv6; anything else (LOCAL, UNKNOWN, UDP, Unix sockets, a bad checksum, a header longer
than `MAX_V2_BODY`) is an error, never a guess.  The specification is HAProxy's
"proxy-protocol.txt".  The PyPI `proxy-protocol` package was considered: it is marked
alpha, has had no release since April 2024, and reads through asyncio streams, which
the asyncssh front does not use.
"""

from __future__ import annotations

import ipaddress
import re
import struct
from collections.abc import Iterable
from dataclasses import dataclass

V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V1_PREFIX = b"PROXY "
V1_MAX = 107
"""The longest version 1 line, CRLF included (from the specification)."""
MAX_V2_BODY = 1024
"""Addresses plus TLVs: 36 bytes of IPv6 addresses and room for a balancer's usual TLVs
(unique id, ALPN, authority).  A longer header is refused before it is read."""

_V2_HEAD = 16
_LOCAL, _PROXY = 0x0, 0x1
_INET, _INET6 = 0x1, 0x2
_STREAM = 0x1
_ADDRESS_SIZES = {_INET: 12, _INET6: 36}
_TLV_CRC32C, _TLV_NOOP = 0x03, 0x04
_PORT = re.compile(r"0|[1-9][0-9]{0,4}")


class ProxyHeaderError(ValueError):
    """The bytes cannot be (or begin) a PROXY header this server accepts."""


class BalancerCheck(ProxyHeaderError):
    """A LOCAL header: the balancer's own connection (a health check), no player."""


@dataclass(frozen=True)
class ProxiedAddress:
    """The player's end of the connection and the address they connected to."""

    source: tuple[str, int]
    destination: tuple[str, int]

    @property
    def peername(self) -> tuple[str, int] | tuple[str, int, int, int]:
        """`source` shaped as a socket's peer name (IPv6 names have four fields)."""
        host, port = self.source
        return (host, port, 0, 0) if ":" in host else (host, port)


def looks_like_header(data: bytes) -> bool | None:
    """Does `data` start a PROXY header (either version)?  None while too short to say."""
    for signature in (V2_SIGNATURE, V1_PREFIX):
        size = min(len(data), len(signature))
        if data[:size] == signature[:size]:
            return True if size == len(signature) else None
    return False


def parse_header(data: bytes) -> tuple[ProxiedAddress, int] | None:
    """Read the header at the start of `data`: the address and how many bytes it took,
    or None while it is incomplete.  `ProxyHeaderError` as soon as it cannot be valid."""
    looks = looks_like_header(data)
    if looks is None:
        return None
    if not looks:
        raise ProxyHeaderError("no PROXY header where one must be")
    if data.startswith(V1_PREFIX):
        return _parse_v1(data)
    return _parse_v2(data)


def _parse_v1(data: bytes) -> tuple[ProxiedAddress, int] | None:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if b"\n" in data[:V1_MAX] or len(data) >= V1_MAX:
            raise ProxyHeaderError("a version 1 header longer than a line may be")
        return None
    try:
        line = data[:end].decode("ascii")
    except UnicodeDecodeError:
        raise ProxyHeaderError("a version 1 header that is not ASCII") from None
    fields = line.split(" ")
    if len(fields) < 2 or fields[1] not in ("TCP4", "TCP6"):
        raise ProxyHeaderError("a version 1 header without a TCP4 or TCP6 address "
                               "(UNKNOWN names no player)")
    if len(fields) != 6:
        raise ProxyHeaderError("a version 1 header that is not PROXY, protocol, two "
                               "addresses and two ports")
    _, protocol, source, destination, source_port, destination_port = fields
    kind = ipaddress.IPv4Address if protocol == "TCP4" else ipaddress.IPv6Address
    return ProxiedAddress((_v1_address(kind, source), _v1_port(source_port)),
                          (_v1_address(kind, destination), _v1_port(destination_port))), \
        end + 2


def _v1_address(kind: type[ipaddress.IPv4Address] | type[ipaddress.IPv6Address],
                text: str) -> str:
    if "%" in text:  # a scope would be this machine's interface, not the player's
        raise ProxyHeaderError("a version 1 address with a scope")
    try:
        return str(kind(text))
    except ValueError:
        raise ProxyHeaderError(f"a version 1 header with a bad address {text[:40]!r}") \
            from None


def _v1_port(text: str) -> int:
    if not _PORT.fullmatch(text) or int(text) > 65535:
        raise ProxyHeaderError(f"a version 1 header with a bad port {text[:8]!r}")
    return int(text)


def _parse_v2(data: bytes) -> tuple[ProxiedAddress, int] | None:
    if len(data) < _V2_HEAD:
        return None
    version, command = data[12] >> 4, data[12] & 0x0F
    family, transport = data[13] >> 4, data[13] & 0x0F
    (length,) = struct.unpack_from("!H", data, 14)
    if version != 2:
        raise ProxyHeaderError(f"a version {version} binary header (only 2 exists)")
    if command == _LOCAL:
        raise BalancerCheck("a LOCAL header (the balancer's own connection, no player)")
    if command != _PROXY:
        raise ProxyHeaderError(f"an unknown command {command} in the header")
    if family not in _ADDRESS_SIZES or transport != _STREAM:
        raise ProxyHeaderError("a header for something other than TCP over IPv4 or IPv6")
    if length > MAX_V2_BODY:
        raise ProxyHeaderError(f"a header of {length} bytes (at most {MAX_V2_BODY})")
    if length < _ADDRESS_SIZES[family]:
        raise ProxyHeaderError("a header too short for its addresses")
    if len(data) < _V2_HEAD + length:
        return None
    header = bytes(data[:_V2_HEAD + length])
    after = _V2_HEAD + _ADDRESS_SIZES[family]
    if family == _INET:
        source, destination, source_port, destination_port = struct.unpack_from(
            "!4s4sHH", header, _V2_HEAD)
        kind: type[ipaddress.IPv4Address] | type[ipaddress.IPv6Address] = \
            ipaddress.IPv4Address
    else:
        source, destination, source_port, destination_port = struct.unpack_from(
            "!16s16sHH", header, _V2_HEAD)
        kind = ipaddress.IPv6Address
    _check_tlvs(header, after)
    return ProxiedAddress((str(kind(source)), source_port),
                          (str(kind(destination)), destination_port)), len(header)


def _check_tlvs(header: bytes, start: int) -> None:
    """Every TLV must fit exactly; a CRC32C one must match the header."""
    at = start
    while at < len(header):
        if at + 3 > len(header):
            raise ProxyHeaderError("a header with a cut TLV")
        kind = header[at]
        (size,) = struct.unpack_from("!H", header, at + 1)
        value_at = at + 3
        if value_at + size > len(header):
            raise ProxyHeaderError("a header with a TLV longer than the header")
        if kind == _TLV_CRC32C:
            if size != 4:
                raise ProxyHeaderError("a header with a malformed checksum")
            zeroed = header[:value_at] + bytes(4) + header[value_at + 4:]
            if crc32c(zeroed) != struct.unpack_from("!I", header, value_at)[0]:
                raise ProxyHeaderError("a header whose checksum does not match")
        at = value_at + size


def _crc32c_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        table.append(crc)
    return tuple(table)


_CRC32C = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), the checksum a version 2 header may carry."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC32C[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


class Balancers:
    """The load balancers whose PROXY headers are believed (`--proxy-protocol`)."""

    def __init__(self, networks: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network]
                 ) -> None:
        self.networks = tuple(networks)

    @classmethod
    def parse(cls, text: str) -> Balancers:
        """Addresses or networks, comma separated (`127.0.0.1,10.1.0.0/24`);
        `ValueError` naming the one that is not."""
        networks = []
        for item in text.split(","):
            item = item.strip()
            if not item:
                continue
            try:
                networks.append(ipaddress.ip_network(item.strip("[]"), strict=False))
            except ValueError:
                raise ValueError(f"--proxy-protocol: {item!r} is not an address or a "
                                 "network (such as 127.0.0.1 or 10.1.0.0/24)") from None
        if not networks:
            raise ValueError("--proxy-protocol needs the load balancer's address")
        return cls(networks)

    def __str__(self) -> str:
        return ",".join(str(network) for network in self.networks)

    def trusts(self, host: str) -> bool:
        """Is `host` (a peer address as a socket gives it) one of the balancers?"""
        try:
            address = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)
