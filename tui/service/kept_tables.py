"""The shared tables a server keeps on disk, so that no game is lost to a restart.

A game is its ruleset, its players, its seed and its actions (`tui.engine.save`): a kept
table is exactly that, plus who owns each seat (an SSH key, or a keyless player's rejoin
code) and the table's chat.  Each table is its own small SQLite database in WAL mode
(`table-N.sqlite` in the server's data folder), so a damaged file costs that one table
and never the others.  A move is one row, written and committed by the caller before
anyone is shown the move (`synchronous=NORMAL`: a commit is a write to the WAL, not a
flush to the disk; a power cut may lose the last moves, a crash of the server loses
none).  Each row carries the deal it leaves the game in and the fingerprint of the state
it leads to, so loading replays the actions through the rules and checks that the state
is the one the players last saw; a table that does not replay is reported, never
half-loaded.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tui.bots import LEVELS
from tui.engine.game import Game
from tui.engine.save import SaveError, fingerprint, game_from_json, game_to_json
from tui.service.chat import ChatMessage

log = logging.getLogger(__name__)

FORMAT = "rummy-tui-kept-table"
VERSION = 1
TABLES_DIR = "tables"
"""The folder of kept tables, in the server's data folder."""
LOCK_FILE = "serving.lock"
"""Held by the server that keeps the tables of a folder, for as long as it runs."""
CHAT_KEPT = 100
SEAT_FIELDS = ("person", "owner", "rejoin_code", "bot", "name")
_FILE = re.compile(r"table-(\d{1,9})\.sqlite")

SeatRecord = Mapping[str, str | None]
"""A seat as kept: `SEAT_FIELDS`, each text or None (`tui.service.seats.Seat`)."""


@dataclass(frozen=True)
class KeptHeader:
    """What a table is besides its game: how the lobby showed it."""

    rules_key: str
    fill_level: str
    host: str
    started_at: float


@dataclass
class KeptTable:
    """A kept table, loaded: its game replayed to the state the players last saw."""

    id: int
    header: KeptHeader
    game: Game
    seats: list[dict[str, str | None]]
    chat: list[ChatMessage]
    updated: float
    """When its last move was kept (epoch seconds)."""


@dataclass(frozen=True)
class DamagedTable:
    """A kept table that cannot be loaded, and why (it stays on disk until dropped)."""

    id: int
    path: Path
    reason: str


class TableLog(Protocol):
    """Where one table is written down as it is played."""

    @property
    def table_id(self) -> int: ...

    def moved(self, game: Game) -> None:
        """Keep what happened since the last call (actions, a new deal); committed on
        return."""

    def seated(self, seats: Sequence[SeatRecord]) -> None:
        """Keep who owns each seat now (if it changed)."""

    def said(self, message: ChatMessage) -> None:
        """Keep a chat line."""

    def close(self) -> None:
        """Stop writing; the table stays kept."""

    def remove(self) -> None:
        """Stop writing and forget the table (finished, or closed for good)."""


class TableStore(Protocol):
    """The kept tables of one server."""

    def begin(self, table_id: int, header: KeptHeader, game: Game,
              seats: Sequence[SeatRecord], chat: Iterable[ChatMessage]) -> TableLog:
        """Start keeping a table whose game has begun (`KeptTableError` if it cannot)."""

    def resume(self, table_id: int, game: Game) -> TableLog:
        """Go on keeping a loaded table (`game` is the one `load` gave)."""

    def load_all(self) -> list[KeptTable | DamagedTable]:
        """Every kept table, by id: loaded, or why it cannot be."""

    def drop(self, table_id: int) -> bool:
        """Forget a kept table; False if there is none by that id."""

    def next_id(self) -> int:
        """An id no kept table (loadable or not) has."""


class KeptTableError(Exception):
    """A table that cannot be kept or loaded; the text says why."""


