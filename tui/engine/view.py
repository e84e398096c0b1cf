"""What one seat may see, and the one place that answers the rule questions about it.

Bots and front ends get a `SeatView`, never the game itself: their own hand, how many cards
the others hold, the table, the visible discard pile, the scores and the public log.  A
spectator's view (seat -1) has no hand at all.

Words: a *deal* is what is being played now (deal 1, 2, 3, … for as long as the game
lasts); a *round* is a row of the ruleset's schedule (`rules.rounds`), which a deal plays
by.  Under a point limit the schedule repeats, so deal 9 of a two-round schedule plays
round 1.  Which cards are wild, what a card scores, whether a discard is needed: the view
answers (`is_wild`, `card_points`, `discardable`, `going_out_discard`) so no front end or
bot works it out again from the deal number.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, Literal, NamedTuple, overload

from .actions import Action, Discard
from .cards import Card
from .meld import Meld
from .meld_rules import card_penalty
from .rules import DiscardRule, Round, Ruleset

Phase = Literal["draw", "buy", "play", "round_over", "game_over"]


class PlayerInfo(NamedTuple):
    """One seat as every other seat sees it (a named tuple: views are built every move)."""

    seat: int
    name: str
    hand_count: int
    total: int  # running score
    contract_down: bool
    went_out: bool
    buys_used: int
    is_dealer: bool
    phase: int = 0  # `progression: per_player`: the phase the seat is on (0: none)


class Event(NamedTuple):
    """One line of the log of play, in words, with who did it.  `cards` lists the public
    cards the event moved (the card turned up, taken, bought, discarded, melded or laid off;
    for a joker swap the natural card put in, then the joker taken), so bots can track what
    has been seen without reading the words.  (A named tuple: the game logs every move.)"""

    seat: int
    text: str
    kind: str = ""
    deal: int = 0  # the deal it happened in (0: before the first deal)
    cards: tuple[Card, ...] = ()


class LogSoFar(Sequence[Event]):
    """The log of play as it stood when a view was taken.

    The game's log only ever grows, so a view keeps the game's list and its length then
    instead of a copy: a view costs the same on the first move and the two-thousandth.
    Reads like a tuple of events (len, index, slice, iterate, compare)."""

    __slots__ = ("_events", "_length")

    def __init__(self, events: list[Event]) -> None:
        self._events = events
        self._length = len(events)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._events[i] for i in range(*index.indices(self._length)))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("log index out of range")
        return self._events[index]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._events, self._length)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(other) == self._length and all(
            a == b for a, b in zip(self, other, strict=False))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"LogSoFar({len(self)} events)"


@dataclass(frozen=True)
class RoundResult:
    """A finished deal: every hand as scored (arranged where the ruleset arranges hands)."""

    deal: int
    points: tuple[int, ...]
    went_out: int  # seat, or -1 when the round ended without anyone going out
    melds: tuple[tuple[tuple[Card, ...], ...], ...]  # per seat: the melds of its final hand
    deadwood: tuple[tuple[Card, ...], ...]  # per seat: cards that scored
    # `progression: per_player`: per seat, the phase it played this deal and whether it
    # made it (laid it down); empty for a game played by the schedule
    phases: tuple[int, ...] = ()
    made: tuple[bool, ...] = ()


@dataclass(frozen=True)
class SeatView:
    seat: int  # -1 for a spectator
    rules: Ruleset
    deal: int  # the deal being played, from 1 (past the schedule's end when it repeats)
    # the row of `rules.rounds` this deal plays by, from 1 (under `progression: per_player`
    # the phase this seat is on: its own contract and meld rules)
    schedule_round: int
    round: Round  # that row: cards dealt, wilds, contract
    phase: Phase
    turn: int  # seat whose turn it is (in a buy phase: the seat being asked)
    dealer: int
    players: tuple[PlayerInfo, ...]
    hand: tuple[Card, ...]
    stock_count: int
    discard: tuple[Card, ...]  # the visible discard pile, top card last
    discard_count: int
    table: tuple[Meld, ...]
    scores: tuple[tuple[int, ...], ...]  # per finished deal, per seat
    results: tuple[RoundResult, ...]
    log: Sequence[Event]  # a `LogSoFar`, or any sequence of events
    legal: tuple[Action, ...] = ()  # this seat's legal actions now (empty if not its move)
    final_turns: bool = False  # someone went out; the others are taking their last turns
    taken_from_discard: tuple[Card, ...] = ()  # taken this turn by this seat
    buy_offer: Card | None = None  # the card being offered in a buy phase
    winners: tuple[int, ...] = ()

    @classmethod
    def of(cls, **values: Any) -> SeatView:
        """A view from every one of its fields, without the frozen dataclass's checked
        `__init__` (one `object.__setattr__` a field): the engine makes a view every move,
        and that alone was a tenth of a headless game."""
        view = object.__new__(cls)
        view.__dict__.update(values)
        return view

    @property
    def my_turn(self) -> bool:
        return self.seat == self.turn and self.phase in ("draw", "play", "buy")

    @property
    def asked_to_buy(self) -> bool:
        """Whether this seat may answer the buy offer now: the seat being asked, or, with
        `buying.priority: first_to_ask`, any seat still being asked (all at once)."""
        return self.phase == "buy" and any(a.kind == "buy" for a in self.legal)

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    @property
    def me(self) -> PlayerInfo | None:
        return self.players[self.seat] if 0 <= self.seat < len(self.players) else None

    # ------------------------------------------------------------------ rule questions

    def is_wild(self, card: Card) -> bool:
        """Whether `card` is wild in this deal (jokers as `jokers_wild` says)."""
        return self.rules.is_wild(card.rank, self.schedule_round)

    def card_points(self, card: Card) -> int:
        """What `card` scores if it is still in hand, out of any meld, when the deal ends:
        its value, or the fixed wild value where `scoring.wild_unmelded: fixed`."""
        return card_penalty(card, self.rules, self.schedule_round)

    @property
    def discardable(self) -> tuple[Card, ...]:
        """The cards of the hand this seat may discard now (none when it may not discard)."""
        return tuple(a.card for a in self.legal if isinstance(a, Discard) and a.card is not None)

    @property
    def going_out_discard(self) -> DiscardRule:
        """Whether going out in this deal needs a final discard (required/optional/forbidden)."""
        return self.rules.going_out_discard(self.schedule_round)

    def deal_events(self) -> Sequence[Event]:
        """The log of this deal only (from its deal line on)."""
        log = self.log
        start = len(log)
        while start > 0 and log[start - 1].deal == self.deal:
            start -= 1
        return log[start:]
