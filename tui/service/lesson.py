"""A guided first game: a table that plays a lesson's script on a prepared deal.

A lesson is data (`Lesson`): a prepared deal, and steps, each with what the coach says,
the move the player must make to go on, what to say to any other move, and the other
seats' moves that follow.  `LessonTable` is a table service like any other, so the table
screen plays it as it plays a game: the player's moves pass only when they are the step's
(any other is refused with the step's nudge, changing nothing), and the other seats'
moves are stepped by the screen's bot timer as a computer player's would be.  A lesson is
never saved and never recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tui.engine.actions import (
    ACTION_TYPES,
    Action,
    Discard,
    IllegalAction,
    LayDown,
    LayOff,
    MeldSpec,
    SwapJoker,
)
from tui.engine.cards import Card, parse_card
from tui.engine.game import Game
from tui.engine.prepared import PreparedDeal, deal_prepared
from tui.engine.rules import Ruleset
from tui.engine.view import SeatView

from .interface import SeatSpec, no_subscription
from .table import Table

PLAYER = 0  # the learner sits in seat 0


@dataclass(frozen=True)
class Expect:
    """The move that finishes a step: its `kind` (as `Action.kind`: "draw_stock",
    "take_discard", "discard", "lay_down", "lay_off", "swap_joker", "go_out", "buy",
    "pass_buy"), made with one of `cards` (codes) when any are given."""

    kind: str
    cards: tuple[str, ...] = ()

    def met_by(self, action: Action) -> bool:
        if action.kind != self.kind:
            return False
        if not self.cards:
            return True
        wanted = {parse_card(code).face for code in self.cards}
        return any(card.face in wanted for card in _cards_of(action))


def _cards_of(action: Action) -> tuple[Card, ...]:
    if isinstance(action, Discard | SwapJoker):
        return (action.card,) if action.card is not None else ()
    if isinstance(action, LayOff):
        return action.cards
    return ()


@dataclass(frozen=True)
class Step:
    """One thing to learn: `say` is shown while the step waits for `expect`; `nudge`
    answers any other move; `others` are the other seats' moves that follow it, each
    written "SEAT KIND [CARDS]" (see `scripted_move`)."""

    title: str
    say: str
    expect: Expect
    nudge: str
    others: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lesson:
    """A guided deal of the ruleset `rules` (a key), for the seats `names` (the learner
    first, named when the lesson is played)."""

    rules: str
    title: str
    names: tuple[str, ...]
    deal: PreparedDeal
    steps: tuple[Step, ...]
    done: str  # what the coach says once the deal is over


def scripted_move(game: Game, text: str) -> Action:
    """The move "SEAT KIND [CARDS]" names, for the deal in progress.

    `discard` with no card throws the seat's highest card; `lay_down` takes melds of card
    codes separated by `|`, a wild written `JK=10H` standing for the card after `=`."""
    seat_text, kind, *rest = text.split(maxsplit=2)
    seat = int(seat_text)
    hand = list(game.round.hands[seat])
    spec = rest[0] if rest else ""

    def take(code: str) -> Card:
        face = parse_card(code).face
        for index, card in enumerate(hand):
            if card.face == face:
                return hand.pop(index)
        raise ValueError(f"lesson script: seat {seat} holds no {code}")

    if kind in ("draw_stock", "take_discard", "buy", "pass_buy"):
        return ACTION_TYPES[kind](seat)
    if kind == "discard":
        card = take(spec) if spec else max(hand, key=lambda c: (game.rules.value(c.rank),
                                                                c.rank))
        return Discard(seat, card)
    if kind == "lay_down":
        melds = []
        for group in spec.split("|"):
            cards, declare = [], []
            for code in group.split():
                wild, _, stands_for = code.partition("=")
                card = take(wild)
                cards.append(card)
                if stands_for:
                    declare.append((card.uid, parse_card(stands_for).face))
            melds.append(MeldSpec(tuple(cards), tuple(declare)))
        return LayDown(seat, tuple(melds))
    raise ValueError(f"lesson script: no move {kind!r}")


class LessonTable:
    """A `TableService` playing `lesson` for the learner called `name`."""

    def __init__(self, lesson: Lesson, rules: Ruleset, name: str = "You") -> None:
        self.lesson = lesson
        names = (name, *lesson.names[1:])
        self._table = Table(rules, [SeatSpec(n) for n in names], seed=1, record=False)
        deal_prepared(self._table.game, lesson.deal)
        self.step = 0  # the index of the step waiting for the player
        self._pending: list[str] = []  # the other seats' moves still to come

    # ------------------------------------------------------------------ the lesson
    @property
    def current(self) -> Step | None:
        """The step waiting for the player (None once every step is done)."""
        return self.lesson.steps[self.step] if self.step < len(self.lesson.steps) else None

    @property
    def finished(self) -> bool:
        """Every step done and the others' moves after it made (a lesson may end before
        its deal does: nothing more is played then)."""
        return self.current is None and not self._pending

    # ------------------------------------------------------------------ TableService
    @property
    def rules(self) -> Ruleset:
        return self._table.rules

    @property
    def seats(self) -> Sequence[SeatSpec]:
        return [SeatSpec(spec.name, None if seat == PLAYER else "lesson")
                for seat, spec in enumerate(self._table.seats)]

    @property
    def record_outcome(self) -> None:
        return None  # a lesson is never recorded

    def view(self, seat: int) -> SeatView:
        return self._table.view(seat)

    def act(self, seat: int, action: Action) -> None:
        if seat != PLAYER:
            self._act_for_other(seat, action)
            return
        step = self.current
        if step is None:
            raise IllegalAction("This lesson is over: press q to leave it.")
        if self._pending:
            raise IllegalAction("Wait a moment: the others are playing.")
        if not step.expect.met_by(action):
            raise IllegalAction(step.nudge)
        # The step moves on before the table tells its listeners; back if the engine
        # refuses the move after all (nothing changed then).
        self.step += 1
        self._pending = list(step.others)
        try:
            self._table.act(seat, action)
        except BaseException:
            self.step -= 1
            self._pending = []
            raise

    def _act_for_other(self, seat: int, action: Action) -> None:
        choice = self.bot_choice()
        if choice is None or choice != (seat, action):
            raise IllegalAction("only the lesson's own moves are played for the others")
        self._pending.pop(0)
        self._table.act(seat, action)

    def humans(self) -> list[int]:
        return [PLAYER]

    def is_bot(self, seat: int) -> bool:
        return seat != PLAYER

    def bot_to_move(self) -> int | None:
        choice = self.bot_choice()
        return None if choice is None else choice[0]

    def bot_choice(self) -> tuple[int, Action] | None:
        if not self._pending:
            return None
        action = scripted_move(self._table.game, self._pending[0])
        return action.seat, action

    def step_bot(self) -> Action | None:
        choice = self.bot_choice()
        if choice is None:
            return None
        self.act(*choice)
        return choice[1]

    def next_round(self) -> None:
        """A lesson is one deal: there is no next one."""

    def hint(self, seat: int) -> str:
        """What to do now, in one line (the coach says why)."""
        step = self.current
        return step.nudge if step is not None else "The lesson is over: q leaves it."

    def can_undo(self, seat: int) -> bool:
        return False

    def undo(self, seat: int) -> None:
        raise IllegalAction("A lesson goes forward only: q leaves it, and it can be "
                            "started again from the menu.")

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._table.subscribe(callback)

    def refusals(self, callback: Callable[[IllegalAction], None]) -> Callable[[], None]:
        return no_subscription

    def save(self, path: Path) -> None:
        """A lesson is never saved (the player's saved game stays as it was)."""

    def save_text(self) -> str | None:
        return None
