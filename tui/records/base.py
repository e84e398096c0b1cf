"""The small pieces of a record that need no game engine: who sat where, timestamps, and
a record's identity.  The store and `rummy stats` use these without loading the rules."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol


class RecordError(Exception):
    """A record (or record file) that cannot be used, and why, in words for the player."""


class SeatLike(Protocol):
    """Anything that names a seat's player and bot level (read-only)."""

    @property
    def name(self) -> str: ...

    @property
    def bot(self) -> str | None: ...


@dataclass(frozen=True)
class SeatRecord:
    """Who sat in a seat: a person (`bot` None) or a computer player of some level."""

    name: str
    bot: str | None = None

    @property
    def label(self) -> str:
        return self.name if self.bot is None else f"{self.name} ({self.bot})"


def seat_records(seats: Sequence[SeatLike | tuple[str, str | None]]) -> tuple[SeatRecord, ...]:
    """Accept the table's `SeatSpec`s, `SeatRecord`s or plain (name, level) pairs."""
    out = []
    for seat in seats:
        if isinstance(seat, tuple):
            name, bot = seat
        else:
            name, bot = seat.name, seat.bot
        out.append(SeatRecord(str(name), str(bot) if bot else None))
    return tuple(out)


def as_utc(moment: datetime | float | int | str) -> datetime:
    """Timestamps arrive as epoch seconds, datetimes or ISO text; records keep aware UTC."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if isinstance(moment, int | float):
        return datetime.fromtimestamp(moment, UTC)
    if moment.tzinfo is None:
        moment = moment.astimezone()  # a naive time is the local clock's
    return moment.astimezone(UTC).replace(microsecond=0)


def record_uid(ruleset_text: str, seats: Sequence[SeatRecord], seed: int,
               actions: Sequence[Mapping[str, Any]], started_at: datetime) -> str:
    """A stable identity: the same game recorded twice, or imported twice, is one record."""
    payload = json.dumps(
        [ruleset_text, [[s.name, s.bot] for s in seats], seed, list(actions),
         started_at.isoformat()],
        sort_keys=True, separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


