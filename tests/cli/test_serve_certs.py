"""`rummy serve --make-certs`: the certificates of the service link, made without
openssl, work as made: the service and a worker complete a TLS handshake with them
(each checking the other), keys are private, and a later run adds a worker machine
under the same CA."""

from __future__ import annotations

import asyncio
import ssl
import stat
from pathlib import Path

import pytest
from cryptography import x509

from tui.cli import main
from tui.net.tls_link import service_context, worker_context
from tui.service.wire import peer_name


def certs(*args: str) -> int:
    return main(["serve", "--make-certs", *args])


def cert(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


async def handshake(service: Path, worker: Path) -> str:
    """The name the service sees after a handshake with `worker`'s folder."""
    seen: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.set_result(peer_name(writer))
        writer.close()

    server = await asyncio.start_server(accepted, "127.0.0.4", 0, ssl=service_context(service))
    port = server.sockets[0].getsockname()[1]
    try:
        _, writer = await asyncio.open_connection("127.0.0.4", port,
                                                  ssl=worker_context(worker))
        name = await asyncio.wait_for(seen, 10)
        writer.close()
        return name
    finally:
        server.close()


async def test_the_certificates_made_link_a_worker_and_the_service(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "certs"
    assert certs(str(folder), "--service-host", "127.0.0.4", "--worker", "w1") == 0
    assert "copy to worker machine w1" in capsys.readouterr().out
    for key in (folder / "ca.key", folder / "service" / "key.pem", folder / "w1" / "key.pem"):
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
    ca = cert(folder / "ca.pem")
    cert(folder / "w1" / "cert.pem").verify_directly_issued_by(ca)
    assert await handshake(folder / "service", folder / "w1") == "w1"

    # Later: one more machine, same CA; a name already made is refused, nothing changed.
    assert certs(str(folder), "--worker", "w2") == 0
    cert(folder / "w2" / "cert.pem").verify_directly_issued_by(ca)
    assert await handshake(folder / "service", folder / "w2") == "w2"
    before = (folder / "w1" / "cert.pem").read_bytes()
    assert certs(str(folder), "--worker", "w1") == 2
    assert "already exists" in capsys.readouterr().err
    assert (folder / "w1" / "cert.pem").read_bytes() == before


async def test_a_service_certificate_is_good_only_for_its_host_and_a_worker_only_as_worker(
        tmp_path: Path) -> None:
    folder = tmp_path / "certs"
    assert certs(str(folder), "--service-host", "localhost", "--worker", "w1") == 0
    with pytest.raises(ssl.SSLCertVerificationError, match="match|mismatch"):
        await handshake(folder / "service", folder / "w1")  # dialled 127.0.0.4
    # The service's own certificate cannot stand in for a worker's (server use only).
    assert certs(str(tmp_path / "ip"), "--service-host", "127.0.0.4") == 0
    with pytest.raises((ssl.SSLError, ConnectionError, TimeoutError)):
        await handshake(tmp_path / "ip" / "service", tmp_path / "ip" / "service")


def test_the_first_run_needs_the_service_host_and_names_must_be_plain(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert certs(str(tmp_path / "a"), "--worker", "w1") == 2
    assert "needs --service-host" in capsys.readouterr().err
    assert certs(str(tmp_path / "b"), "--service-host", "h", "--worker", "../up") == 2
    assert certs(str(tmp_path / "c"), "--service-host", "h", "--worker", "service") == 2
    assert not (tmp_path / "b").exists() and not (tmp_path / "up").exists()


@pytest.mark.parametrize(("args", "said"), [
    (["--service-listen", "127.0.0.4:7000"], "--service-listen needs --tls"),
    (["--service-listen", "127.0.0.4:x", "--tls", "."], "give HOST:PORT"),
    (["--workers-only", "--tls", "."], "--workers-only needs --service"),
    (["--workers-only", "--service", "127.0.0.4:7000", "--tls", "/no/such"],
     "cannot load cert.pem"),
    (["--service", "127.0.0.4:7000"], "--service is for a --workers-only machine"),
    (["--workers-only", "--service-listen", "127.0.0.4:1", "--service", "127.0.0.4:2",
      "--tls", "."], "--service-listen is for the game service"),
])
def test_link_options_that_cannot_work_are_refused_with_the_reason(
        args: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    assert said in capsys.readouterr().err
