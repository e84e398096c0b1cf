"""A game given up before its end (the player started a new one over it): kept in the
records as abandoned, with its moves and where it stood, but never counted as played, won
or lost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tui.engine.game import Game

from .base import SeatLike, SeatRecord, as_utc, record_uid, seat_records


@dataclass(frozen=True)
class AbandonedGame:
    uid: str
    ruleset_key: str
    ruleset_name: str
    ruleset_text: str
    seats: tuple[SeatRecord, ...]
    seed: int
    scores: tuple[tuple[int, ...], ...]  # points per finished deal, per seat
    deal: int  # the deal it was given up in
    started_at: datetime
    abandoned_at: datetime
    actions: tuple[dict[str, Any], ...] = field(repr=False)

    @classmethod
    def from_game(cls, game: Game, seats: Sequence[SeatLike | tuple[str, str | None]],
                  started_at: datetime | float | str,
                  abandoned_at: datetime | float | str | None = None) -> AbandonedGame:
        """The record of a game still in play (`ValueError` for one that has ended: that is
        a finished game, `GameRecord`)."""
        from tui.engine.ruleset.dump import standalone_yaml

        if game.phase == "game_over":
            raise ValueError("a finished game is recorded as finished, not abandoned")
        specs = seat_records(seats)
        if len(specs) != game.players:
            raise ValueError(f"{len(specs)} seats given for a game of {game.players}")
        start = as_utc(started_at)
        end = as_utc(abandoned_at if abandoned_at is not None else datetime.now(UTC))
        text = standalone_yaml(game.rules)
        actions = tuple(a.to_json() for a in game.history)
        return cls(uid=record_uid(text, specs, game.seed, actions, start),
                   ruleset_key=game.rules.key, ruleset_name=game.rules.name,
                   ruleset_text=text, seats=specs, seed=game.seed,
                   scores=tuple(tuple(points) for points in game.scores),
                   deal=game.round.number, started_at=start, abandoned_at=max(start, end),
                   actions=actions)
