"""The PROXY header parser: what a balancer sends is read exactly, and hostile bytes
(cut, oversized, wrong signature, LOCAL, Unix sockets, bad checksums) are refused with
`ProxyHeaderError` and never read past a bounded size; and the front that reads it
hands SSH exactly what follows the header, however the bytes were cut into reads."""

from __future__ import annotations

import asyncio
import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st
from proxy_headers import tlv, v1, v2

from tui.net.acceptor import FrontDoorProtocol
from tui.net.proxy_protocol import (
    MAX_V2_BODY,
    V1_MAX,
    Balancers,
    ProxiedAddress,
    ProxyHeaderError,
    crc32c,
    parse_header,
)

ports = st.integers(0, 65535)
ipv4 = st.ip_addresses(v=4).map(str)
ipv6 = st.ip_addresses(v=6).map(str)
endpoints = st.one_of(st.tuples(ipv4, ports), st.tuples(ipv6, ports))
# Any TLV but a checksum (0x03), which must match: see the checksum tests.
tlvs = st.lists(st.tuples(st.integers(0, 255).filter(lambda k: k != 0x03),
                          st.binary(max_size=60)).map(lambda t: tlv(*t)),
                max_size=5).map(b"".join)


@given(st.tuples(endpoints, endpoints).filter(lambda p: (":" in p[0][0]) == (":" in p[1][0])),
       tlvs, st.binary(max_size=40), st.booleans())
def test_a_v2_header_gives_the_player_address_and_its_exact_length(
        pair: tuple[tuple[str, int], tuple[str, int]], extra: bytes, tail: bytes,
        checksum: bool) -> None:
    source, destination = pair
    header = v2(source, destination, tlvs=extra, checksum=checksum)
    parsed = parse_header(header + tail)
    assert parsed == (ProxiedAddress(source, destination), len(header))


@given(st.tuples(endpoints, endpoints).filter(lambda p: (":" in p[0][0]) == (":" in p[1][0])),
       st.binary(max_size=40))
def test_a_v1_header_gives_the_player_address_and_its_exact_length(
        pair: tuple[tuple[str, int], tuple[str, int]], tail: bytes) -> None:
    source, destination = pair
    header = v1(source, destination)
    assert parse_header(header + tail) == (ProxiedAddress(source, destination), len(header))


@given(endpoints, tlvs, st.booleans(), st.data())
def test_a_cut_header_is_incomplete_never_wrong(source: tuple[str, int], extra: bytes,
                                                text: bool, data: st.DataObject) -> None:
    destination = ("::1", 22) if ":" in source[0] else ("127.0.0.1", 22)
    header = v1(source, destination) if text else v2(source, destination, tlvs=extra)
    cut = data.draw(st.integers(0, len(header) - 1))
    assert parse_header(header[:cut]) is None


@given(st.binary(max_size=2 * MAX_V2_BODY))
def test_any_bytes_are_a_header_an_error_or_bounded_waiting(data: bytes) -> None:
    try:
        parsed = parse_header(data)
    except ProxyHeaderError:
        return
    if parsed is None:  # waiting for more is bounded: a header is never longer
        assert len(data) < max(16 + MAX_V2_BODY, V1_MAX)
    else:
        address, used = parsed
        assert 0 < used <= len(data)
        ipaddress.ip_address(address.source[0])


@given(st.binary(min_size=12, max_size=12).filter(lambda b: b != b"\r\n\r\n\x00\r\nQUIT\n"
                                                   and not b.startswith(b"PROXY ")))
def test_a_wrong_signature_is_refused(signature: bytes) -> None:
    header = v2(("127.0.0.5", 1000))
    with pytest.raises(ProxyHeaderError):
        parse_header(signature + header[12:])


@pytest.mark.parametrize(("what", "header"), [
    ("LOCAL", v2(("127.0.0.5", 1), command=0x0)),
    ("unknown command", v2(("127.0.0.5", 1), command=0x2)),
    ("version 1 in binary", v2(("127.0.0.5", 1), version=1)),
    ("version 3", v2(("127.0.0.5", 1), version=3)),
    ("AF_UNIX", v2(("127.0.0.5", 1), family=0x3)),
    ("AF_UNSPEC", v2(("127.0.0.5", 1), family=0x0)),
    ("UDP", v2(("127.0.0.5", 1), transport=0x2)),
    ("IPv6 family, IPv4 length", v2(("127.0.0.5", 1), family=0x2)),
    ("UNKNOWN text", b"PROXY UNKNOWN\r\n"),
    ("UNKNOWN text with addresses", b"PROXY UNKNOWN 1.2.3.4 5.6.7.8 1 2\r\n"),
    ("IPv6 in TCP4", b"PROXY TCP4 ::1 ::1 1 2\r\n"),
    ("IPv4 in TCP6", b"PROXY TCP6 127.0.0.5 127.0.0.1 1 2\r\n"),
    ("leading zero in an address", b"PROXY TCP4 127.0.0.05 127.0.0.1 1 2\r\n"),
    ("a scope", b"PROXY TCP6 fe80::1%eth0 ::1 1 2\r\n"),
    ("port too big", b"PROXY TCP4 127.0.0.5 127.0.0.1 65536 2\r\n"),
    ("port with a leading zero", b"PROXY TCP4 127.0.0.5 127.0.0.1 01 2\r\n"),
    ("port with a sign", b"PROXY TCP4 127.0.0.5 127.0.0.1 +1 2\r\n"),
    ("two spaces", b"PROXY TCP4  127.0.0.5 127.0.0.1 1 2\r\n"),
    ("missing port", b"PROXY TCP4 127.0.0.5 127.0.0.1 1\r\n"),
    ("newline without return", b"PROXY TCP4 127.0.0.5 127.0.0.1 1 2\n"),
    ("not ASCII", "PROXY TCP4 127.0.0.5 127.0.0.1 1 ２\r\n".encode()),
])
def test_hostile_headers_are_refused(what: str, header: bytes) -> None:
    with pytest.raises(ProxyHeaderError):
        parse_header(header)


