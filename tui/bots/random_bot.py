"""The weakest player: any legal action, uniformly at random, except that it goes out or
lays its contract down whenever it can.

It exists to exercise the engine (every rule, every odd corner) and as a floor to measure
real bots against.  Taking the moves that finish a round keeps its games short in practice
as well as finite in principle (rounds also end when the stock can no longer be rebuilt).
"""

from __future__ import annotations

from tui.engine.actions import Action, GoOut, LayDown
from tui.engine.view import SeatView

from .base import Bot


class RandomBot(Bot):
    level = "random"

    def choose(self, view: SeatView) -> Action:
        for action in view.legal:
            if isinstance(action, (GoOut, LayDown)):
                return action
        return self.rng.choice(view.legal)
