"""The service link between machines: TCP with TLS and certificates both ways.

The game service listens with `service_context` (its certificate, and only workers with
a certificate from the host's own CA get through the handshake: `tui.net.certs` makes
them); a worker machine dials with `worker_context` (its certificate, and it checks the
service's against the same CA and the name it dialled).  TLS 1.2 at least; 1.3 where
both ends have it.  Both ends turn on TCP keepalive (`tui.service.wire.keep_alive`), so a
machine that vanishes without closing its connections is noticed within seconds.
"""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

from tui.net.certs import CA_CERT, CERT, KEY
from tui.service.wire import MAX_LINE, keep_alive

HANDSHAKE_TIMEOUT = 10.0


class LinkError(Exception):
    """A link setting that cannot be used (an address, a certificate folder)."""


def parse_address(text: str, option: str) -> tuple[str, int]:
    """`HOST:PORT` (or `[V6]:PORT`) as a pair; `LinkError` naming `option` otherwise."""
    host, sep, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise LinkError(f"{option} {text!r}: give HOST:PORT (for example 127.0.0.4:7000)")
    return host, int(port)


def _context(server: bool, folder: Path, option: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER if server else ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.verify_mode = ssl.CERT_REQUIRED
    try:
        context.load_cert_chain(folder / CERT, folder / KEY)
        context.load_verify_locations(folder / CA_CERT)
    except (OSError, ssl.SSLError) as error:
        raise LinkError(f"{option} {folder}: cannot load {CERT}, {KEY} and {CA_CERT} there "
                        f"({getattr(error, 'strerror', None) or error}); make them with "
                        "rummy serve --make-certs") from None
    return context


def service_context(folder: Path) -> ssl.SSLContext:
    """The service's side: its certificate; workers must show one from the CA."""
    return _context(True, folder, "--tls")


def worker_context(folder: Path) -> ssl.SSLContext:
    """A worker machine's side: its certificate; the service's is checked against the
    CA and against the host name the worker dials (`check_hostname`)."""
    context = _context(False, folder, "--tls")
    context.check_hostname = True
    return context


async def dial(host: str, port: int, context: ssl.SSLContext
               ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A worker's TLS connection to the service (`OSError`/`ssl.SSLError`/
    `TimeoutError` if it cannot be had)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(
        host, port, ssl=context, server_hostname=host, limit=MAX_LINE + 1,
        ssl_handshake_timeout=HANDSHAKE_TIMEOUT), HANDSHAKE_TIMEOUT + 5)
    keep_alive(writer)
    return reader, writer


def peer_name(writer: asyncio.StreamWriter) -> str:
    """The common name of the certificate the other end showed ("" if none)."""
    cert = writer.get_extra_info("peercert") or {}
    for rdn in cert.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                return str(value)[:64]
    return ""