def test_an_oversized_header_is_refused_from_its_first_16_bytes() -> None:
    header = v2(("127.0.0.5", 1), tlvs=tlv(0xE0, bytes(MAX_V2_BODY)))
    with pytest.raises(ProxyHeaderError, match="bytes"):
        parse_header(header[:16])


def test_a_v1_line_that_never_ends_is_refused_at_its_limit() -> None:
    line = b"PROXY TCP4 " + b"1" * (V1_MAX - len(b"PROXY TCP4 "))
    assert parse_header(line[:-1]) is None
    with pytest.raises(ProxyHeaderError):
        parse_header(line)


@pytest.mark.parametrize("bad_tlv", [
    b"\xe0\x00",                 # cut before its length ends
    b"\xe0\x00\x09abc",          # says 9 bytes, has 3
    b"\x03\x00\x02ab",           # a checksum of 2 bytes
])
def test_a_tlv_that_does_not_fit_is_refused(bad_tlv: bytes) -> None:
    with pytest.raises(ProxyHeaderError):
        parse_header(v2(("127.0.0.5", 1), tlvs=bad_tlv))


def test_crc32c_is_castagnoli() -> None:
    assert crc32c(b"123456789") == 0xE3069283
    assert crc32c(b"") == 0


@given(st.integers(16, 16 + 12 - 1), st.integers(1, 255))
def test_a_header_changed_under_its_checksum_is_refused(at: int, flip: int) -> None:
    header = bytearray(v2(("127.0.0.5", 4000), ("127.0.0.1", 2222), checksum=True))
    header[at] ^= flip  # an address or port byte
    with pytest.raises(ProxyHeaderError, match="checksum"):
        parse_header(bytes(header))


def test_balancers_are_addresses_or_networks() -> None:
    balancers = Balancers.parse("127.0.0.1, 10.1.0.0/24,[::1]")
    assert balancers.trusts("127.0.0.1")
    assert balancers.trusts("10.1.0.77")
    assert balancers.trusts("::1")
    assert balancers.trusts("::ffff:127.0.0.1")  # a v4 peer on a dual-stack socket
    assert not balancers.trusts("127.0.0.2")
    assert not balancers.trusts("10.1.1.1")
    assert not balancers.trusts("")
    assert not balancers.trusts("not an address")
    with pytest.raises(ValueError, match="'box' is not an address"):
        Balancers.parse("127.0.0.1,box")
    with pytest.raises(ValueError, match="needs the load balancer"):
        Balancers.parse(" , ")


class _Transport(asyncio.Transport):
    """A connection from `peer`, recording what the front does with it."""

    def __init__(self, peer: str) -> None:
        super().__init__()
        self.peer = (peer, 50000)
        self.protocol: asyncio.BaseProtocol | None = None
        self.aborted = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return self.peer if name == "peername" else default

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def abort(self) -> None:
        self.aborted = True


class _SSH(asyncio.Protocol):
    def __init__(self) -> None:
        self.peer: object = None
        self.received = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.peer = transport.get_extra_info("peername")

    def data_received(self, data: bytes) -> None:
        self.received += data


def _fed_in_pieces(stream: bytes, from_host: str, data: st.DataObject
                   ) -> tuple[FrontDoorProtocol, _Transport, list[_SSH]]:
    """A front door (balancer 127.0.0.1) whose connection from `from_host` reads `stream`
    cut into reads where `data` draws: the door, its transport and the SSH sides made."""
    cuts = sorted(data.draw(st.sets(st.integers(1, len(stream) - 1), max_size=8)))
    made: list[_SSH] = []
    front = FrontDoorProtocol(lambda: made.append(_SSH()) or made[-1],
                              Balancers.parse("127.0.0.1"), header_timeout=60)
    transport = _Transport(from_host)
    front.connection_made(transport)
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        receiver = transport.protocol if transport.protocol is not None else front
        assert isinstance(receiver, asyncio.Protocol)
        receiver.data_received(stream[start:end])
    return front, transport, made


@given(endpoints, st.binary(max_size=60), st.booleans(), st.data())
async def test_a_header_in_any_pieces_reaches_ssh_whole(
        source: tuple[str, int], tail: bytes, text: bool, data: st.DataObject) -> None:
    """However the balancer's bytes are cut into reads, SSH starts once, with the
    player's address, and gets exactly the bytes after the header."""
    destination = ("::1", 22) if ":" in source[0] else ("127.0.0.1", 22)
    stream = (v1 if text else v2)(source, destination) + tail
    front, transport, made = _fed_in_pieces(stream, "127.0.0.1", data)
    front.connection_lost(None)
    [ssh] = made
    assert ssh.peer == ProxiedAddress(source, destination).peername
    assert ssh.received == tail and transport.protocol is ssh and not transport.aborted


@given(st.binary(max_size=60), st.data())
async def test_plain_ssh_from_anyone_else_reaches_ssh_whole(tail: bytes,
                                                            data: st.DataObject) -> None:
    stream = b"SSH-2.0-OpenSSH_9.2\r\n" + tail
    _, transport, made = _fed_in_pieces(stream, "127.0.0.2", data)
    [ssh] = made
    assert ssh.peer == ("127.0.0.2", 50000)
    assert ssh.received == stream and not transport.aborted
