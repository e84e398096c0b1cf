"""The one call a front end makes when a game ends: `record_finished_game`.

It never raises for a records problem (a game must never be lost to its bookkeeping): the
outcome carries the record's number, or a message to show the player instead.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from .base import SeatLike
from .store import RecordStore, RecordsUnavailable, default_path

log = logging.getLogger(__name__)
_stores: dict[Path, RecordStore] = {}
_stores_lock = threading.Lock()


def default_store() -> RecordStore:
    """One store per database path in this process (shared by every session)."""
    path = default_path()
    with _stores_lock:
        store = _stores.get(path)
        if store is None:
            store = _stores[path] = RecordStore(path)
        return store


@dataclass(frozen=True)
class RecordOutcome:
    record_id: int | None  # None: not recorded (see `message`)
    message: str | None = None  # for the player: set when something went wrong or was fixed


def record_finished_game(table_or_game: Any,
                         seats: Sequence[SeatLike | tuple[str, str | None]] | None = None,
                         started_at: datetime | float | str | None = None, *,
                         finished_at: datetime | float | str | None = None,
                         store: RecordStore | None = None) -> RecordOutcome:
    """Record a game that has just ended.

    `table_or_game` is a `tui.service.table.Table` (its seats are used when `seats` is None)
    or a `Game`.  `seats` gives each seat's name and bot level (None for a person);
    `started_at` is when the game began (epoch seconds or a datetime; default: now).
    Recording the same game twice keeps one record.  Safe to call from any thread; it does a
    short blocking write, so an event loop may prefer ``asyncio.to_thread``.
    """
    from .record import GameRecord

    game = getattr(table_or_game, "game", table_or_game)
    if seats is None:
        seats = getattr(table_or_game, "seats", None)
        if seats is None:
            seats = [(name, None) for name in game.names]
    started = started_at if started_at is not None else datetime.now().astimezone()
    record = GameRecord.from_game(game, seats, started, finished_at)
    record = dataclasses.replace(record, undos=getattr(table_or_game, "undos", 0))
    store = store or default_store()
    try:
        record_id = store.add(record)
    except RecordsUnavailable as exc:
        log.warning("game not recorded: %s", exc)
        return RecordOutcome(None, store.pop_notice() or f"This game was not recorded: {exc}")
    return RecordOutcome(record_id, store.pop_notice())


def record_abandoned_game(table_or_game: Any,
                          seats: Sequence[SeatLike | tuple[str, str | None]] | None = None,
                          started_at: datetime | float | str | None = None, *,
                          store: RecordStore | None = None) -> RecordOutcome:
    """Record a game given up unfinished, as abandoned (never counted as played).  Like
    `record_finished_game` it never raises for a records problem."""
    from .abandoned import AbandonedGame

    game = getattr(table_or_game, "game", table_or_game)
    if seats is None:
        seats = getattr(table_or_game, "seats", None) or [(name, None) for name in game.names]
    if started_at is None:
        started_at = getattr(table_or_game, "started_at", None)
    started = started_at if started_at is not None else datetime.now().astimezone()
    abandoned = AbandonedGame.from_game(game, seats, started)
    store = store or default_store()
    try:
        record_id = store.add_abandoned(abandoned)
    except RecordsUnavailable as exc:
        log.warning("abandoned game not recorded: %s", exc)
        return RecordOutcome(None, store.pop_notice() or f"This game was not recorded: {exc}")
    return RecordOutcome(record_id, store.pop_notice())
