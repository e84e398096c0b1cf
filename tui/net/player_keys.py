"""The `--authorized-keys` file: which SSH keys may play, and the name each one plays as.

An OpenSSH authorized_keys file, read with asyncssh (so `from="..."` and the other
standard options work).  A line may also hand its key a player name: the option
`environment="RUMMY_NAME=alice"`, or else the key's comment up to its first `@`
(`ssh-ed25519 AAAA... alice@laptop` plays as `alice`).  A line without a comment lets
its key play under the SSH user name it connects with.

`host_names()` is the host's word for the names database (`tui.service.identity`): the
game service reads this file itself, so a key named here owns its name even if another
key claimed it first, and no session worker is believed on its own say-so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from tui.service.names import clean_name

NAME_VARIABLE = "RUMMY_NAME"
_NAME_OPTION = re.compile(r'(?:^|,)environment="' + NAME_VARIABLE + r'=([^"]*)"')
_KEY_PART = re.compile(r"(?:^|\s)((?:ssh|ecdsa|sk)-[\w@.-]+)\s+([A-Za-z0-9+/=]+)(?:\s+(.*))?$")
_CERT_AUTHORITY = re.compile(r"(?:^|,)cert-authority(?:,|\s|$)")


class KeysFileError(Exception):
    """The file cannot be used; the text names it and says why."""


@dataclass(frozen=True)
class _Entry:
    check: asyncssh.SSHAuthorizedKeys
    name: str | None
    fingerprint: str | None
    """SHA256 fingerprint of the line's own key (None for a `cert-authority` line)."""


class PlayerKeys:
    """The keys allowed in, each with the name it was given (or None)."""

    def __init__(self, entries: list[_Entry]) -> None:
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    def match(self, key: asyncssh.SSHKey, host: str, addr: str) -> tuple[bool, str | None]:
        """(admitted, name given to the key) for a key offered from `host`/`addr`."""
        for entry in self._entries:
            if entry.check.validate(key, host, addr) is not None:
                return True, entry.name
        return False, None

    def host_names(self) -> dict[str, str]:
        """Fingerprint -> name, for every key this file names (the host's word)."""
        return {entry.fingerprint: entry.name for entry in self._entries
                if entry.fingerprint is not None and entry.name is not None}


def _name_of(line: str) -> str | None:
    """The name a line gives its key: its RUMMY_NAME option, or its comment up to `@`."""
    option = _NAME_OPTION.search(line)
    if option:
        return clean_name(option.group(1))
    found = _KEY_PART.search(line)
    comment = (found.group(3) or "").split("@", 1)[0].strip() if found else ""
    return clean_name(comment) if comment else None


def _fingerprint_of(line: str) -> str | None:
    """The SHA256 fingerprint of the key a line lists (None for a certificate authority,
    whose players log in with other keys)."""
    found = _KEY_PART.search(line)
    if found is None or _CERT_AUTHORITY.search(line[:found.start()]):
        return None
    try:
        key = asyncssh.import_public_key(f"{found.group(1)} {found.group(2)}")
    except (ValueError, asyncssh.KeyImportError):
        return None
    return key.get_fingerprint("sha256")


def read_player_keys(path: Path | str) -> PlayerKeys:
    """Read `path`; raises `KeysFileError` if it is unreadable or holds no key."""
    path = Path(path).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise KeysFileError(f"{path}: cannot read authorized keys "
                            f"({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise KeysFileError(f"{path}: not an authorized_keys file (not text)") from None
    entries = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            check = asyncssh.import_authorized_keys(line)
        except (ValueError, asyncssh.KeyImportError) as error:
            raise KeysFileError(f"{path}: not an authorized_keys file "
                                f"(line {number}: {error})") from None
        entries.append(_Entry(check, _name_of(line), _fingerprint_of(line)))
    if not entries:
        raise KeysFileError(f"{path}: not an authorized_keys file (no keys in it)")
    return PlayerKeys(entries)
