"""The server's SSH host key: made once, kept private, reused on every start.

Players' SSH clients remember the host key on first connection and warn loudly when it
changes, so it must survive restarts: it lives in the user data folder, readable by its
owner only (0600), like OpenSSH's own host keys.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import asyncssh

from tui.paths import user_data_dir

log = logging.getLogger(__name__)

HOST_KEY_NAME = "ssh_host_ed25519_key"


class HostKeyError(Exception):
    """The host key cannot be read or created; the message names the file and why."""


def data_dir() -> Path:
    """The user data folder (honours RUMMY_HOME, see `tui.paths`)."""
    return user_data_dir()


def default_host_key_path() -> Path:
    """Where the generated host key is kept."""
    return data_dir() / HOST_KEY_NAME


def load_host_key(path: Path | str | None = None) -> tuple[asyncssh.SSHKey, Path]:
    """Return the host key and its file.

    With `path` (the `--host-key` option) the file must exist. Without it, the key in
    the user data folder is used, generated (Ed25519) on first start.
    """
    if path is not None:
        key_path = Path(path).expanduser()
        if not key_path.is_file():
            raise HostKeyError(f"{key_path}: no such host key file")
        _warn_if_readable_by_others(key_path)
        return _read(key_path), key_path
    key_path = default_host_key_path()
    if not key_path.exists():
        _create(key_path)
    else:
        _tighten(key_path)
    return _read(key_path), key_path


def _read(path: Path) -> asyncssh.SSHKey:
    try:
        return asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError) as error:
        raise HostKeyError(f"{path}: not a usable SSH private key ({error})") from None


def _create(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as error:
        raise HostKeyError(f"{path.parent}: cannot create the data folder ({error})") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="rummy-tui host key")
    data = key.export_private_key()
    try:
        # O_EXCL: if another server created it meanwhile, keep theirs.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as error:
        raise HostKeyError(f"{path}: cannot create the host key ({error})") from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.chmod(path, 0o600)  # in case the umask or the file system widened it
    log.info("created SSH host key %s", path)


def _tighten(path: Path) -> None:
    """Our own generated key must stay private; fix it if someone widened it."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, 0o600)
            log.warning("%s was readable by others; made it private (0600)", path)
    except OSError:
        pass


def _warn_if_readable_by_others(path: Path) -> None:
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return
    if mode & 0o077:
        log.warning("host key %s is readable by other users (mode %o)", path, mode)
