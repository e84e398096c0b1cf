"""What every computer player is: something that looks at a seat's view and picks an action.

A bot sees exactly what its seat may see (a `SeatView`), never the game itself, so it cannot
cheat; `view.legal` lists what it may do.  Bots keep their own memory between calls where
they need it (what has been discarded, who took what), built from the public log.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar, Protocol

from tui.engine.actions import Action
from tui.engine.view import SeatView


class Player(Protocol):
    """What a table needs of whoever plays a seat it runs: a move for the seat's view, and a
    sentence on it for the hint key.  Every `Bot` is one; so may be anything else that
    only looks at a `SeatView` (a scripted player in a test, a remote engine)."""

    def choose(self, view: SeatView) -> Action:
        """The action to take now; `view.legal` is never empty when this is called."""
        ...

    def explain(self, view: SeatView) -> str:
        """One line saying what would be done now and why."""
        ...


class Bot(ABC):
    """The shared base of the built-in levels: a seeded random source and a default
    explanation."""

    level: ClassVar[str] = ""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView) -> Action:
        """The action to take now; `view.legal` is never empty when this is called."""

    def explain(self, view: SeatView) -> str:
        """One line saying what this bot would do now and why (for the hint key)."""
        return f"{describe_action(self.choose(view))}."


def describe_action(action: Action) -> str:
    """An action in a few words, for hints and logs."""
    from tui.engine.cards import format_cards

    kind = action.kind
    if kind == "draw_stock":
        return "draw from the stock"
    if kind == "take_discard":
        depth = getattr(action, "depth", 0)
        return "take the top discard" if depth == 0 else f"take {depth + 1} cards from the pile"
    if kind == "discard":
        return f"discard {getattr(action, 'card', '')}"
    if kind == "lay_down":
        melds = getattr(action, "melds", ())
        return "lay down " + "; ".join(format_cards(m.cards) for m in melds)
    if kind == "lay_off":
        return f"lay off {format_cards(getattr(action, 'cards', ()))}"
    if kind == "swap_joker":
        return f"swap {getattr(action, 'card', '')} for the joker"
    if kind == "go_out":
        return f"go out, discarding {getattr(action, 'discard', None) or 'nothing'}"
    if kind == "buy":
        return "buy the discard"
    if kind == "pass_buy":
        return "let the discard go"
    return kind
