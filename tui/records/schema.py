"""The records database schema, version by version.

`PRAGMA user_version` holds the version a database is at.  Opening runs every migration
from there up to `SCHEMA_VERSION`, inside one write transaction, so a database made by an
older release is upgraded in place and keeps every game; a brand-new database goes through
the same steps from version 0.  Never edit a released step: add a new one.

Version 1 kept each game in one row with its players, scores and winners as JSON.
Version 2 adds a stable identity per record (`uid`, so a game recorded or imported twice is
kept once), the ruleset's display name, the final-state fingerprint, and a `seats` table
(one row per player with level, total and whether they won) that statistics query.
A version-1 file could hold one game twice (version 1 had no identity) or a row damaged
by hand: the step keeps the first copy of a game, and keeps a damaged row as it is, with
an identity of its own, for reading to skip and report.  (These cases used to stop the
step, so no database that went through it is changed by this.)
Version 3 adds an `abandoned` table: games given up unfinished (a new game was started over
them), kept with their moves and where they stood, and counted apart from the games played
(they are in no statistics of wins).
Version 4 adds `games.undos`: how many moves the player took back (0 for games recorded
before it was counted).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

import yaml

SCHEMA_VERSION = 4


def _to_v1(conn: sqlite3.Connection) -> None:
    conn.execute("""
        CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            ruleset_key TEXT NOT NULL,
            ruleset_text TEXT NOT NULL,
            seed INTEGER NOT NULL,
            players TEXT NOT NULL,
            scores TEXT NOT NULL,
            winners TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            actions TEXT NOT NULL
        )""")
    conn.execute("CREATE INDEX games_finished ON games (finished_at)")


def _to_v2(conn: sqlite3.Connection) -> None:
    from .base import SeatRecord, as_utc, record_uid

    conn.execute("ALTER TABLE games ADD COLUMN uid TEXT")
    conn.execute("ALTER TABLE games ADD COLUMN ruleset_name TEXT NOT NULL DEFAULT ''")
    conn.execute("ALTER TABLE games ADD COLUMN fingerprint TEXT")
    conn.execute("""
        CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            bot TEXT,
            total INTEGER NOT NULL,
            won INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""")
    conn.execute("CREATE INDEX seats_name ON seats (name)")
    rows = conn.execute(
        "SELECT id, ruleset_key, ruleset_text, seed, players, scores, winners, started_at, "
        "actions FROM games ORDER BY id").fetchall()
    seen: set[str] = set()
    for gid, key, text, seed, players, scores, winners, started, actions in rows:
        try:
            seats = [SeatRecord(str(p["name"]), p.get("bot")) for p in json.loads(players)]
            points = json.loads(scores)
            won = set(json.loads(winners))
            totals = [sum(int(r[s]) for r in points) for s in range(len(seats))]
            uid = record_uid(text, seats, seed, json.loads(actions), as_utc(started))
            name = ruleset_display_name(text, key)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError,
                RecursionError):
            # A damaged row is kept as it is (reading skips and reports it); its identity
            # only has to be unique.
            conn.execute("UPDATE games SET uid = ? WHERE id = ?", (f"unreadable-{gid}", gid))
            continue
        if uid in seen:  # the same game kept twice: keep the first
            conn.execute("DELETE FROM games WHERE id = ?", (gid,))
            continue
        seen.add(uid)
        for s, spec in enumerate(seats):
            conn.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                         (gid, s, spec.name, spec.bot, totals[s], int(s in won)))
        conn.execute("UPDATE games SET uid = ?, ruleset_name = ? WHERE id = ?",
                     (uid, name, gid))
    conn.execute("CREATE UNIQUE INDEX games_uid ON games (uid)")


def ruleset_display_name(text: str, key: str) -> str:
    """The `name:` a ruleset text gives itself, or its key when it gives none."""
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return key
    name = data.get("name") if isinstance(data, dict) else None
    return str(name) if name else key


def _to_v3(conn: sqlite3.Connection) -> None:
    conn.execute("""
        CREATE TABLE abandoned (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uid TEXT NOT NULL UNIQUE,
            ruleset_key TEXT NOT NULL,
            ruleset_name TEXT NOT NULL,
            ruleset_text TEXT NOT NULL,
            seed INTEGER NOT NULL,
            players TEXT NOT NULL,
            scores TEXT NOT NULL,
            deal INTEGER NOT NULL,
            started_at TEXT NOT NULL,
            abandoned_at TEXT NOT NULL,
            actions TEXT NOT NULL
        )""")


def _to_v4(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0")


# MIGRATIONS[n] takes a database from version n to version n + 1.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_to_v1, _to_v2, _to_v3, _to_v4]
assert len(MIGRATIONS) == SCHEMA_VERSION


class NewerSchema(Exception):
    """The database was written by a newer release; it is left exactly as it is."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


class DamagedHeader(sqlite3.DatabaseError):
    """A version below 0 is no release's: the file's header is damaged (one flipped byte
    of `user_version` makes it negative).  Worded as SQLite words damage, so the store sets
    the file aside and copies its games out, as for any other damage."""

    def __init__(self, version: int) -> None:
        super().__init__(f"database disk image is malformed (records version {version})")
        self.version = version


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the database up to date inside the caller's write transaction.

    Returns the version it was at; raises `NewerSchema` (changing nothing) for a database
    from the future.
    """
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise NewerSchema(version)
    if version < 0:
        raise DamagedHeader(version)
    for step in range(version, SCHEMA_VERSION):
        MIGRATIONS[step](conn)
    if version != SCHEMA_VERSION:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return version
