"""Messages the table widgets send up to the table screen, as small dataclasses."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class CardClicked(Message):
    """A card of the player's hand was clicked (index in the shown order)."""

    index: int


@dataclass
class StockClicked(Message):
    """The stock was clicked: draw from it."""


@dataclass
class DiscardClicked(Message):
    """A card of the discard pile was clicked; depth 0 is the top card."""

    depth: int


@dataclass
class MeldClicked(Message):
    """A meld on the table was clicked (lay off onto it / swap a joker in it)."""

    meld_id: int


@dataclass
class KeyHintClicked(Message):
    """A key in the key bar was clicked: run its action as if the key was pressed."""

    action: str


@dataclass
class TableChanged(Message):
    """The table service changed (posted from its subscription, possibly another thread)."""


@dataclass
class ActionRefused(Message):
    """The table service refused an action after `act` returned (a service in another
    process decides later); `reason` and `rule` as an `IllegalAction` carries them."""

    reason: str
    rule: str = ""


@dataclass
class PlayerDid(Message):
    """The table's player did something: `what` names it (a key's action, such as
    "select" or "arrange", or a move made: "draw_stock", "discard", ...), `action` is the
    move sent to the table, if it was one.  A guided game listens to follow the player."""

    what: str
    action: object = None
