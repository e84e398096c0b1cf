"""When to knock (Gin): going out keeping a few points outside melds is offered from the
first turn the hand gets under `going_out.deadwood_limit`, but where the defender can
undercut (`scoring.undercut_bonus`) a knock is only as good as the hand it is measured
against.  Early in the deal the other hand is still full of loose cards and a knock with
the full allowance wins; every turn it improves, so the points a knock may keep shrink,
until late in the deal only a knock with next to nothing (or gin) is safe.

Measured in mirrored 2-player Gin deals (tests/bench/strength.py), this shrinking
allowance beat knocking at every chance by about 15 points a game.
"""

from __future__ import annotations

from tui.engine.actions import GoOut
from tui.engine.view import SeatView

from .evaluate import Evaluator

FREE_TURNS = 1  # turns in which any knock the rules allow is made
SHRINK = 5  # turns after those over which the allowance falls from the limit to 1


def kept_points(view: SeatView, out: GoOut, ev: Evaluator) -> int:
    """The points `out` would keep outside melds (0: gin)."""
    used = {c.uid for m in out.melds for c in m.cards}
    if out.discard is not None:
        used.add(out.discard.uid)
    return sum(ev.value(c) for c in view.hand if c.uid not in used)


def knock_allowance(view: SeatView) -> int:
    """The most points worth keeping in a knock this turn."""
    limit = view.rules.going_out.deadwood_limit
    if view.rules.scoring.undercut_bonus is None:
        return limit  # no undercut to fear: a knock always collects
    turns = sum(1 for e in view.deal_events() if e.seat == view.seat
                and e.kind in ("draw", "take"))
    late = max(0, turns - FREE_TURNS)
    return max(1, limit - (late * limit) // SHRINK)


def wait_to_knock(view: SeatView, out: GoOut, ev: Evaluator) -> str | None:
    """Why this knock should wait for a lower count, or None to knock now.  A gin, and
    the last chance before the stock runs out, never wait."""
    kept = kept_points(view, out, ev)
    if kept == 0 or view.stock_count <= len(view.players):
        return None
    allowance = knock_allowance(view)
    if kept <= allowance:
        return None
    return (f"keeping {kept} points is too many to knock with now (at most {allowance}: "
            "the other hand has had time to improve)")
