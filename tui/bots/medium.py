"""`medium`: plays the hand in front of it exactly, with no memory and no look-ahead.

It measures every choice with the engine's exact solver (see `evaluate`):

* it takes the discard only when that lowers its best penalty, brings its contract closer,
  or (with the contract down) is a card it can lay off; otherwise it draws from the stock;
* it discards the card that leaves the lowest penalty (or, before its contract is down, the
  card the contract needs least, heaviest first);
* it goes out, lays its contract down and lays off as soon as it can;
* it buys a passed-over discard only when the card brings its contract closer and the
  penalty card is a price worth paying (contract not yet down, buys left, no one near out).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tui.engine.actions import Action, GoOut, TakeDiscard
from tui.engine.cards import Card
from tui.engine.view import SeatView

from .evaluate import Evaluator, without_card
from .knock import wait_to_knock
from .melder import melder_draw, melds_score
from .tactics import (
    Decision,
    TacticalBot,
    connections,
    may_lay_off_now,
    meld_phrase,
    options,
    play_mode,
    seat_rounds,
    stock_or_first,
)


class MediumBot(TacticalBot):
    level = "medium"

    def sure_play(self, view: SeatView, ev: Evaluator) -> Decision | None:
        go = [a for a in view.legal if isinstance(a, GoOut)]
        if go and wait_to_knock(view, go[0], ev) is not None:
            return None  # keep playing for a lower count: the discard decides the turn
        return super().sure_play(view, ev)

    # ------------------------------------------------------------------ draw

    def draw(self, view: SeatView, ev: Evaluator) -> Decision:
        if melds_score(view):
            return melder_draw(view, ev)
        takes = [a for a in options(view, "take_discard") if isinstance(a, TakeDiscard)]
        stock = stock_or_first(view)
        if not takes:
            return Decision(stock, "nothing to take")
        hand = list(view.hand)
        mode = play_mode(view)
        deep = sorted((a for a in takes if a.depth > 0), key=lambda a: a.depth)
        top = next((a for a in takes if a.depth == 0), None)
        if mode == "declare":
            return self._draw_declare(view, ev, hand, top, stock)
        if may_lay_off_now(view):
            return self._draw_down(view, ev, hand, top, deep, stock)
        return self._draw_contract(view, ev, hand, top, deep, stock)

    def _draw_declare(self, view: SeatView, ev: Evaluator, hand: list[Card],
                      top: Action | None, stock: Action) -> Decision:
        card = view.top_discard
        now = ev.penalty(hand)
        if top is None or card is None:
            return Decision(stock, "nothing to take")
        after = ev.after_best_discard(hand + [card])
        if after < now or stock.kind != "draw_stock":
            return Decision(top, f"{card} lowers the penalty from {now} to {after}")
        return Decision(stock, f"{card} does not lower the penalty ({now})")

    def _draw_down(self, view: SeatView, ev: Evaluator, hand: list[Card], top: Action | None,
                   deep: Sequence[TakeDiscard], stock: Action) -> Decision:
        card = view.top_discard
        if top is not None and card is not None:
            if not ev.stuck([card], view.table, seat_rounds(view)):
                return Decision(top, f"{card} can be laid off")
            if play_mode(view) == "free":
                before = ev.penalty(hand)
                if ev.after_best_discard(hand + [card]) < before:
                    return Decision(top, f"{card} makes a meld")
        if stock.kind != "draw_stock" and top is not None:
            return Decision(top, "the stock is empty")
        return Decision(stock, "the discard does not fit anywhere")

    def _draw_contract(self, view: SeatView, ev: Evaluator, hand: list[Card],
                       top: Action | None, deep: Sequence[TakeDiscard], stock: Action
                       ) -> Decision:
        if deep:
            take = deep[0]
            return Decision(take, "the cards make the contract this turn")
        card = view.top_discard
        if top is None or card is None:
            return Decision(stock, "nothing to take")
        need = ev.contract_need(hand).missing
        with_card = ev.contract_need(hand + [card]).missing
        if with_card < need:
            return Decision(top, f"{card} brings the contract closer ({with_card} card"
                            f"{'s' if with_card != 1 else ''} to go)")
        if stock.kind != "draw_stock":
            return Decision(top, "the stock is empty")
        return Decision(stock, f"{card} does not help the contract")

    # ------------------------------------------------------------------ buy

    def buy(self, view: SeatView, ev: Evaluator) -> Decision:
        buy = options(view, "buy")
        passing = options(view, "pass_buy")
        card = view.buy_offer
        if not buy or card is None:
            return Decision(passing[0] if passing else view.legal[0], "no offer")
        if play_mode(view) == "contract" and not may_lay_off_now(view):
            hand = list(view.hand)
            before = ev.contract_need(hand).missing
            after = ev.contract_need(hand + [card]).missing
            if after < before and not _someone_near_out(view):
                return Decision(buy[0], f"{card} brings the contract closer "
                                f"({after} to go)")
        return Decision(passing[0], f"{card} is not worth a penalty card")

    # ------------------------------------------------------------------ discard

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        allowed = list(view.discardable)
        if not allowed:
            return Decision(view.legal[0], "the only kind of move left")
        hand = list(view.hand)
        mode = play_mode(view)
        if mode == "declare":
            return self._discard_declare(view, ev, hand, allowed)
        if may_lay_off_now(view):
            return self._discard_down(view, ev, hand, allowed)
        return self._discard_contract(view, ev, hand, allowed)

    def _discard_declare(self, view: SeatView, ev: Evaluator, hand: list[Card],
                         allowed: list[Card]) -> Decision:
        ranked = ev.discards(hand, allowed)
        best_pen = ranked[0][0]
        tied = [card for pen, card in ranked if pen == best_pen]
        card = min(tied, key=lambda c: (connections(c, hand, ev), -ev.value(c), c.sort_key()))
        return Decision(discard_action(view, card),
                        lambda: keeps_text(ev, without_card(hand, card), best_pen,
                                           "lowest penalty"))

    def _discard_down(self, view: SeatView, ev: Evaluator, hand: list[Card],
                      allowed: list[Card]) -> Decision:
        if play_mode(view) == "free":
            return self._discard_declare(view, ev, hand, allowed)
        stuck = ev.stuck(hand, view.table, seat_rounds(view))
        stuck_faces = {c.face for c in stuck}
        pool = [c for c in allowed if c.face in stuck_faces] or allowed
        card = max(pool, key=lambda c: (ev.value(c), -connections(c, hand, ev), c.sort_key()))
        return Decision(discard_action(view, card), f"{card} fits no meld on the table and "
                        f"scores {ev.value(card)}")

    def _discard_contract(self, view: SeatView, ev: Evaluator, hand: list[Card],
                          allowed: list[Card]) -> Decision:
        need = ev.contract_need(hand).missing
        idle = {c.uid for c in ev.useless(hand)}
        spare = [c for c in allowed if c.uid in idle]
        if spare:
            # without a card the best partial contract does not use, it lacks no more
            card = max(spare, key=lambda c: (ev.value(c), -connections(c, hand, ev),
                                             c.sort_key()))
            return Decision(discard_action(view, card),
                            f"the contract does not need it ({need} card"
                            f"{'s' if need != 1 else ''} to go)")
        best: tuple[Any, ...] | None = None
        choice = allowed[0]
        for card in allowed:
            rest = without_card(hand, card)
            need = ev.contract_need(rest).missing
            idle_points = sum(ev.value(c) for c in ev.useless(rest))
            key = (need, idle_points, connections(card, hand, ev), card.sort_key())
            if best is None or key < best:
                best, choice = key, card
        assert best is not None
        return Decision(discard_action(view, choice),
                        f"the contract needs it least ({best[0]} card"
                        f"{'s' if best[0] != 1 else ''} to go)")


def discard_action(view: SeatView, card: Card) -> Action:
    for action in view.legal:
        if action.kind == "discard" and getattr(action, "card", None) is card:
            return action
    for action in view.legal:
        if action.kind == "discard" and getattr(action, "card", None) == card:
            return action
    raise ValueError(f"{card} is not a legal discard")


def keeps_text(ev: Evaluator, rest: Sequence[Card], penalty: float, what: str) -> str:
    """"keeps 6S-7S-8S, lowest penalty 14" for a hint line."""
    pen, dead = ev.arrange(rest)
    melded = list(rest)
    for card in dead:
        melded.remove(card)
    shown = f"{penalty:.1f}" if isinstance(penalty, float) else str(penalty)
    if not melded:
        return f"{what} {shown}"
    from tui.engine.solver import best_arrangement

    best = best_arrangement(list(rest), ev.rules, ev.round_no)
    return f"keeps {meld_phrase(best.melds)}, {what} {shown}"


def _someone_near_out(view: SeatView) -> bool:
    return any(p.seat != view.seat and p.contract_down and p.hand_count <= 2
               for p in view.players)