class SqliteTables:
    """`TableStore` in a folder: one SQLite file per table."""

    def __init__(self, folder: Path, synchronous: str = "NORMAL") -> None:
        self.folder = Path(folder)
        if synchronous not in ("OFF", "NORMAL", "FULL"):
            raise ValueError(f"synchronous {synchronous!r}: OFF, NORMAL or FULL")
        self.synchronous = synchronous
        """NORMAL: a commit is a write to the WAL (a crash of the server loses nothing, a
        power cut may lose the last moves); FULL flushes every move to the disk."""

    def path_of(self, table_id: int) -> Path:
        return self.folder / f"table-{table_id}.sqlite"

    def ids(self) -> list[int]:
        if not self.folder.is_dir():
            return []
        return sorted(int(m.group(1)) for p in self.folder.iterdir()
                      if (m := _FILE.fullmatch(p.name)))

    def next_id(self) -> int:
        return max(self.ids(), default=0) + 1

    # ------------------------------------------------------------------ writing
    def begin(self, table_id: int, header: KeptHeader, game: Game,
              seats: Sequence[SeatRecord], chat: Iterable[ChatMessage]) -> SqliteTableLog:
        path = self.path_of(table_id)
        if path.exists():
            raise KeptTableError(f"{path} already exists")
        self.folder.mkdir(parents=True, exist_ok=True)
        document = game_to_json(game)
        for played in ("actions", "round", "fingerprint"):  # those are the rows
            document.pop(played)
        head = {"format": FORMAT, "version": VERSION, "rules_key": header.rules_key,
                "fill_level": header.fill_level, "host": header.host,
                "started_at": header.started_at, "game": document}
        db = _connect(path, self.synchronous, create=True)
        try:
            with db:
                db.execute("CREATE TABLE kept (one INTEGER PRIMARY KEY CHECK (one = 1), "
                           "header TEXT NOT NULL, seats TEXT NOT NULL)")
                db.execute("CREATE TABLE moves (n INTEGER PRIMARY KEY, action TEXT, "
                           "deal INTEGER NOT NULL, fingerprint TEXT NOT NULL, "
                           "at REAL NOT NULL)")
                db.execute("CREATE TABLE chat (number INTEGER PRIMARY KEY, "
                           "sender TEXT NOT NULL, text TEXT NOT NULL)")
                db.execute("INSERT INTO kept VALUES (1, ?, ?)",
                           (json.dumps(head), _seats_text(seats)))
                db.executemany("INSERT INTO chat VALUES (?, ?, ?)",
                               [(m.number, m.sender, m.text) for m in chat])
        except sqlite3.Error as exc:
            db.close()
            path.unlink(missing_ok=True)
            raise KeptTableError(f"cannot keep table {table_id} in {path}: {exc}") from exc
        table_log = SqliteTableLog(table_id, path, db, seats)
        table_log.moved(game)
        return table_log

    def resume(self, table_id: int, game: Game) -> SqliteTableLog:
        path = self.path_of(table_id)
        try:
            db = _connect(path, self.synchronous)
            seats, rows = db.execute(
                "SELECT (SELECT seats FROM kept), (SELECT count(*) FROM moves)").fetchone()
        except sqlite3.Error as exc:
            raise KeptTableError(f"cannot go on keeping table {table_id}: {exc}") from exc
        table_log = SqliteTableLog(table_id, path, db, json.loads(seats))
        table_log.caught_up(game, rows)
        return table_log

    def drop(self, table_id: int) -> bool:
        path = self.path_of(table_id)
        found = path.exists()
        _remove_files(path)
        return found

    # ------------------------------------------------------------------ reading
    def load_all(self) -> list[KeptTable | DamagedTable]:
        out: list[KeptTable | DamagedTable] = []
        for table_id in self.ids():
            path = self.path_of(table_id)
            try:
                out.append(self.load(table_id))
            except KeptTableError as exc:
                out.append(DamagedTable(table_id, path, str(exc)))
        return out

    def load(self, table_id: int) -> KeptTable:
        """One kept table; `KeptTableError` in one line if it cannot be loaded."""
        path = self.path_of(table_id)
        try:
            if not path.exists():
                raise sqlite3.OperationalError("no such file")
            db = sqlite3.connect(str(path))  # read only: WAL mode is in the file itself
            try:
                row = db.execute("SELECT header, seats FROM kept").fetchone()
                moves = db.execute(
                    "SELECT action, deal, fingerprint, at FROM moves ORDER BY n").fetchall()
                chat = db.execute("SELECT number, sender, text FROM chat ORDER BY number "
                                  "DESC LIMIT ?", (CHAT_KEPT,)).fetchall()
            finally:
                db.close()
        except sqlite3.Error as exc:
            raise KeptTableError(f"{path} cannot be read ({exc})") from exc
        if row is None:
            raise KeptTableError(f"{path} is damaged (no table in it)")
        try:
            return _kept_table(table_id, row, moves, chat)
        except (SaveError, ValueError, TypeError, KeyError, RecursionError) as exc:
            raise KeptTableError(f"{path} is damaged ({_short(exc)})") from exc


