"""Reading one row of the records database into a record, trusting nothing in it.

A row may have been damaged by a disk, a crash of an older release or a hand with an SQLite
browser.  Every column is checked for its type and shape here, so a bad row is refused
with one of `ROW_DAMAGE` and the store can skip it and read the next.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tui.terminal_text import printable

from .base import SeatRecord, as_utc

if TYPE_CHECKING:
    from .record import GameRecord


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


@dataclass(frozen=True)
class AbandonedSummary:
    """A game given up unfinished, for lists: where it stood when it was left."""

    id: int
    ruleset_name: str
    seats: tuple[SeatRecord, ...]
    totals: tuple[int, ...]  # points of the deals finished before it was left
    deal: int  # the deal it was left in (1 is the first)
    started_at: datetime
    abandoned_at: datetime


ABANDONED_COLUMNS = ("id, ruleset_key, ruleset_name, players, scores, deal, started_at,"
                     " abandoned_at")


# What reading a damaged row can raise: bad JSON, wrong types, impossible dates.
ROW_DAMAGE = (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError,
              OSError, RecursionError)
RECORD_COLUMNS = ("id, uid, ruleset_key, ruleset_name, ruleset_text, seed, players, scores,"
                  " winners, started_at, finished_at, actions, fingerprint")


def lenient_text(raw: bytes) -> str:
    """Text columns as text even when their bytes are not UTF-8 (a damaged row is then
    refused by the checks, not by the database driver, and the other rows still read)."""
    return raw.decode("utf-8", errors="replace")


def one_line(exc: BaseException, limit: int = 100) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _json_list(text: object) -> list[Any]:
    if not isinstance(text, str):
        raise TypeError("not JSON text")
    return _list(json.loads(text))


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError("not a list")
    return value


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


def _shown(value: object) -> str:
    """Text that is shown (names, ruleset names): kept, but unable to drive a terminal."""
    return printable(_text(value))


def _time(value: object) -> datetime:
    return as_utc(_text(value))


def _seat(entry: object) -> SeatRecord:
    if not isinstance(entry, dict):
        raise TypeError("a seat is not a mapping")
    bot = entry.get("bot")
    return SeatRecord(_shown(entry["name"]), None if bot is None else _shown(bot))


def summary_from_row(row: tuple[Any, ...],
                      seats: list[tuple[str, str | None, int]]) -> GameSummary:
    gid, key, rname, scores, winners, started, finished = row
    if not seats:
        raise ValueError("no players")
    return GameSummary(
        id=_int(gid), ruleset_key=_shown(key), ruleset_name=_shown(rname or key),
        seats=tuple(SeatRecord(_shown(n), None if b is None else _shown(b)) for n, b, _ in seats),
        totals=tuple(_int(t) for _, _, t in seats),
        winners=tuple(_int(w) for w in _json_list(winners)),
        rounds=len(_json_list(scores)),
        started_at=_time(started),
        finished_at=_time(finished),
    )


def record_from_row(row: tuple[Any, ...]) -> GameRecord:
    """A whole record from its row (`RECORD_COLUMNS`); raises one of `ROW_DAMAGE` for a row
    that does not hold a readable game."""
    from .record import GameRecord

    (gid, uid, key, rname, text, seed, players, scores, winners, started, finished,
     actions, fp) = row
    moves = _json_list(actions)
    if not all(isinstance(a, dict) for a in moves):
        raise TypeError("a move is not a mapping")
    seats = tuple(_seat(p) for p in _json_list(players))
    points = tuple(tuple(_int(x) for x in _list(p)) for p in _json_list(scores))
    if any(len(p) != len(seats) for p in points):
        raise ValueError("the scores do not match the seats")
    return GameRecord(
        uid=_text(uid), ruleset_key=_shown(key), ruleset_name=_shown(rname or key),
        ruleset_text=_text(text), seed=_int(seed),
        seats=seats,
        scores=points,
        winners=tuple(_int(w) for w in _json_list(winners)),
        started_at=_time(started),
        finished_at=_time(finished),
        actions=tuple(moves),
        fingerprint=None if fp is None else _text(fp), id=_int(gid),
    )


def abandoned_from_row(row: tuple[Any, ...]) -> AbandonedSummary:
    """An abandoned game from its row (`ABANDONED_COLUMNS`); raises one of `ROW_DAMAGE`."""
    gid, key, rname, players, scores, deal, started, abandoned = row
    seats = tuple(_seat(p) for p in _json_list(players))
    if not seats:
        raise ValueError("no players")
    points = [tuple(_int(x) for x in _list(p)) for p in _json_list(scores)]
    if any(len(p) != len(seats) for p in points):
        raise ValueError("the scores do not match the seats")
    return AbandonedSummary(
        id=_int(gid), ruleset_name=_shown(rname or key), seats=seats,
        totals=tuple(sum(p[i] for p in points) for i in range(len(seats))),
        deal=_int(deal), started_at=_time(started), abandoned_at=_time(abandoned))
