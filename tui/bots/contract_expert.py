"""How `expert` plays contract games: `hard`'s contract play, except where the deal will
end on the stock rather than by someone going out, which it plays as a race for points.

Measured in 4-player Contract Rummy between `hard` players: the deal that must be gone out
all at once (three runs, the whole hand, no discard) never ended with anyone out, and every
seat scored its whole twelve-card hand, 68 points on average, four tenths of a game's
points.  Where nobody is going to go out, the contract is worth nothing and the hand's
points are everything, so `expert` collects low cards there: it takes the top discard
when keeping it in place of the highest card in hand saves more than a stock card is
expected to (over the unseen cards), and throws the highest card it holds.  Going out and
laying down are still made the moment the engine offers them (`tactics.sure_play`).

The decision is cheap (a count over the unseen cards), so a contract game costs `expert`
about what it costs `hard`: there is no search here, the measured gain comes from judging
what the deal is about.
"""

from __future__ import annotations

from tui.engine.actions import TakeDiscard
from tui.engine.cards import Card
from tui.engine.view import SeatView

from .evaluate import Evaluator
from .hard import HardBot
from .medium import discard_action
from .memory import read_knowledge
from .tactics import Decision, discards_after_taking, options, play_mode, stock_or_first


def points_race(view: SeatView) -> bool:
    """Whether the deal is played for the points left in hand rather than for going out:
    a contract round that must be gone out all at once."""
    return play_mode(view) == "contract" and view.round.all_at_once


def stock_saving(view: SeatView, ev: Evaluator, worst: int) -> float:
    """What a stock card is expected to save against throwing a `worst`-point card: over
    the unseen cards, the points it scores less than that card (nothing if it scores
    more, since it is then the one thrown)."""
    know = read_knowledge(view)
    total = know.unseen_total
    if not total:
        return 0.0
    saved = 0
    for (rank, suit), n in know.unseen.items():
        saved += n * max(0, worst - ev.value(Card(rank, suit)))
    return saved / total


def race_draw(view: SeatView, ev: Evaluator) -> Decision:
    """Take the top discard when it saves more than a stock card would, on average."""
    stock = stock_or_first(view)
    top = next((a for a in options(view, "take_discard")
                if isinstance(a, TakeDiscard) and a.depth == 0), None)
    card = view.top_discard
    if top is None or card is None:
        return Decision(stock, "nothing to take")
    if stock.kind != "draw_stock":
        return Decision(top, "the stock is empty")
    hand = list(view.hand)
    with_card = hand + [card]
    throwable = discards_after_taking(view, with_card, card)
    worst = max(ev.value(c) for c in throwable)
    take_gain = worst - ev.value(card)
    stock_gain = stock_saving(view, ev, max(ev.value(c) for c in hand))
    if take_gain > stock_gain:
        return Decision(top, f"{card} in place of a {worst}-point card saves {take_gain}, "
                        f"a stock card {stock_gain:.1f} on average; no one will go out")
    return Decision(stock, f"a stock card saves {stock_gain:.1f} on average, {card} "
                    f"{max(take_gain, 0)}; no one will go out")


def race_discard(view: SeatView, ev: Evaluator, allowed: list[Card]) -> Decision:
    """Throw the card that scores most."""
    card = max(allowed, key=lambda c: (ev.value(c), c.sort_key()))
    return Decision(discard_action(view, card),
                    f"{card} scores {ev.value(card)}; no one will go out, so points count")


class ContractExpert(HardBot):
    """`hard`, with the contract-game judgement above; `expert` inherits from it (a base to
    put first among `expert`'s bases: every other game is left to the next class)."""

    def draw(self, view: SeatView, ev: Evaluator) -> Decision:
        if points_race(view):
            return race_draw(view, ev)
        return super().draw(view, ev)

    def buy(self, view: SeatView, ev: Evaluator) -> Decision:
        if points_race(view):
            passing = options(view, "pass_buy")
            if passing:
                return Decision(passing[0], "a bought card and its penalty card would only "
                                "add points to a hand that cannot shrink")
        return super().buy(view, ev)

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        allowed = list(view.discardable)
        if allowed and points_race(view):
            return race_discard(view, ev, allowed)
        return super().discard(view, ev)
