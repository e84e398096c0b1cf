"""The records database: an SQLite file in the user data folder.

Built for several writers at once (an SSH server where many games end together, in one
process or several): the database is in WAL mode, every operation opens its own short-lived
connection with a generous busy timeout, and every write is one short transaction begun with
``BEGIN IMMEDIATE`` so writers queue instead of failing.

Nothing here may stop a game.  A file that is not a database, or is damaged, is renamed
aside (``records.sqlite3.damaged-<time>``) and a fresh one started; the reason is kept in
`notice` for the front end to show.  A database written by a newer release is left alone
and nothing is recorded until that release is used again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from tui.file_lock import locked

from .base import RecordError
from .rows import (
    ABANDONED_COLUMNS,
    RECORD_COLUMNS,
    ROW_DAMAGE,
    AbandonedSummary,
    GameSummary,
    abandoned_from_row,
    lenient_text,
    one_line,
    record_from_row,
    summary_from_row,
)
from .salvage import readable_records
from .schema import SCHEMA_VERSION, DamagedHeader, NewerSchema, migrate

if TYPE_CHECKING:
    from .abandoned import AbandonedGame
    from .record import GameRecord

DB_NAME = "records.sqlite3"
MAX_RECORD_ID = 2**63 - 1
BUSY_TIMEOUT = 30.0  # seconds a writer waits for another to finish
SQLITE_PERM = 3
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26

log = logging.getLogger(__name__)
T = TypeVar("T")
_set_aside_lock = threading.Lock()


def default_path() -> Path:
    from tui.paths import user_data_dir

    return user_data_dir() / DB_NAME


class RecordsUnavailable(Exception):
    """The records cannot be used right now (the message says why); play goes on."""


class RecordNotFound(KeyError):
    """No record with that number."""

    def __str__(self) -> str:
        number = str(self.args[0])
        if len(number) > 20:
            number = number[:12] + "…"
        return f"there is no recorded game #{number}"


def _cannot_write(exc: sqlite3.DatabaseError) -> bool:
    """The file cannot be changed (read-only, full, no room for the journal) as opposed to
    damaged or busy."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in (SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR,
                                            SQLITE_FULL, SQLITE_CANTOPEN):
        return True
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text or "full" in text or "unable to open" in text


