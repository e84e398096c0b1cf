"""What one seat may see.

Bots and front ends get a `SeatView`, never the game itself: their own hand, how many cards
the others hold, the table, the visible discard pile, the scores and the public log.  A
spectator's view (seat -1) has no hand at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .actions import Action
from .cards import Card
from .meld import Meld
from .rules import Round, Ruleset

Phase = Literal["draw", "buy", "play", "round_over", "game_over"]


@dataclass(frozen=True)
class PlayerInfo:
    seat: int
    name: str
    hand_count: int
    total: int  # running score
    contract_down: bool
    went_out: bool
    buys_used: int
    is_dealer: bool


@dataclass(frozen=True)
class Event:
    """One line of the log of play, in words, with who did it.  `cards` lists the public
    cards the event moved (the card turned up, taken, bought, discarded, melded or laid off;
    for a joker swap the natural card put in, then the joker taken), so bots can track what
    has been seen without reading the words."""

    seat: int
    text: str
    kind: str = ""
    round: int = 0
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class RoundResult:
    """A finished round: every hand as scored (arranged where the ruleset arranges hands)."""

    round: int
    points: tuple[int, ...]
    went_out: int  # seat, or -1 when the round ended without anyone going out
    melds: tuple[tuple[tuple[Card, ...], ...], ...]  # per seat: the melds of its final hand
    deadwood: tuple[tuple[Card, ...], ...]  # per seat: cards that scored


@dataclass(frozen=True)
class SeatView:
    seat: int  # -1 for a spectator
    rules: Ruleset
    round_number: int
    round: Round
    phase: Phase
    turn: int  # seat whose turn it is (in a buy phase: the seat being asked)
    dealer: int
    players: tuple[PlayerInfo, ...]
    hand: tuple[Card, ...]
    stock_count: int
    discard: tuple[Card, ...]  # the visible discard pile, top card last
    discard_count: int
    table: tuple[Meld, ...]
    scores: tuple[tuple[int, ...], ...]  # per finished round, per seat
    results: tuple[RoundResult, ...]
    log: tuple[Event, ...]
    legal: tuple[Action, ...] = ()  # this seat's legal actions now (empty if not its move)
    final_turns: bool = False  # someone went out; the others are taking their last turns
    taken_from_discard: tuple[Card, ...] = ()  # taken this turn by this seat
    buy_offer: Card | None = None  # the card being offered in a buy phase
    winners: tuple[int, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.seat == self.turn and self.phase in ("draw", "play", "buy")

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    @property
    def me(self) -> PlayerInfo | None:
        return self.players[self.seat] if 0 <= self.seat < len(self.players) else None
