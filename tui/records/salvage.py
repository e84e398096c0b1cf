"""Rescue the games that can still be read from a damaged records file.

When a records file is damaged (a bad disk sector, a copy cut short) SQLite refuses any
query that touches a broken page, but the games on the other pages are intact.  The store
sets the file aside and starts a fresh one; this module then reads the old file, row by
row, without writing to it: first a plain scan, and if that breaks off, a look-up of every
game number in turn, so one broken page costs the games on that page and no others.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .base import record_uid
from .rows import RECORD_COLUMNS, ROW_DAMAGE, lenient_text, record_from_row
from .schema import ruleset_display_name

if TYPE_CHECKING:
    from .record import GameRecord

log = logging.getLogger(__name__)

# Version 1 rows lack the identity, display name and fingerprint columns.
V1_COLUMNS = ("id, NULL, ruleset_key, NULL, ruleset_text, seed, players, scores, winners,"
              " started_at, finished_at, actions, NULL")
MAX_LOOKUPS = 200_000  # game numbers tried one by one at most (each takes microseconds)
GAP = 1_000  # numbers tried past the last readable game when the highest is unknown


def readable_records(path: Path) -> tuple[list[GameRecord], int]:
    """The games that can be read from the damaged file at `path` (with their old numbers),
    and how many rows were found but could not be read."""
    sides = [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]
    made = [side for side in sides if not side.exists()]
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.DatabaseError as exc:
        log.warning("cannot open %s to salvage it: %s", path, exc)
        return [], 0
    conn.text_factory = lenient_text
    try:
        return _read(conn)
    finally:
        conn.close()
        for side in made:  # the file set aside stays as it was found
            with contextlib.suppress(OSError):
                side.unlink()


def _read(conn: sqlite3.Connection) -> tuple[list[GameRecord], int]:
    try:
        names = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    except sqlite3.DatabaseError:
        return [], 0
    if not names:
        return [], 0
    columns = RECORD_COLUMNS if "uid" in names else V1_COLUMNS
    rows: dict[int, tuple[Any, ...]] = {}
    complete = True
    try:
        for row in conn.execute(f"SELECT {columns} FROM games ORDER BY id"):
            rows[row[0]] = row
    except sqlite3.DatabaseError:
        complete = False
    if not complete:
        top = min(_highest_number(conn, rows), MAX_LOOKUPS)
        for number in range(1, top + 1):
            if number in rows:
                continue
            try:
                row = conn.execute(f"SELECT {columns} FROM games WHERE id = ?",
                                   (number,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if row is not None:
                rows[number] = row
    found: list[GameRecord] = []
    unreadable = 0
    for number in sorted(rows):
        try:
            found.append(_record(rows[number]))
        except ROW_DAMAGE:
            unreadable += 1
    return found, unreadable


def _highest_number(conn: sqlite3.Connection, rows: dict[int, tuple[Any, ...]]) -> int:
    """The highest game number ever given (kept by SQLite apart from the games), or a
    guess past the highest one read."""
    try:
        row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
        if row is not None and isinstance(row[0], int):
            return row[0]
    except sqlite3.DatabaseError:
        pass
    return max(rows, default=0) + GAP


def _record(row: tuple[Any, ...]) -> GameRecord:
    if row[1] is not None:
        return record_from_row(row)
    # A version-1 row: its identity is made as the upgrade to version 2 makes it.
    record = record_from_row((row[0], "", *row[2:]))
    return dataclasses.replace(
        record, ruleset_name=ruleset_display_name(record.ruleset_text, record.ruleset_key),
        uid=record_uid(record.ruleset_text, record.seats, record.seed, record.actions,
                       record.started_at))
