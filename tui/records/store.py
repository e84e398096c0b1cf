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
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .base import SeatRecord, as_utc
from .schema import SCHEMA_VERSION, NewerSchema, migrate

if TYPE_CHECKING:
    from .record import GameRecord

DB_NAME = "records.sqlite3"
BUSY_TIMEOUT = 30.0  # seconds a writer waits for another to finish
SQLITE_CORRUPT = 11
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
        return f"there is no recorded game #{self.args[0]}"


@dataclass(frozen=True)
class GameSummary:
    """One recorded game without its moves: enough for lists and statistics."""

    id: int
    ruleset_key: str
    ruleset_name: str
    seats: tuple[SeatRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    started_at: datetime
    finished_at: datetime

    @property
    def duration(self) -> float:
        return max(0.0, (self.finished_at - self.started_at).total_seconds())


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
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ connections

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        self._prepare()
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
                    if not _is_damage(exc) or attempt:
                        raise RecordsUnavailable(
                            f"cannot open your game records ({self.path}): {exc}") from exc
                    self._set_aside(str(exc))
            self._ready = True

    def _open_and_migrate(self) -> None:
        conn = self._connect()
        try:
            # Read before writing anything: a newer release's file is left byte for byte.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise NewerSchema(version)
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
        with _set_aside_lock, _file_lock(self.path.with_name(self.path.name + ".lock")):
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
            self.notice = (
                f"Your game records file was damaged and could not be read ({reason}). "
                f"It was kept as {target.name} and a fresh records file was started; "
                "this and later games are recorded as usual.")
            log.warning("%s (in %s)", self.notice, self.path.parent)

    def _still_damaged(self) -> bool:
        if not self.path.exists():
            return False
        try:
            conn = self._connect()
            try:
                conn.execute("PRAGMA schema_version").fetchone()
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
            row = conn.execute("SELECT id FROM games WHERE uid = ?", (record.uid,)).fetchone()
            if row is not None:
                return int(row[0])
            cur = conn.execute(
                "INSERT INTO games (uid, ruleset_key, ruleset_name, ruleset_text, seed, players,"
                " scores, winners, started_at, finished_at, actions, fingerprint)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.uid, record.ruleset_key, record.ruleset_name, record.ruleset_text,
                 record.seed,
                 json.dumps([{"name": s.name, "bot": s.bot} for s in record.seats]),
                 json.dumps([list(p) for p in record.scores]),
                 json.dumps(list(record.winners)),
                 record.started_at.isoformat(), record.finished_at.isoformat(),
                 json.dumps(list(record.actions), separators=(",", ":")),
                 record.fingerprint),
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
        with self._write() as conn:
            cur = conn.execute("DELETE FROM games WHERE id = ?", (record_id,))
            return cur.rowcount > 0

    # ------------------------------------------------------------------ reading

    def count(self) -> int:
        return self._run(self._count)

    def _count(self) -> int:
        with self._connection() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def summaries(self, limit: int | None = None) -> list[GameSummary]:
        """Recorded games, newest first, without their moves."""
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
        for gid, key, rname, scores, winners, started, finished in games:
            rows = seats.get(gid, [])
            out.append(GameSummary(
                id=gid, ruleset_key=key, ruleset_name=rname or key,
                seats=tuple(SeatRecord(n, b) for n, b, _ in rows),
                totals=tuple(t for _, _, t in rows),
                winners=tuple(json.loads(winners)),
                rounds=len(json.loads(scores)),
                started_at=as_utc(started),
                finished_at=as_utc(finished),
            ))
        return out

    def get(self, record_id: int) -> GameRecord:
        """The full record, moves and all; `RecordNotFound` if there is none."""
        return self._run(lambda: self._get(record_id))

    def _get(self, record_id: int) -> GameRecord:
        from .record import GameRecord

        with self._connection() as conn:
            row = conn.execute(
                "SELECT id, uid, ruleset_key, ruleset_name, ruleset_text, seed, players, scores,"
                " winners, started_at, finished_at, actions, fingerprint FROM games WHERE id = ?",
                (record_id,)).fetchone()
        if row is None:
            raise RecordNotFound(record_id)
        (gid, uid, key, rname, text, seed, players, scores, winners, started, finished,
         actions, fp) = row
        return GameRecord(
            uid=uid, ruleset_key=key, ruleset_name=rname or key, ruleset_text=text, seed=seed,
            seats=tuple(SeatRecord(str(p["name"]), p.get("bot")) for p in json.loads(players)),
            scores=tuple(tuple(p) for p in json.loads(scores)),
            winners=tuple(json.loads(winners)),
            started_at=as_utc(started),
            finished_at=as_utc(finished),
            actions=tuple(json.loads(actions)),
            fingerprint=fp, id=gid,
        )

    def latest_id(self) -> int | None:
        """The number of the game that finished last (None with no records)."""
        return self._run(self._latest_id)

    def _latest_id(self) -> int | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT id FROM games ORDER BY finished_at DESC, id DESC LIMIT 1").fetchone()
        return None if row is None else int(row[0])


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Serialise setting a damaged file aside between processes (where the OS can)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the thread lock is all we have
        yield
        return
    with open(path, "a+b") as handle:
        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.02)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