class SqliteTableLog:
    """One table's file, open for writing while the table is played."""

    def __init__(self, table_id: int, path: Path, db: sqlite3.Connection,
                 seats: Sequence[SeatRecord]) -> None:
        self.table_id = table_id
        self.path = path
        self._db: sqlite3.Connection | None = db
        self._seats = _seats_text(seats)
        self._game: Game | None = None
        self._actions = 0  # of the game's history, kept
        self._deal = 0
        self._rows = 0

    def caught_up(self, game: Game, rows: int) -> None:
        """`game` was loaded from the `rows` rows already kept."""
        self._game, self._actions, self._deal = game, len(game.history), game.round.number
        self._rows = rows

    def moved(self, game: Game) -> None:
        db = self._db
        if db is None:
            return
        history, deal = game.history, game.round.number
        again = self._game is not None and (game is not self._game
                                            or len(history) < self._actions)
        first, n = (0, 0) if again else (self._actions, self._rows)
        if not again and first == len(history) and deal == self._deal:
            return
        stamp, now = fingerprint(game), time.time()
        texts: list[str | None] = [json.dumps(a.to_json()) for a in history[first:]]
        values = [(n + i, text, deal, stamp, now)
                  for i, text in enumerate(texts or [None])]  # None: a new deal, no action
        with db:
            if again:  # the game was replaced (a move taken back): written again
                db.execute("DELETE FROM moves")
            db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", values)
        self._game, self._actions, self._deal = game, len(history), deal
        self._rows = n + len(values)

    def seated(self, seats: Sequence[SeatRecord]) -> None:
        text = _seats_text(seats)
        if self._db is None or text == self._seats:
            return
        with self._db:
            self._db.execute("UPDATE kept SET seats = ?", (text,))
        self._seats = text

    def said(self, message: ChatMessage) -> None:
        if self._db is None:
            return
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO chat VALUES (?, ?, ?)",
                             (message.number, message.sender, message.text))
            if message.number % CHAT_KEPT == 0:  # older lines are never shown again
                self._db.execute("DELETE FROM chat WHERE number <= ?",
                                 (message.number - CHAT_KEPT,))

    def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            db.close()

    def remove(self) -> None:
        self.close()
        _remove_files(self.path)


# ---------------------------------------------------------------------- helpers
def _connect(path: Path, synchronous: str, create: bool = False) -> sqlite3.Connection:
    if not create and not path.exists():
        raise sqlite3.OperationalError("no such file")
    db = sqlite3.connect(str(path), check_same_thread=False)
    try:
        if create:
            db.execute("PRAGMA page_size = 1024")  # a move is one small page
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA synchronous = {synchronous}")
    except sqlite3.Error:
        db.close()
        raise
    return db


def _remove_files(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _seats_text(seats: Sequence[SeatRecord]) -> str:
    return json.dumps([{f: seat.get(f) for f in SEAT_FIELDS} for seat in seats])


def _kept_table(table_id: int, row: tuple[Any, ...], moves: list[tuple[Any, ...]],
                chat: list[tuple[Any, ...]]) -> KeptTable:
    """Build a kept table from its rows: every value checked, the game replayed and its
    state compared with the one last kept."""
    head = json.loads(row[0])
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ValueError("not a kept table")
    if head.get("version") != VERSION:
        raise ValueError(f"kept by an unknown version ({_short(head.get('version'))})")
    header = KeptHeader(_text(head, "rules_key"), _text(head, "fill_level"),
                        _text(head, "host"), _number(head, "started_at"))
    document = head.get("game")
    if not isinstance(document, dict) or not moves:
        raise ValueError("no game in it")
    actions = []
    for text, _deal, _stamp, _at in moves:
        if text is not None:
            if not isinstance(text, str):
                raise ValueError("a move is not text")
            actions.append(json.loads(text))
    _, deal, stamp, at = moves[-1]
    game = game_from_json({**document, "actions": actions, "round": deal,
                           "fingerprint": stamp})
    seats = json.loads(row[1])
    if not isinstance(seats, list) or len(seats) != game.players:
        raise ValueError("its seats do not match its players")
    checked: list[dict[str, str | None]] = []
    for seat in seats:
        if not isinstance(seat, dict) or not all(
                seat.get(f) is None or isinstance(seat.get(f), str) for f in SEAT_FIELDS):
            raise ValueError("a seat is not a seat")
        if seat.get("bot") is not None and seat["bot"] not in LEVELS:
            raise ValueError(f"unknown computer player level {_short(seat['bot'])}")
        checked.append({f: seat.get(f) for f in SEAT_FIELDS})
    lines = []
    for number, sender, text in reversed(chat):
        if not isinstance(number, int) or not isinstance(sender, str) \
                or not isinstance(text, str):
            raise ValueError("a chat line is not text")
        lines.append(ChatMessage(number, sender, text))
    return KeptTable(table_id, header, game, checked, lines, float(at))


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key} is not text")
    return value


def _number(data: dict[str, Any], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key} is not a number")
    return float(value)


def _short(value: object, limit: int = 80) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"
