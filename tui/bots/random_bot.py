"""The weakest player: any legal action, uniformly at random, except that it goes out
whenever it can.

It exists to exercise the engine (every rule, every odd corner) and as a floor to measure
real bots against.  Going out when possible keeps its games finite in practice as well as
in principle (rounds also end when the stock can no longer be rebuilt).
"""

from __future__ import annotations

from tui.engine.actions import Action, GoOut
from tui.engine.view import SeatView

from .base import Bot


class RandomBot(Bot):
    level = "random"

    def choose(self, view: SeatView) -> Action:
        for action in view.legal:
            if isinstance(action, GoOut):
                return action
        return self.rng.choice(view.legal)
