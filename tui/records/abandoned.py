"""A game given up before its end (the player started a new one over it): kept in the
records as abandoned, with its moves and where it stood, but never counted as played, won
or lost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tui.engine.game import Game

from .base import SeatLike, SeatRecord
from .record import take_game


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
        if game.phase == "game_over":
            raise ValueError("a finished game is recorded as finished, not abandoned")
        taken = take_game(game, seats, started_at, abandoned_at)
        return cls(uid=taken.uid, ruleset_key=game.rules.key, ruleset_name=game.rules.name,
                   ruleset_text=taken.ruleset_text, seats=taken.seats, seed=game.seed,
                   scores=tuple(tuple(points) for points in game.scores),
                   deal=game.round.number, started_at=taken.started_at,
                   abandoned_at=taken.ended_at, actions=taken.actions)
