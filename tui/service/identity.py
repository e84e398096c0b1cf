"""Who a player is, as opposed to the name they typed.

A seat belongs to an `Identity`, not to a name, so nobody takes another player's seat (and
sees their hand) by typing their name:

- a player who logged in with an SSH key is that key (its SHA256 fingerprint).  The first
  key to use a name owns it, in the server's `NameBook` (a small SQLite database): from
  then on only that key may play under that name, on any table, after any restart.
  The host's word wins over first come: a key the host named in `--authorized-keys`
  (`host_names`, read by the service from the file itself, never taken from a worker)
  owns that name, takes it from an earlier claimant (logged), and no other key or
  keyless player may use it;
- a player without a key (password-only or open servers) is their session: a random token.
  The seat they sit in carries a one-time rejoin code, shown on their own table screen; a
  new session under the same name takes a dropped seat back only with that code (and the
  seat then gets a new one).

The door (the SSH front) proves the key; this module decides what the key may do.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

# Unambiguous letters and digits only: read off one screen, typed on another.
log = logging.getLogger(__name__)

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class NameTaken(Exception):
    """The name belongs to another key; the text says so, for the player."""


def new_rejoin_code() -> str:
    """A one-time code like `K7Q-4MX`."""
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:3]}-{raw[3:]}"


def same_code(typed: str, code: str | None) -> bool:
    """True when `typed` is `code`, however the player spaced or cased it."""
    if not code:
        return False
    wanted = code.replace("-", "")
    given = "".join(ch for ch in typed.upper() if ch.isalnum())
    return secrets.compare_digest(given.encode(), wanted.encode())


@dataclass(frozen=True)
class Identity:
    """One player: the name shown, and what proves it is them."""

    name: str
    key: str = ""
    """The SHA256 fingerprint of the SSH key they logged in with; "" for none."""
    session: str = field(default_factory=lambda: secrets.token_hex(8))
    """A token unique to this session (what a keyless player is)."""

    @property
    def proof(self) -> str:
        """What a seat remembers of its owner: the key, or else this session."""
        return f"key:{self.key}" if self.key else f"session:{self.session}"

    @property
    def has_key(self) -> bool:
        return bool(self.key)


class NameBook:
    """Which key owns which name; `path` None keeps the book in memory only (tests).

    `host_names` maps the fingerprint of each key the host named to that name."""

    def __init__(self, path: Path | None = None,
                 host_names: Mapping[str, str] | None = None) -> None:
        self.path = path
        self._host_names = {key: name.casefold() for key, name in (host_names or {}).items()}
        self._host_held = set(self._host_names.values())
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path) if path is not None else ":memory:",
                                   check_same_thread=False)
        with self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS names (folded TEXT PRIMARY KEY, "
                             "name TEXT NOT NULL, key TEXT NOT NULL, since REAL NOT NULL)")

    def owner(self, name: str) -> str | None:
        """The fingerprint of the key owning `name` (any case), or None."""
        with self._lock:
            row = self._db.execute("SELECT key FROM names WHERE folded = ?",
                                   (name.casefold(),)).fetchone()
        return row[0] if row else None

    def names(self) -> list[str]:
        """Every name a key owns, and every name the host gave a key."""
        with self._lock:
            rows = self._db.execute("SELECT name FROM names").fetchall()
        return [row[0] for row in rows] + sorted(self._host_held)

    def admit(self, name: str, key: str = "") -> Identity:
        """The identity of a player arriving as `name` with `key` ("" for none).

        A key the host named `name` owns it (taking it from any earlier claimant); any
        other key claims a free name for good.  Raises `NameTaken` when the name is the
        host's for another key, or belongs to a different key, or to any key and the
        player has none."""
        folded = name.casefold()
        if key and self._host_names.get(key) == folded:
            self._give(name, key)
            return Identity(name, key)
        if folded in self._host_held:
            raise NameTaken(f"The name {name} is kept by the host for another player's "
                            "key: connect under a name of your own.")
        with self._lock:
            row = self._db.execute("SELECT key FROM names WHERE folded = ?",
                                   (folded,)).fetchone()
            if row is None and key:
                with self._db:
                    self._db.execute("INSERT INTO names VALUES (?, ?, ?, ?)",
                                     (folded, name, key, time.time()))
        if row is not None and row[0] != key:
            if key:
                raise NameTaken(f"The name {name} belongs to another player's key: "
                                "connect under a name of your own.")
            raise NameTaken(f"The name {name} belongs to a player who logs in with an SSH "
                            "key: connect with that key, or under another name.")
        return Identity(name, key)

    def _give(self, name: str, key: str) -> None:
        """Record that `key` owns `name` on the host's word, whoever claimed it before."""
        folded = name.casefold()
        with self._lock:
            row = self._db.execute("SELECT key FROM names WHERE folded = ?",
                                   (folded,)).fetchone()
            if row is not None and row[0] == key:
                return
            with self._db:
                self._db.execute("INSERT OR REPLACE INTO names VALUES (?, ?, ?, ?)",
                                 (folded, name, key, time.time()))
        if row is not None:
            log.warning("names: %r now belongs to the key %s, as --authorized-keys says; "
                        "the key %s that claimed it before lost it", name, key, row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
