"""A table: one game, its seats (people or bots), and the people watching it.

This is the one door through which any front end plays.  A front end asks for the view of
its seat, sends actions for its seat, and subscribes to be told when anything changes; it
never holds or changes the game itself.  Bots sit at the table too, and the front end (or
the SSH lobby) decides the pace at which they move by calling `step_bot`.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tui.atomic import write_atomic
from tui.bots import LEVELS, Player, make_bot
from tui.engine.actions import Action, IllegalAction
from tui.engine.game import Game
from tui.engine.rules import Ruleset
from tui.engine.save import SaveError, game_from_json, game_to_json, read_save_json
from tui.engine.view import SeatView
from tui.listeners import Listeners
from tui.records import RecordOutcome, record_abandoned_game, record_finished_game
from tui.records.recorder import default_store
from tui.service.interface import SeatSpec, no_subscription

HINT_LEVEL = "expert"
# The hint's thought: a fixed number of playouts (the same hint for the same position),
# never more than a second of CPU.
HINT_STEPS = 60
HINT_SECONDS = 1.0
EARLIEST_START = 946_684_800.0  # 2000-01-01: no game was saved before that
CLOCK_SLACK = 86_400.0  # a clock a day fast still loads

# Finished games are written to the records here, one at a time, away from any event loop.
# Its thread is not a daemon: a write queued when the program ends is finished first.
_RECORD_WRITER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="records")


def write_record(write: Callable[[], RecordOutcome],
                 done: Callable[[RecordOutcome, bool], None]) -> Future[RecordOutcome]:
    """Run `write` (a records write, which waits on the disk) in the records thread and give
    its outcome to `done` on the event loop running now (`done(outcome, True)`); with no
    loop running, wait for it and call `done(outcome, False)` at once.  A write that raises
    becomes an outcome saying the game was not recorded: a game is never lost to its
    bookkeeping.  A write queued when the program ends is finished before it exits."""
    try:
        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    future = _RECORD_WRITER.submit(write)

    def outcome_of(finished: Future[RecordOutcome]) -> RecordOutcome:
        try:
            return finished.result()
        except Exception as exc:  # noqa: BLE001 - a game is never lost to its bookkeeping
            return RecordOutcome(None, f"This game was not recorded: {exc}")

    if loop is None:
        done(outcome_of(future), False)
        return future

    def hand_back(finished: Future[RecordOutcome]) -> None:
        try:
            loop.call_soon_threadsafe(lambda: done(outcome_of(finished), True))
        except RuntimeError:  # the loop has closed: nobody is left to tell
            done(outcome_of(finished), False)

    future.add_done_callback(hand_back)
    return future


class Table:
    def __init__(self, rules: Ruleset, seats: list[SeatSpec], seed: int | None = None,
                 game: Game | None = None, started_at: float | None = None,
                 record: bool = True) -> None:
        self.seats = list(seats)
        self.started_at = time.time() if started_at is None else started_at
        self.record = record  # keep finished games in the records database
        self.record_outcome: RecordOutcome | None = None
        self._recording: Future[RecordOutcome] | None = None
        self.seed = random.randrange(2**31) if seed is None else seed
        self.game = game or Game(rules, [s.name for s in seats], self.seed)
        self.seed = self.game.seed
        self._bots: dict[int, Player] = {}
        for seat, spec in enumerate(self.seats):
            if spec.bot:
                self._bots[seat] = make_bot(spec.bot, self.seed * 31 + seat)
        self._listeners: Listeners[[]] = Listeners("a table listener")
        # where in the history the deal being played began (undo never reaches before it)
        self._deal_of_start = 1 if not self.game.history else -1
        self._deal_start_at = 0
        self.undo_turns = False
        """A house setting for solo play: undo goes back a whole turn at a time, the bots'
        moves after it too (within the deal).  Off: only the player's own moves of the
        turn they are playing."""
        self.undos = 0  # moves taken back in this game (the record counts them)

    # ---------------------------------------------------------------- reading

    @property
    def rules(self) -> Ruleset:
        return self.game.rules

    def view(self, seat: int) -> SeatView:
        return self.game.view(seat)

    def is_bot(self, seat: int) -> bool:
        return seat in self._bots

    def humans(self) -> list[int]:
        return [s for s in range(len(self.seats)) if s not in self._bots]

    # ---------------------------------------------------------------- acting

    def act(self, seat: int, action: Action) -> None:
        """Play `action` for `seat`; raises `IllegalAction` (nothing changes) if not allowed."""
        if action.seat != seat:
            raise IllegalAction("you can only play for your own seat", "seats")
        self.game.apply(action)
        if self.game.phase == "game_over":
            self._record_finished()
        self._changed()

    def _record_finished(self) -> None:
        """Put the finished game in the records, once, however many front ends watch it.

        Written in the records thread (see `write_record`); its outcome comes back to the
        loop that played it, where `record_outcome` is set and the listeners are told.  A
        finished game never changes again (nothing can be played, and undo stops at the
        end), so the thread reads it safely."""
        if not self.record or self._recording is not None:
            return
        game, seats, store = self.game, list(self.seats), default_store()
        self._recording = write_record(
            lambda: record_finished_game(game, seats, self.started_at, store=store),
            self._recorded)

    def _recorded(self, outcome: RecordOutcome, on_loop: bool) -> None:
        self.record_outcome = outcome
        if on_loop:
            self._changed()

    def abandon(self, then: Callable[[RecordOutcome], None] | None = None
                ) -> Future[RecordOutcome] | None:
        """The player gives the game up unfinished: it goes into the records as abandoned,
        written in the records thread like a finished game; `then` is given the outcome on
        the caller's loop (at once with no loop running).  None when this table keeps no
        records or the game is already over.  The table is given up: it must not be played
        on while the record is written."""
        if not self.record or self.game.phase == "game_over":
            return None
        game, seats, store = self.game, list(self.seats), default_store()
        return write_record(
            lambda: record_abandoned_game(game, seats, self.started_at, store=store),
            lambda outcome, _on_loop: then(outcome) if then is not None else None)

    def bot_to_move(self) -> int | None:
        actor = self.game.actor
        return actor if actor in self._bots else None

    def bot_choice(self) -> tuple[int, Action] | None:
        """What the bot to move would play (reads only a view: safe to run in a worker)."""
        seat = self.bot_to_move()
        if seat is None:
            return None
        return seat, self._bots[seat].choose(self.game.view(seat))

    def step_bot(self) -> Action | None:
        """Let the bot to move make one action; None when no bot is to move."""
        choice = self.bot_choice()
        if choice is None:
            return None
        seat, action = choice
        self.act(seat, action)
        return action

    def set_bot(self, seat: int, level: str | None) -> None:
        """Hand a seat to a bot (a player left) or back to its person (`None`)."""
        if level is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = make_bot(level, self.seed * 31 + seat)
        self._changed()

    def next_round(self) -> None:
        self.game.next_round()
        self._deal_of_start = self.game.round.number
        self._deal_start_at = len(self.game.history)
        self._changed()

    def hint(self, seat: int) -> str:
        """What the strongest bot would do in `seat`'s place, and why, in one line."""
        view = self.game.view(seat)
        if not view.legal:
            return "Nothing to do: it is not your move."
        try:
            advisor = make_bot(HINT_LEVEL, self.seed)
        except ValueError:
            advisor = make_bot("random", self.seed)
        from tui.bots.expert import ExpertBot

        if isinstance(advisor, ExpertBot):  # a searching advisor: the hint's own budget
            advisor.steps, advisor.budget = HINT_STEPS, HINT_SECONDS
        return advisor.explain(view)

    # ---------------------------------------------------------------- undo

    def can_undo(self, seat: int) -> bool:
        """Only against bots alone, only while a deal is being played (a scored deal,
        whose hands everyone has seen, is never taken back), and only what `_undo_point`
        allows."""
        if self.game.phase in ("game_over", "round_over") \
                or any(s != seat for s in self.humans()):
            return False
        return self._undo_point(seat) is not None

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last move of its turn (with `undo_turns`: its last turn, and
        whatever the bots did after it)."""
        point = self._undo_point(seat) if self.can_undo(seat) else None
        if point is None:
            raise IllegalAction("there is nothing of yours to undo", "undo")
        self.game = _replay(self.game, point)
        self.undos += 1
        self._changed()

    def _undo_point(self, seat: int) -> int | None:
        """How much of the history undo keeps.  By default the player's own moves of the
        turn they are playing, one at a time, while nobody else has moved since it
        began; a draw from the stock stays (it showed a card nobody may see twice).  With
        `undo_turns`, back to the start of the seat's latest turn in this deal."""
        start = self._turn_start(seat)
        if start is None or self.undo_turns:
            return start
        history = self.game.history
        if any(action.seat != seat for action in history[start:]):
            return None  # the turn is over: someone else has moved
        last = len(history) - 1
        if last == start and history[start].kind == "draw_stock":
            return None
        return last

    def _turn_start(self, seat: int) -> int | None:
        """Index in the history of the draw that began `seat`'s latest turn in this deal."""
        history = self.game.history
        for i in range(len(history) - 1, self._deal_start() - 1, -1):
            action = history[i]
            if action.seat == seat and action.kind in ("draw_stock", "take_discard"):
                return i
        return None

    def _deal_start(self) -> int:
        """Index in the history of the first action of the deal being played (found by
        replaying once when the table was not there to see the deal begin, e.g. a loaded
        game)."""
        number = self.game.round.number
        if self._deal_of_start != number:
            self._deal_start_at = _deal_start_of(self.game)
            self._deal_of_start = number
        return self._deal_start_at

    # ---------------------------------------------------------------- watching

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._listeners.subscribe(callback)

    def refusals(self, callback: Callable[[IllegalAction], None]) -> Callable[[], None]:
        """Nothing to listen to: this table refuses at once, by raising from `act`."""
        return no_subscription

    def _changed(self) -> None:
        self._listeners.notify()

    # ---------------------------------------------------------------- saving

    def to_json(self) -> dict[Any, Any]:
        return {"seats": [asdict(s) for s in self.seats], "started_at": self.started_at,
                "game": game_to_json(self.game), "undos": self.undos}

    def save(self, path: Path) -> None:
        write_atomic(Path(path), self.save_text())

    def save_text(self) -> str:
        return json.dumps(self.to_json())

    @classmethod
    def load(cls, path: Path) -> Table:
        """Resume a saved table; `SaveError` in one line (and nothing loaded) if the file
        is bad: every value is checked before anything is built from it."""
        path = Path(path)
        data = read_save_json(path)
        if not isinstance(data, dict):
            raise SaveError(f"{path} is damaged (not a saved table)")
        seats = _saved_seats(path, data.get("seats"))
        started = _saved_start(path, data.get("started_at"))
        game = game_from_json(data.get("game"))
        if len(seats) != game.players:
            raise SaveError(f"{path} is damaged (seats do not match players)")
        undos = data.get("undos", 0)  # (absent from saves made before undo was counted)
        if isinstance(undos, bool) or not isinstance(undos, int) or undos < 0:
            raise SaveError(f"{path} is damaged (its count of undos is not a count)")
        table = cls(game.rules, seats, game.seed, game=game, started_at=started)
        table.undos = undos
        return table


