"""`easy`: a sensible but loose player, the kind a beginner enjoys beating.

It never looks deeper than pairs and neighbours: a card is *connected* when the hand holds
another of its rank or of its suit within two ranks (wilds connect with anything).  It keeps
connected cards and throws away the highest unconnected one, takes the discard when it
connects with something in hand, and sometimes (one time in four) draws blind anyway.  The
plays that cannot cost anything - going out, laying down a contract, laying off - it makes
like everyone else.  It buys a passed-over discard only when it makes a pair or better and
its contract is not yet down.
"""

from __future__ import annotations

from tui.engine.view import SeatView

from .evaluate import Evaluator
from .medium import connections, discard_action
from .tactics import Decision, TacticalBot, options, stock_or_first, top_take

CARELESS = 0.25  # how often it draws from the stock without looking at the discard


class EasyBot(TacticalBot):
    level = "easy"

    def draw(self, view: SeatView, ev: Evaluator) -> Decision:
        stock = stock_or_first(view)
        top = top_take(view)
        card = view.top_discard
        if top is None or card is None:
            return Decision(stock, "nothing to take")
        if stock.kind != "draw_stock":
            return Decision(top, "the stock is empty")
        if self.rng.random() < CARELESS:
            return Decision(stock, "a fresh card")
        hand = list(view.hand)
        if connections(card, hand, ev) > 0:
            return Decision(top, f"{card} goes with cards in hand")
        return Decision(stock, f"{card} goes with nothing")

    def buy(self, view: SeatView, ev: Evaluator) -> Decision:
        buy = options(view, "buy")
        passing = options(view, "pass_buy")
        card = view.buy_offer
        me = view.me
        if buy and card is not None and me is not None and not me.contract_down:
            same_rank = sum(1 for c in view.hand if c.rank == card.rank)
            if same_rank >= 1:
                return Decision(buy[0], f"{card} makes a pair or better")
        return Decision(passing[0] if passing else view.legal[0], "not needed")

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        allowed = list(view.discardable)
        if not allowed:
            return Decision(view.legal[0], "the only kind of move left")
        hand = list(view.hand)
        loose = [c for c in allowed if connections(c, hand, ev) == 0 and not ev.is_wild(c)]
        pool = loose or [c for c in allowed if not ev.is_wild(c)] or allowed
        top = max(ev.value(c) for c in pool)
        heaviest = [c for c in pool if ev.value(c) == top]
        card = self.rng.choice(sorted(heaviest, key=lambda c: c.sort_key()))
        why = "the highest card that goes with nothing" if loose else "the highest card"
        return Decision(discard_action(view, card), why)
