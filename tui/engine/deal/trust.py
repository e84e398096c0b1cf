"""An action as handed to the engine, made trustworthy before any rule looks at it.

Actions arrive from bots, front ends, saved games, records and (over SSH) other people's
processes.  Any of them may be malformed (a seat that is a float, a depth that is text) or
forged (a card whose uid is in the hand but whose face is another card's).  `trusted`
checks every field's type and looks every card up by uid in the player's own hand,
comparing the face it claims; it returns the same action holding the deal's own cards, or
raises `IllegalAction` before anything has changed.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ..actions import ACTION_TYPES, Action, IllegalAction, MeldSpec
from ..cards import Card
from ..meld import MELD_KINDS

if TYPE_CHECKING:
    from .turns import DealState

STAGED_KINDS = ("", *MELD_KINDS)  # "": staged by hand, the kind left to the engine
RUN_ENDS = ("", "low", "high")


def trusted(action: object, deal: DealState) -> Action:
    """`action` with every field checked and every card the deal's own (see the module)."""
    kind = getattr(action, "kind", None)
    if not isinstance(kind, str) or type(action) is not ACTION_TYPES.get(kind):
        raise _malformed("not an action")
    assert isinstance(action, Action)
    seat = action.seat
    if not _whole(seat) or not 0 <= seat < deal.players:
        raise _malformed("no such seat")
    hand = {card.uid: card for card in deal.hands[seat]}
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(action):
        name = field.name
        value = getattr(action, name)
        if name == "seat":
            continue
        if name == "depth":
            if not _whole(value) or value < 0:
                raise _malformed("the depth is not a whole number of cards")
        elif name == "meld_id":
            if not _whole(value):
                raise _malformed("the meld is not named by its number")
        elif name == "end":
            if value not in RUN_ENDS or not isinstance(value, str):
                raise _malformed("the end of a run is low, high or left out")
        elif name in ("card", "discard"):
            if value is None and name == "discard":
                continue
            changes[name] = _own(value, hand)
        elif name == "cards":
            changes[name] = _own_cards(value, hand)
        elif name == "melds":
            if not isinstance(value, tuple) or not all(isinstance(m, MeldSpec) for m in value):
                raise _malformed("the melds are not a list of melds")
            changes[name] = tuple(_own_spec(spec, hand) for spec in value)
        else:  # a field this module does not know: refuse rather than pass it on
            raise _malformed(f"unexpected field {name}")
    return dataclasses.replace(action, **changes) if changes else action


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _malformed(why: str) -> IllegalAction:
    return IllegalAction(f"malformed action: {why}", "actions")


def _own(card: object, hand: dict[int, Card]) -> Card:
    """The hand's card with `card`'s uid, if `card` claims that card's face."""
    if not isinstance(card, Card) or not _whole(card.uid):
        raise _malformed("a card is not a card")
    real = hand.get(card.uid)
    if real is None:
        raise IllegalAction("that card is not in your hand", "cards")
    if not (_whole(card.rank) and isinstance(card.suit, str)
            and (card.rank, card.suit) == (real.rank, real.suit)):
        raise IllegalAction(f"card #{card.uid} in your hand is the {real}, not what the "
                            "move says", "cards")
    return real


def _own_cards(cards: object, hand: dict[int, Card]) -> tuple[Card, ...]:
    if not isinstance(cards, tuple):
        raise _malformed("the cards are not a list of cards")
    return tuple(_own(card, hand) for card in cards)


def _own_spec(spec: MeldSpec, hand: dict[int, Card]) -> MeldSpec:
    cards = _own_cards(spec.cards, hand)
    if not isinstance(spec.kind, str) or spec.kind not in STAGED_KINDS:
        raise _malformed("a meld is a set or a run")
    if not isinstance(spec.declare, tuple):
        raise _malformed("what the wild cards stand for is not a list")
    uids = {card.uid for card in cards}
    for entry in spec.declare:
        if not (isinstance(entry, tuple) and len(entry) == 2 and _whole(entry[0])
                and entry[0] in uids and isinstance(entry[1], tuple) and len(entry[1]) == 2
                and _whole(entry[1][0]) and isinstance(entry[1][1], str)):
            raise _malformed("a wild card's stand-in is not a card of the meld and a face")
    return dataclasses.replace(spec, cards=cards)
