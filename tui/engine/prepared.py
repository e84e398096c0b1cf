"""Prepared deals: chosen cards in chosen places, named by their faces.

A lesson (and a test, or a puzzle) needs a deal that goes a known way: these hands, this
card on the discard pile, these next cards in the stock.  `deal_prepared` takes each card
named from the game's own shoe (so every physical card is still in exactly one place) and
re-deals the deal in progress with them through `Game.stack_deal`; the cards not named
form the rest of the stock, under the ones named to be drawn first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, parse_card
from .game import Game


@dataclass(frozen=True)
class PreparedDeal:
    """Where the named cards go.  `hands` has one string of card codes per seat
    (``"7H 7D 3S"``); `discard` is the pile bottom to top; `stock_top` the next cards to
    be drawn, first drawn first; `turn` the seat to play first (None: the dealer's left);
    `deal` the deal it is (None: the one in progress; a later one skips those between)."""

    hands: tuple[str, ...]
    discard: str = ""
    stock_top: str = ""
    turn: int | None = None
    deal: int | None = None


class PreparedDealError(ValueError):
    """A prepared deal that cannot be dealt from this shoe (a card it has not, too many
    copies of one, a hand for a seat that does not exist)."""


def deal_prepared(game: Game, prepared: PreparedDeal) -> None:
    """Re-deal the deal in progress as `prepared` says (`PreparedDealError` if it cannot:
    the game is then unchanged)."""
    if len(prepared.hands) != game.players:
        raise PreparedDealError(f"{len(prepared.hands)} hands for {game.players} players")
    pool = list(game.shoe)

    def take(code: str) -> Card:
        try:
            face = parse_card(code).face
        except ValueError as exc:
            raise PreparedDealError(f"{code!r} is not a card: {exc}") from exc
        for index, card in enumerate(pool):
            if card.face == face:
                return pool.pop(index)
        raise PreparedDealError(f"no {code} left in the shoe for this deal")

    def take_all(codes: str) -> list[Card]:
        return [take(code) for code in codes.split()]

    hands = [take_all(hand) for hand in prepared.hands]
    pile = take_all(prepared.discard)
    top = take_all(prepared.stock_top)
    stock: Sequence[Card] = pool + list(reversed(top))
    try:
        game.stack_deal(hands, stock, pile, prepared.turn, prepared.deal)
    except ValueError as exc:
        raise PreparedDealError(str(exc)) from exc
