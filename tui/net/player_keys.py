"""The `--authorized-keys` file: which SSH keys may play, and the name each one plays as.

An OpenSSH authorized_keys file, read with asyncssh (so `from="..."` and the other
standard options work).  A line may also hand its key a player name: the option
`environment="RUMMY_NAME=alice"`, or else the key's comment up to its first `@`
(`ssh-ed25519 AAAA... alice@laptop` plays as `alice`).  A line without a comment lets
its key play under the SSH user name it connects with.
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


class KeysFileError(Exception):
    """The file cannot be used; the text names it and says why."""


@dataclass(frozen=True)
class _Entry:
    check: asyncssh.SSHAuthorizedKeys
    name: str | None


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


def _name_of(line: str) -> str | None:
    """The name a line gives its key: its RUMMY_NAME option, or its comment up to `@`."""
    option = _NAME_OPTION.search(line)
    if option:
        return clean_name(option.group(1))
    found = _KEY_PART.search(line)
    comment = (found.group(3) or "").split("@", 1)[0].strip() if found else ""
    return clean_name(comment) if comment else None


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
        entries.append(_Entry(check, _name_of(line)))
    if not entries:
        raise KeysFileError(f"{path}: not an authorized_keys file (no keys in it)")
    return PlayerKeys(entries)