def _saved_seats(path: Path, raw: object) -> list[SeatSpec]:
    if not isinstance(raw, list):
        raise SaveError(f"{path} is damaged (no seats)")
    seats = []
    for seat in raw:
        name = seat.get("name") if isinstance(seat, dict) else None
        bot = seat.get("bot") if isinstance(seat, dict) else None
        if not isinstance(name, str):
            raise SaveError(f"{path} is damaged (a seat has no name)")
        if bot is not None and (not isinstance(bot, str) or bot not in LEVELS):
            raise SaveError(f"{path} is damaged (unknown computer player level "
                            f"{str(bot)[:20]!r})")
        seats.append(SeatSpec(name, bot))
    return seats


def _saved_start(path: Path, raw: object) -> float | None:
    """When the saved game began (epoch seconds); absent is fine (the record says now)."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) \
            or not EARLIEST_START <= raw <= time.time() + CLOCK_SLACK:
        raise SaveError(f"{path} is damaged (its start time is not a time)")
    return float(raw)


def _replay(game: Game, upto: int) -> Game:
    """The same game with only its first `upto` actions played."""
    fresh = Game(game.rules, game.names, game.seed)
    for action in game.history[:upto]:
        if fresh.phase == "round_over":
            fresh.next_round()
        fresh.apply(action)
    return fresh


def _deal_start_of(game: Game) -> int:
    """Index in `game.history` of the first action of its current deal."""
    fresh = Game(game.rules, game.names, game.seed)
    start = 0
    for index, action in enumerate(game.history):
        if fresh.phase == "round_over":
            fresh.next_round()
            start = index
        fresh.apply(action)
    if fresh.phase == "round_over" and game.phase != "round_over":
        start = len(game.history)
    return start