def _read_into_memory(path: Path) -> sqlite3.Connection | None:
    """A private in-memory copy of the database at `path`, read without writing a byte
    (not even a journal: `immutable` is the last resort, for media where SQLite cannot
    make its shared-memory file); None if it cannot be read at all."""
    if not path.exists():
        return None
    uri = path.resolve().as_uri()
    for options in ("mode=ro", "immutable=1"):
        try:
            source = sqlite3.connect(f"{uri}?{options}", uri=True, timeout=BUSY_TIMEOUT)
            copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            try:
                source.backup(copy)
            finally:
                source.close()
        except sqlite3.DatabaseError:
            continue
        copy.text_factory = lenient_text
        return copy
    return None


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    """Damage (not a database, malformed) as opposed to busy, locked or read-only."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB)
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


class RecordStore:
    """Game records at `path` (default: ``records.sqlite3`` in the user data folder)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.notice: str | None = None  # something the player should be told, once
        self._ready = False
        self._unavailable: str | None = None
        self._read_only: str | None = None  # why games cannot be written, if they cannot
        self._reader: sqlite3.Connection | None = None
        self._salvage_from: Path | None = None  # a damaged file set aside, to copy from
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ connections

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        conn.text_factory = lenient_text
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        self._prepare()
        if self._reader is not None:  # a read-only store: one shared, upgraded copy
            with self._lock:
                yield self._reader
            return
        conn = self._connect()
        try:
            yield conn
        finally:
            conn.close()

    def _run(self, operation: Callable[[], T]) -> T:
        """Run one store operation; if the file turns out to be damaged (even after it was
        opened, e.g. replaced behind our back), set it aside and run once more on a fresh
        one.  Other failures become `RecordsUnavailable` with the reason."""
        for attempt in range(2):
            try:
                return operation()
            except sqlite3.DatabaseError as exc:
                if _is_damage(exc) and not attempt:
                    with self._lock:
                        self._ready = False
                    self._set_aside(str(exc))
                    continue
                raise RecordsUnavailable(
                    f"your game records ({self.path}) cannot be used: {exc}") from exc
            except OSError as exc:
                raise RecordsUnavailable(
                    f"your game records ({self.path}) cannot be used: "
                    f"{exc.strerror or exc}") from exc
        raise AssertionError("unreachable")

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One short write transaction; writers wait for each other (busy timeout)."""
        self._prepare()
        if self._read_only:
            raise RecordsUnavailable(self._read_only)
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _prepare(self) -> None:
        """Open (creating, upgrading or replacing a damaged file) once per store."""
        if self._ready:
            return
        with self._lock:
            if self._ready:
                return
            if self._unavailable:
                raise RecordsUnavailable(self._unavailable)
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise RecordsUnavailable(
                    f"cannot create the records folder {self.path.parent}: "
                    f"{exc.strerror or exc}") from exc
            for attempt in range(2):
                try:
                    self._open_and_migrate()
                    break
                except NewerSchema as exc:
                    self._unavailable = (
                        f"Your game records ({self.path}) were written by a newer version of "
                        f"rummy-tui (records version {exc.version}; this one reads up to "
                        f"{SCHEMA_VERSION}). They are kept as they are, but games are not "
                        "recorded until you use the newer version again.")
                    self.notice = self._unavailable
                    log.warning(self._unavailable)
                    raise RecordsUnavailable(self._unavailable) from exc
                except sqlite3.DatabaseError as exc:
                    if _is_damage(exc) and not attempt:
                        self._set_aside(str(exc))
                        continue
                    if _cannot_write(exc) and self._open_read_only(str(exc)):
                        break
                    raise RecordsUnavailable(
                        f"cannot open your game records ({self.path}): {exc}") from exc
            self._ready = True
            if self._salvage_from is not None:
                source, self._salvage_from = self._salvage_from, None
                self._salvage(source)

    def _open_read_only(self, reason: str) -> bool:
        """The file is there but cannot be written (a read-only medium, a full disk): keep
        showing the games.  A copy is read into memory and upgraded there if it is from an
        older release; recording is refused with the reason until the store is reopened."""
        copy = _read_into_memory(self.path)
        if copy is None:
            return False
        try:
            if copy.execute("PRAGMA user_version").fetchone()[0] > SCHEMA_VERSION:
                copy.close()
                return False
            copy.execute("BEGIN")
            migrate(copy)
            copy.execute("COMMIT")
        except sqlite3.DatabaseError:
            copy.close()
            return False
        self._reader = copy
        self._read_only = (
            f"Your game records ({self.path}) cannot be written ({reason}). They are shown "
            "as they are, but games are not recorded until the file can be written again.")
        self._tell(self._read_only)
        log.warning(self._read_only)
        return True

    def _open_and_migrate(self) -> None:
        conn = self._connect()
        try:
            # Read before writing anything: a newer release's file is left byte for byte.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise NewerSchema(version)
            if version < 0:
                raise DamagedHeader(version)
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed ({check})")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                log.info("records database %s is in %s mode", self.path, mode)
            conn.execute("BEGIN IMMEDIATE")
            try:
                migrate(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    def _set_aside(self, reason: str) -> None:
        """Rename a damaged database (and its WAL files) aside, keeping it for rescue."""
        with _set_aside_lock, locked(self.path.with_name(self.path.name + ".lock"),
                                     BUSY_TIMEOUT):
            if not self._still_damaged():
                return  # another writer already replaced it
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            target = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
            n = 1
            while target.exists():
                n += 1
                target = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
            try:
                self.path.replace(target)
                for suffix in ("-wal", "-shm"):
                    side = self.path.with_name(self.path.name + suffix)
                    if side.exists():
                        side.replace(target.with_name(target.name + suffix))
            except OSError as exc:
                raise RecordsUnavailable(
                    f"your game records ({self.path}) are damaged and could not be moved "
                    f"aside: {exc.strerror or exc}") from exc
            self._tell(
                f"Your game records file was damaged and could not be read ({reason}). "
                f"It was kept as {target.name} and a fresh records file was started; "
                "this and later games are recorded as usual.")
            log.warning("%s (in %s)", self.notice, self.path.parent)
            self._salvage_from = target

    def _salvage(self, source: Path) -> None:
        """Copy every game that can still be read from the damaged file `source` into the
        fresh one, under its old number where that is free."""
        found, lost = readable_records(source)
        kept = 0
        for record in found:
            try:
                with self._write() as conn:
                    self._insert(conn, record, record.id)
                kept += 1
            except (sqlite3.DatabaseError, RecordsUnavailable) as exc:
                log.warning("could not salvage game #%s: %s", record.id, exc)
        if kept or lost:
            self._tell(f"{kept} recorded game{'s' if kept != 1 else ''} could be read from "
                       f"it and {'were' if kept != 1 else 'was'} copied into the fresh file"
                       + (f"; {lost} could not." if lost else "."))

    def _still_damaged(self) -> bool:
        if not self.path.exists():
            return False
        try:
            conn = self._connect()
            try:
                conn.execute("PRAGMA schema_version").fetchone()
                if conn.execute("PRAGMA user_version").fetchone()[0] < 0:
                    return True
                return bool(conn.execute("PRAGMA quick_check").fetchone()[0] != "ok")
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            return _is_damage(exc)

    def pop_notice(self) -> str | None:
        """The message the player should see (once), e.g. that a damaged file was set aside."""
        notice, self.notice = self.notice, None
        return notice

    # ------------------------------------------------------------------ writing

    def add(self, record: GameRecord) -> int:
        """Store a record and return its number; a record already kept (same game, e.g.
        imported twice) is not duplicated: its existing number is returned."""
        return self._run(lambda: self._add(record))

    def _add(self, record: GameRecord) -> int:
        with self._write() as conn:
            return self._insert(conn, record)

    def _insert(self, conn: sqlite3.Connection, record: GameRecord,
                record_id: int | None = None) -> int:
        """Insert inside the caller's transaction (numbered `record_id` if that is free)."""
        row = conn.execute("SELECT id FROM games WHERE uid = ?", (record.uid,)).fetchone()
        if row is not None:
            return int(row[0])
        if record_id is not None and conn.execute(
                "SELECT 1 FROM games WHERE id = ?", (record_id,)).fetchone() is not None:
            record_id = None
        cur = conn.execute(
            "INSERT INTO games (id, uid, ruleset_key, ruleset_name, ruleset_text, seed,"
            " players, scores, winners, started_at, finished_at, actions, fingerprint, undos)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record_id, record.uid, record.ruleset_key, record.ruleset_name,
             record.ruleset_text, record.seed,
             json.dumps([{"name": s.name, "bot": s.bot} for s in record.seats]),
             json.dumps([list(p) for p in record.scores]),
             json.dumps(list(record.winners)),
             record.started_at.isoformat(), record.finished_at.isoformat(),
             json.dumps(list(record.actions), separators=(",", ":")),
             record.fingerprint, record.undos),
        )
        assert cur.lastrowid is not None  # an INSERT always sets it
        game_id = cur.lastrowid
        totals = record.totals
        conn.executemany(
            "INSERT INTO seats (game_id, seat, name, bot, total, won)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, s, spec.name, spec.bot, totals[s], int(s in record.winners))
             for s, spec in enumerate(record.seats)],
        )
        return game_id

    def delete(self, record_id: int) -> bool:
        """Forget one record; False if there was none with that number."""
        return self._run(lambda: self._delete(record_id))

    def _delete(self, record_id: int) -> bool:
        if not 0 < record_id <= MAX_RECORD_ID:
            return False
        with self._write() as conn:
            cur = conn.execute("DELETE FROM games WHERE id = ?", (record_id,))
            return cur.rowcount > 0

    def add_abandoned(self, game: AbandonedGame) -> int:
        """Keep a game given up unfinished; the same game twice is kept once."""
        return self._run(lambda: self._add_abandoned(game))

    def _add_abandoned(self, game: AbandonedGame) -> int:
        with self._write() as conn:
            row = conn.execute("SELECT id FROM abandoned WHERE uid = ?", (game.uid,)).fetchone()
            if row is not None:
                return int(row[0])
            cur = conn.execute(
                "INSERT INTO abandoned (uid, ruleset_key, ruleset_name, ruleset_text, seed,"
                " players, scores, deal, started_at, abandoned_at, actions)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.uid, game.ruleset_key, game.ruleset_name, game.ruleset_text, game.seed,
                 json.dumps([{"name": s.name, "bot": s.bot} for s in game.seats]),
                 json.dumps([list(p) for p in game.scores]), game.deal,
                 game.started_at.isoformat(), game.abandoned_at.isoformat(),
                 json.dumps(list(game.actions), separators=(",", ":"))))
            return int(cur.lastrowid or 0)

    # ------------------------------------------------------------------ reading

    def abandoned_count(self) -> int:
        """How many games were given up unfinished (never counted as played)."""
        return self._run(self._abandoned_count)

    def _abandoned_count(self) -> int:
        with self._connection() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM abandoned").fetchone()[0])

    def abandoned_games(self) -> list[AbandonedSummary]:
        """Games given up unfinished, latest first; a damaged row is left out and reported."""
        return self._run(self._abandoned_games)

    def _abandoned_games(self) -> list[AbandonedSummary]:
        with self._connection() as conn:
            rows = conn.execute(f"SELECT {ABANDONED_COLUMNS} FROM abandoned"
                                " ORDER BY abandoned_at DESC, id DESC").fetchall()
        out, damaged = [], []
        for row in rows:
            try:
                out.append(abandoned_from_row(row))
            except ROW_DAMAGE as exc:
                damaged.append((row[0], exc))
        if damaged:
            numbers = ", ".join(f"#{gid}" for gid, _ in damaged[:10])
            log.warning("records %s: damaged abandoned rows %s (first: %s)", self.path,
                        numbers, damaged[0][1])
            self._tell(f"{len(damaged)} abandoned game{'s' if len(damaged) != 1 else ''} "
                       f"({numbers}) could not be read and were left out.")
        return out

    def count(self) -> int:
        return self._run(self._count)

    def _count(self) -> int:
        with self._connection() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def summaries(self, limit: int | None = None) -> list[GameSummary]:
        """Recorded games, newest first, without their moves.  A row that cannot be read
        (damaged by hand or by the disk) is left out, and `notice` says which."""
        return self._run(lambda: self._summaries(limit))

    def _summaries(self, limit: int | None) -> list[GameSummary]:
        query = ("SELECT id, ruleset_key, ruleset_name, scores, winners, started_at,"
                 " finished_at FROM games ORDER BY finished_at DESC, id DESC")
        params: tuple[int, ...] = ()
        if limit is not None:
            query += " LIMIT ?"
            params = (limit,)
        with self._connection() as conn:
            games = conn.execute(query, params).fetchall()
            seats: dict[int, list[tuple[str, str | None, int]]] = {}
            for gid, name, bot, total in conn.execute(
                    "SELECT game_id, name, bot, total FROM seats ORDER BY game_id, seat"):
                seats.setdefault(gid, []).append((name, bot, total))
        out = []
        damaged: list[tuple[object, BaseException]] = []
        for row in games:
            try:
                out.append(summary_from_row(row, seats.get(row[0], [])))
            except ROW_DAMAGE as exc:
                damaged.append((row[0], exc))
        self._report_damaged(damaged)
        return out

    def _report_damaged(self, damaged: list[tuple[object, BaseException]]) -> None:
        if not damaged:
            return
        numbers = ", ".join(f"#{gid}" for gid, _ in damaged[:10])
        more = f" and {len(damaged) - 10} more" if len(damaged) > 10 else ""
        log.warning("records %s: damaged rows %s%s (first: %s)", self.path, numbers, more,
                    damaged[0][1])
        games = "game" if len(damaged) == 1 else "games"
        self._tell(f"{len(damaged)} recorded {games} ({numbers}{more}) could not be read "
                   "and were left out; the others are shown.")

    def _tell(self, message: str) -> None:
        """Add to what the player will be told (once, by `pop_notice`)."""
        if self.notice and message in self.notice:
            return
        self.notice = f"{self.notice} {message}" if self.notice else message

    def get(self, record_id: int) -> GameRecord:
        """The full record, moves and all; `RecordNotFound` if there is none, `RecordError`
        if its row is damaged."""
        if not 0 < record_id <= MAX_RECORD_ID:  # SQLite numbers rows with 64-bit integers
            raise RecordNotFound(record_id)
        return self._run(lambda: self._get(record_id))

    def _get(self, record_id: int) -> GameRecord:
        with self._connection() as conn:
            row = conn.execute(f"SELECT {RECORD_COLUMNS}, undos FROM games WHERE id = ?",
                               (record_id,)).fetchone()
        if row is None:
            raise RecordNotFound(record_id)
        try:
            undos = row[-1]
            return replace(record_from_row(row[:-1]),
                           undos=undos if isinstance(undos, int) and undos >= 0 else 0)
        except ROW_DAMAGE as exc:
            raise RecordError(f"recorded game #{record_id} is damaged and cannot be read "
                              f"({one_line(exc)})") from exc

    def latest_id(self) -> int | None:
        """The number of the game that finished last (None with no records)."""
        return self._run(self._latest_id)

    def _latest_id(self) -> int | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT id FROM games ORDER BY finished_at DESC, id DESC LIMIT 1").fetchone()
        return None if row is None else int(row[0])
