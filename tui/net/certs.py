"""The certificates of the service link: a private CA of the host's own, the game
service's certificate and one per worker machine, so a host never needs openssl.

Everything lands in one folder (`make_certs`):

    DIR/ca.pem, DIR/ca.key          the CA (its key never leaves the service machine)
    DIR/service/                    ca.pem, cert.pem, key.pem: `--tls` on the service
    DIR/NAME/                       ca.pem, cert.pem, key.pem: copied to worker machine NAME

Running it again on the same folder reuses the CA, so worker machines can be added
later.  Keys are EC P-256, written readable by their owner only.  A certificate from
another CA, or none, gets a worker nowhere: the service trusts only this CA
(`tui.net.tls_link`).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_CERT = "ca.pem"
CA_KEY = "ca.key"
CERT = "cert.pem"
KEY = "key.pem"
SERVICE = "service"
VALID_DAYS = 3650
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")


class CertError(Exception):
    """The certificates cannot be made as asked; the text says why."""


@dataclass(frozen=True)
class Issuer:
    """The CA: its certificate and the key that signs."""

    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "rummy-tui"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _write(path: Path, data: bytes, private: bool) -> None:
    """Write `data` to `path` (a key: created 0600, never readable by others)."""
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o644)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)


def _key_bytes(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def _validity(builder: x509.CertificateBuilder) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return builder.not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(
        now + datetime.timedelta(days=VALID_DAYS))


def new_ca(common_name: str = "rummy-tui service link CA") -> Issuer:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key()
    builder = _validity(x509.CertificateBuilder()
                        .subject_name(_name(common_name)).issuer_name(_name(common_name))
                        .public_key(public).serial_number(x509.random_serial_number()))
    cert = (builder
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False,
                                         key_encipherment=False, data_encipherment=False,
                                         key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False,
                                         decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
            .sign(key, hashes.SHA256()))
    return Issuer(cert, key)


def issue(issuer: Issuer, common_name: str, *, server_host: str | None = None
          ) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A certificate for the service (`server_host`: the name or address workers dial)
    or, without it, for a worker machine (a TLS client named `common_name`)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key()
    usage = ExtendedKeyUsageOID.SERVER_AUTH if server_host else ExtendedKeyUsageOID.CLIENT_AUTH
    builder = (_validity(x509.CertificateBuilder())
               .subject_name(_name(common_name)).issuer_name(issuer.cert.subject)
               .public_key(public).serial_number(x509.random_serial_number())
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False,
                                            key_encipherment=False, data_encipherment=False,
                                            key_agreement=True, key_cert_sign=False,
                                            crl_sign=False, encipher_only=False,
                                            decipher_only=False), critical=True)
               .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                   issuer.key.public_key()), critical=False))
    if server_host:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([_alt_name(server_host)]), critical=False)
    return builder.sign(issuer.key, hashes.SHA256()), key


def _alt_name(host: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)


def _load_ca(folder: Path) -> Issuer | None:
    cert_path, key_path = folder / CA_CERT, folder / CA_KEY
    if not cert_path.exists() and not key_path.exists():
        return None
    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as error:
        raise CertError(f"cannot read the CA in {folder}: {error}") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise CertError(f"{key_path} is not the key this command makes")
    return Issuer(cert, key)


def _write_set(folder: Path, issuer: Issuer, cert: x509.Certificate,
               key: ec.EllipticCurvePrivateKey) -> None:
    folder.mkdir(mode=0o700, exist_ok=True)
    _write(folder / CA_CERT, _pem(issuer.cert), private=False)
    _write(folder / CERT, _pem(cert), private=False)
    _write(folder / KEY, _key_bytes(key), private=True)


def make_certs(folder: Path, service_host: str | None, workers: list[str]) -> list[str]:
    """Make (or reuse) the CA in `folder`, the service's certificate for `service_host`
    (if given) and one certificate per worker machine name; what was written, as lines
    to print.  `CertError` for a name that cannot be used or a folder already there."""
    for name in workers:
        if not NAME_PATTERN.fullmatch(name) or name in (SERVICE, CA_CERT, CA_KEY):
            raise CertError(f"--worker {name!r}: use letters, digits, '.', '-' or '_' "
                            f"(not {SERVICE!r})")
        if (folder / name).exists():
            raise CertError(f"{folder / name} already exists: choose another name, or "
                            "remove it to make it again")
    if len(set(workers)) != len(workers):
        raise CertError("a --worker name is given twice")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        issuer = _load_ca(folder)
        done: list[str] = []
        if issuer is None:
            if not service_host:
                raise CertError(f"no CA in {folder} yet: the first run needs --service-host")
            issuer = new_ca()
            _write(folder / CA_CERT, _pem(issuer.cert), private=False)
            _write(folder / CA_KEY, _key_bytes(issuer.key), private=True)
            done.append(f"{folder / CA_CERT} (the CA; keep {CA_KEY} on this machine only)")
        if service_host:
            cert, key = issue(issuer, "rummy-tui game service", server_host=service_host)
            _write_set(folder / SERVICE, issuer, cert, key)
            done.append(f"{folder / SERVICE}/ (for the game service at {service_host}: "
                        f"--tls {folder / SERVICE})")
        for name in workers:
            cert, key = issue(issuer, name)
            _write_set(folder / name, issuer, cert, key)
            done.append(f"{folder / name}/ (copy to worker machine {name}: --tls FOLDER)")
    except OSError as error:
        raise CertError(f"cannot write in {folder}: {error.strerror or error}") from None
    return done
