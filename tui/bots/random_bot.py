"""The weakest player: any legal action, uniformly at random.

It exists to exercise the engine (every rule, every odd corner) and as a floor to measure
real bots against.  It always finishes a game because every round ends: by someone going
out, or when the stock can no longer be rebuilt.
"""

from __future__ import annotations

from tui.engine.actions import Action
from tui.engine.view import SeatView

from .base import Bot


class RandomBot(Bot):
    level = "random"

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)
