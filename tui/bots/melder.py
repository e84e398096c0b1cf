"""Drawing in games that meld freely from the first turn (no contract): basic rummy, and
above all melder scoring (`scoring.melded: plus`, Rummy 500), where a card is worth taking
for the points it can be melded for, not only for the points it saves in hand.

A hand's worth here is what it would score if laid down now: the points of its best melds
plus, the cards left over minus.  The draw that raises it most is taken: the top discard,
or a card deeper in the pile with every card above it (the cards above come too, and
count minus unless they meld), else the stock.  Where only the hand scores (basic rummy,
won by going out first) a cheap top discard that goes with a card in hand is taken too:
a start on the next meld (measured: it turned a loss to `easy` at four players into a
win; under melder scoring it lost points).  Laying down at once is the shared
`TacticalBot.sure_play`: under melder scoring a meld kept in hand is points at risk.
"""

from __future__ import annotations

from collections.abc import Sequence

from tui.engine.actions import TakeDiscard
from tui.engine.cards import Card
from tui.engine.view import SeatView

from .evaluate import Evaluator
from .tactics import Decision, connections, options, play_mode, stock_or_first

CHEAP = 5  # the dearest top discard taken only for going with a card in hand


def melds_score(view: SeatView) -> bool:
    """Whether melds go down freely during this deal (no contract to make first)."""
    return play_mode(view) == "free"


def hand_worth(ev: Evaluator, cards: Sequence[Card]) -> int:
    """The points of the hand's best melds less the points of the cards left over."""
    left = ev.penalty(cards)
    return sum(ev.value(c) for c in cards) - 2 * left


def melder_draw(view: SeatView, ev: Evaluator) -> Decision:
    """The draw that raises the hand's worth most; the stock if none does."""
    stock = stock_or_first(view)
    takes = [a for a in options(view, "take_discard") if isinstance(a, TakeDiscard)]
    hand = list(view.hand)
    pile = list(view.discard)
    now = hand_worth(ev, hand)
    best: tuple[int, TakeDiscard] | None = None
    for take in takes:
        if take.depth >= len(pile):
            continue
        taken = pile[len(pile) - 1 - take.depth:]
        gain = hand_worth(ev, hand + taken) - now
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, take)
    if best is not None:
        gain, take = best
        what = "the top discard" if take.depth == 0 else f"{take.depth + 1} cards"
        return Decision(take, f"{what} add {gain} points to what my melds would score")
    card = view.top_discard
    top = next((a for a in takes if a.depth == 0), None)
    if (top is not None and card is not None and view.rules.scoring.melded != "plus"
            and ev.value(card) <= CHEAP and connections(card, hand, ev) > 0):
        return Decision(top, f"{card} is cheap and goes with cards in hand")
    if stock.kind != "draw_stock" and takes:
        return Decision(takes[0], "the stock is empty")
    return Decision(stock, "no card in the pile adds to what my melds would score")
