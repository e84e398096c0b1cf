"""One finished game, as kept in the records: everything needed to list it, count it in the
statistics, and replay it move by move years later.

A record never depends on other files: it carries the full text of its ruleset (written out
with every key, so a ruleset that has since been edited or deleted does not matter), the
names and levels of the players, the seed and every action.  The game part of an exported
record is exactly a saved game (`tui.engine.save`), so importing one replays it through the
rules and refuses anything that does not add up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from tui.engine.game import Game
from tui.engine.save import FORMAT as GAME_FORMAT
from tui.engine.save import VERSION as GAME_VERSION
from tui.engine.save import SaveError, fingerprint, game_from_json, replay_moves
from tui.terminal_text import printable

from .base import RecordError, SeatLike, SeatRecord, as_utc, record_uid, seat_records

__all__ = ["GameRecord", "RecordError", "SeatRecord", "as_utc", "seat_records"]

EXPORT_FORMAT = "rummy-tui-record"
EXPORT_VERSION = 1


class Taken(NamedTuple):
    """What every record of a game keeps, whether it ended or was given up."""

    uid: str
    seats: tuple[SeatRecord, ...]
    ruleset_text: str
    actions: tuple[dict[str, Any], ...]
    started_at: datetime
    ended_at: datetime


def take_game(game: Game, seats: Sequence[SeatLike | tuple[str, str | None]],
              started_at: datetime | float | str,
              ended_at: datetime | float | str | None) -> Taken:
    """The seats, standalone rules and moves of `game`, timed and identified
    (`ValueError` if the seats do not fit the game); `ended_at` None means now."""
    from tui.engine.ruleset import standalone_yaml

    specs = seat_records(seats)
    if len(specs) != game.players:
        raise ValueError(f"{len(specs)} seats given for a game of {game.players}")
    start = as_utc(started_at)
    end = as_utc(ended_at if ended_at is not None else datetime.now(UTC))
    text = standalone_yaml(game.rules)
    actions = tuple(a.to_json() for a in game.history)
    return Taken(record_uid(text, specs, game.seed, actions, start), specs, text, actions,
                 start, max(start, end))


@dataclass(frozen=True)
class GameRecord:
    """A finished game.  `id` is its number in the store (None until stored)."""

    uid: str
    ruleset_key: str
    ruleset_name: str
    ruleset_text: str
    seats: tuple[SeatRecord, ...]
    seed: int
    scores: tuple[tuple[int, ...], ...]  # points per round, per seat
    winners: tuple[int, ...]
    started_at: datetime
    finished_at: datetime
    actions: tuple[dict[str, Any], ...] = field(repr=False)
    fingerprint: str | None = None  # of the final state (None in records from before v2)
    id: int | None = None
    undos: int = 0  # moves the player took back (counted from records version 4 on)

    # ------------------------------------------------------------------ derived

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(points[s] for points in self.scores) for s in range(len(self.seats)))

    @property
    def rounds(self) -> int:
        return len(self.scores)

    @property
    def duration(self) -> float:
        """Seconds from the deal of the first round to the end of the game."""
        return max(0.0, (self.finished_at - self.started_at).total_seconds())

    # ------------------------------------------------------------------ building

    @classmethod
    def from_game(cls, game: Game, seats: Sequence[SeatLike | tuple[str, str | None]],
                  started_at: datetime | float | str,
                  finished_at: datetime | float | str | None = None) -> GameRecord:
        """The record of a game that has ended (`ValueError` for one still in play)."""
        if game.phase != "game_over":
            raise ValueError("only a finished game can be recorded")
        taken = take_game(game, seats, started_at, finished_at)
        return cls(
            uid=taken.uid,
            ruleset_key=game.rules.key,
            ruleset_name=game.rules.name,
            ruleset_text=taken.ruleset_text,
            seats=taken.seats,
            seed=game.seed,
            scores=tuple(tuple(points) for points in game.scores),
            winners=tuple(game.winners),
            started_at=taken.started_at,
            finished_at=taken.ended_at,
            actions=taken.actions,
            fingerprint=fingerprint(game),
        )

    # ------------------------------------------------------------------ the game inside

    def game_json(self) -> dict[str, Any]:
        """The game part in the saved-game format of `tui.engine.save` (a record kept
        before fingerprints were is replayed once to get its fingerprint)."""
        return {**self._game_part(),
                "fingerprint": self.fingerprint or fingerprint(self.rebuild())}

    def _game_part(self) -> dict[str, Any]:
        return {
            "format": GAME_FORMAT,
            "version": GAME_VERSION,
            "rules": {"key": self.ruleset_key, "source": self.ruleset_text},
            "names": self.names,
            "seed": self.seed,
            "round": self.rounds,
            "actions": list(self.actions),
        }

    def rebuild(self) -> Game:
        """Replay the whole game through the rules; `RecordError` if it does not end exactly
        as recorded (same final state, same scores in every round)."""
        try:
            # A record kept before fingerprints were is proved by its scores alone.
            game = (replay_moves(self._game_part()) if self.fingerprint is None
                    else game_from_json(self.game_json()))
        except SaveError as exc:
            raise RecordError(f"game #{self.id or '?'} does not replay: {exc}") from exc
        self.check_against(game)
        return game

    def check_against(self, game: Game) -> None:
        """`RecordError` unless `game` ended with exactly the recorded scores and winners."""
        if game.phase != "game_over":
            raise RecordError("the recorded moves do not finish the game")
        if tuple(tuple(p) for p in game.scores) != self.scores:
            raise RecordError("the recorded scores differ from the scores the moves replay to")
        if tuple(game.winners) != self.winners:
            raise RecordError("the recorded winners differ from the replayed game")

    # ------------------------------------------------------------------ export / import

    def to_json(self) -> dict[str, Any]:
        """A self-contained JSON document for sharing (`from_json` reads it back)."""
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "uid": self.uid,
            "ruleset": {"key": self.ruleset_key, "name": self.ruleset_name},
            "seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat(),
            "scores": [list(points) for points in self.scores],
            "winners": list(self.winners),
            "game": self.game_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read an exported record and prove it by replaying it; `RecordError` if the file is
        not a record, is damaged, or its moves do not lead to its scores."""
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise RecordError("this is not a rummy-tui game record")
        if data.get("version") != EXPORT_VERSION:
            raise RecordError(f"this record was made by an unknown version "
                              f"({data.get('version')!r})")
        try:
            game_data = data["game"]
            seats = tuple(SeatRecord(str(s["name"]), str(s["bot"]) if s.get("bot") else None)
                          for s in data["seats"])
            start = as_utc(str(data["started_at"]))
            end = as_utc(str(data["finished_at"]))
            scores = tuple(tuple(int(p) for p in points) for points in data["scores"])
            winners = tuple(int(s) for s in data["winners"])
            text = str(game_data["rules"]["source"])
            key = str(game_data["rules"]["key"])
            name = printable(str(data.get("ruleset", {}).get("name") or key))
            actions = tuple(dict(a) for a in game_data["actions"])
            seed = int(game_data["seed"])
            names = [str(n) for n in game_data["names"]]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"the record is damaged ({exc})") from exc
        if names != [s.name for s in seats]:
            raise RecordError("the record is damaged (its seats do not match its game)")
        # Names are shown on terminals: an escape sequence in the file stays visible text.
        seats = tuple(SeatRecord(printable(s.name), None if s.bot is None else printable(s.bot))
                      for s in seats)
        try:
            game = game_from_json(game_data)
        except SaveError as exc:
            raise RecordError(f"the record does not replay: {exc}") from exc
        record = cls(
            uid=record_uid(text, seats, seed, actions, start),
            ruleset_key=key,
            ruleset_name=name,
            ruleset_text=text,
            seats=seats,
            seed=seed,
            scores=scores,
            winners=winners,
            started_at=start,
            finished_at=max(start, end),
            actions=actions,
            fingerprint=fingerprint(game),
        )
        record.check_against(game)
        return record


def _replace(record: GameRecord, **changes: Any) -> GameRecord:
    from dataclasses import replace

    return replace(record, **changes)
