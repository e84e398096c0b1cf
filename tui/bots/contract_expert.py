"""How `expert` plays contract games: `hard`'s contract play, with judgement where `hard`
loses most: deep draws, and the deal that must be gone out all at once.

Measured in 4-player Contract Rummy between `hard` players (single deals, mirrored):

* **Deep draws.**  `hard` takes a card from deep in the pile whenever it makes the
  contract, with every card above it.  Those cards stay in hand unless a meld on the
  table takes them, and in the deals of sets only no meld takes much (a set holds four):
  a third of the hands left at the end of deal 1 held eight cards or more.  `expert` takes
  the deep draw leaving fewest cards in hand once the contract is down (what the table
  takes laid off, one card thrown), and only if that is at most `DEEP_SLACK` cards more than
  laying the contract down from the hand it holds would leave, or if those cards score no
  more than waiting is expected to cost (the whole hand, should someone go out first: the
  further the contract, the likelier); else it draws as `hard` does from the top of the
  pile or the stock.  (Refusing on the count alone left it caught with its whole hand in
  a quarter of deal 6's hands, against `hard`'s one in twenty-five.)
* **The deal gone out all at once** (three runs, the whole hand, no discard) ended with
  someone out in about one deal of a hundred; otherwise every seat scored its whole
  twelve-card hand, 68 points on average, four tenths of a game's points.  `hard` plays it
  for the contract, which counts for nothing when nobody goes out.  `expert` **races for
  points** there: it takes the top discard when keeping it in place of the highest card in
  hand saves more than a stock card is expected to (over the unseen cards), throws the
  highest card it holds, and never buys (a bought card and its penalty card can never
  leave a hand that may only be laid down whole).  It **plays for the whole hand** only
  when the hand is about to go out (after this turn's discard the whole hand would make
  the contract): it throws a card that keeps it so, not, as `hard` would, the one the
  contract needs least (which may leave a card no run takes), and takes the top discard
  only if it completes the hand.  It lays the hand down the moment the engine offers it
  (`tactics.sure_play`), like every level.

* **A wild kept, contract down.**  `hard` takes a low discard "in place of" its highest
  card even when that is a wild it will keep; where wilds score most (deuces wild) seats
  then pass low cards round the pile for ever and the deal never ends.  `expert` draws
  from the stock when the discard scores no less than every natural card it could throw.

Everything else is `hard`'s contract play (`contract_play`).  Each decision is a count over
the unseen cards or a few solver calls, so a contract game costs `expert` about what it
costs `hard`: there is no search here (the search a turn a seat ahead it replaces was
level with `hard`, -2.1 ± 9.7 over 16 deals, at many times the cost).
"""

from __future__ import annotations

from typing import Literal

from tui.engine.actions import TakeDiscard
from tui.engine.cards import Card
from tui.engine.solver import find_contract
from tui.engine.view import SeatView

from .contract_play import draw_before_contract
from .evaluate import Evaluator, without_card
from .hard import HardBot
from .medium import discard_action
from .memory import read_knowledge
from .tactics import (
    Decision,
    discards_after_taking,
    may_lay_off_now,
    options,
    play_mode,
    seat_rounds,
    stock_or_first,
    top_take,
)

Plan = Literal["race", "whole hand"]
DEEP_SLACK = 1  # cards a deep draw may leave in hand beyond an ordinary lay-down
CAUGHT_PER_NEED = 0.1  # chance of being caught before laying down, a card lacked


def all_at_once_plan(view: SeatView, ev: Evaluator) -> Plan | None:
    """In a contract deal that must be gone out all at once: "whole hand" if this hand is
    about to do it (after this turn's discard, if it is to throw one, the whole hand could
    be laid down as the contract), else "race" (for the points left in hand).  None in
    other deals."""
    if play_mode(view) != "contract" or not view.round.all_at_once:
        return None
    hand = list(view.hand)
    throws = view.phase == "play"  # a card to throw this turn
    # quick bounds first (they can only be optimistic: melding every card but one leaves
    # at most that card's points), the solver for the last word
    if ev.contract_need(hand).missing or ev.penalty(hand) > (
            max(ev.value(c) for c in hand) if throws else 0):
        return "race"
    if throws:
        return "whole hand" if ready_throws(view, list(view.discardable)) else "race"
    return "whole hand" if whole_hand_ready(view, hand) else "race"


def whole_hand_ready(view: SeatView, cards: list[Card]) -> bool:
    """Whether these cards, every one of them, make the round's contract."""
    return find_contract(cards, view.rules, view.schedule_round, whole_hand=True,
                         first_found=True) is not None


def ready_throws(view: SeatView, allowed: list[Card]) -> list[Card]:
    """The discards after which the rest of the hand could be laid down whole."""
    hand = list(view.hand)
    seen: set[tuple[int, str]] = set()
    out = []
    for card in allowed:
        if card.face not in seen:
            seen.add(card.face)
            if whole_hand_ready(view, without_card(hand, card)):
                out.append(card)
    return out


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


def _draws(view: SeatView) -> tuple[Decision | None, TakeDiscard | None]:
    """The stock draw, and the top discard if it may be taken; a decision already if there
    is no choice to make."""
    stock = stock_or_first(view)
    top = top_take(view)
    if top is None or view.top_discard is None:
        return Decision(stock, "nothing to take"), None
    if stock.kind != "draw_stock":
        return Decision(top, "the stock is empty"), top
    return None, top


def race_draw(view: SeatView, ev: Evaluator) -> Decision:
    """Take the top discard when it saves more than a stock card would, on average."""
    made, top = _draws(view)
    if made is not None:
        return made
    assert top is not None and view.top_discard is not None
    card = view.top_discard
    hand = list(view.hand)
    with_card = hand + [card]
    worst = max(ev.value(c) for c in discards_after_taking(view, with_card, card))
    take_gain = worst - ev.value(card)
    stock_gain = stock_saving(view, ev, max(ev.value(c) for c in hand))
    if take_gain > stock_gain:
        return Decision(top, f"{card} in place of a {worst}-point card saves {take_gain}, "
                        f"a stock card {stock_gain:.1f} on average; no one will go out")
    return Decision(stock_or_first(view), f"a stock card saves {stock_gain:.1f} on average, "
                    f"{card} {max(take_gain, 0)}; no one will go out")


def race_discard(view: SeatView, ev: Evaluator, allowed: list[Card]) -> Decision:
    """Throw the card that scores most."""
    card = max(allowed, key=lambda c: (ev.value(c), c.sort_key()))
    return Decision(discard_action(view, card),
                    f"{card} scores {ev.value(card)}; no one will go out, so points count")


def whole_hand_draw(view: SeatView, ev: Evaluator) -> Decision:
    """Take the top discard only if the whole hand then makes the contract."""
    made, top = _draws(view)
    if made is not None:
        return made
    assert top is not None and view.top_discard is not None
    card = view.top_discard
    if whole_hand_ready(view, list(view.hand) + [card]):
        return Decision(top, f"{card} completes the hand, to lay it all down")
    return Decision(stock_or_first(view), f"{card} does not complete the hand")


def whole_hand_discard(view: SeatView, ev: Evaluator, allowed: list[Card]) -> Decision:
    """Throw a card after which the rest could be laid down whole (the highest of them)."""
    card = max(ready_throws(view, allowed) or allowed, key=lambda c: (ev.value(c),
                                                                     c.sort_key()))
    return Decision(discard_action(view, card),
                    "keeps a hand that any card extending a run lays down whole")


def deep_draw(view: SeatView, ev: Evaluator) -> Decision | None:
    """Before the contract is down, with deep draws on offer (each makes the contract this
    turn): the one leaving the fewest cards in hand once the contract is down (what the
    table takes laid off, one card thrown), if that is at most `DEEP_SLACK` cards more than
    laying the contract down from this hand would leave, or its points are no more than
    waiting is expected to cost; None to draw as usual.  Waiting costs the whole hand if
    someone goes out first (a chance of `CAUGHT_PER_NEED` for every card the contract
    lacks, and one more), else an ordinary lay-down's leftovers at the hand's mean value.
    In a deal gone out all at once a deep draw lays the whole hand down: always taken."""
    deep = [a for a in options(view, "take_discard")
            if isinstance(a, TakeDiscard) and a.depth > 0]
    if not deep:
        return None
    deep.sort(key=lambda a: a.depth)
    if view.round.all_at_once:
        return Decision(deep[0], "the cards lay the whole hand down")
    hand = list(view.hand)
    p = ev.contract_params
    usual = len(hand) - ev.contract.sets * p.set_min - ev.contract.runs * p.run_min \
        - ev.contract.colours * p.colour_min
    best: tuple[tuple[int, int], TakeDiscard] | None = None
    for take in deep:
        left = cards_left_after_laying_down(view, ev, take.depth)
        if left is not None and (best is None or left < best[0]):
            best = (left, take)
    if best is None:
        return None
    (count, points), take = best
    if count > usual + DEEP_SLACK:
        caught = min(1.0, CAUGHT_PER_NEED * (ev.contract_need(hand).missing + 1))
        now = sum(ev.value(c) for c in hand)
        waiting = caught * now + (1 - caught) * max(usual, 0) * now / max(len(hand), 1)
        if points > waiting:
            return None
    return Decision(take, f"the cards make the contract this turn, leaving {count} card"
                    f"{'s' if count != 1 else ''} ({points} points) in hand")


def cards_left_after_laying_down(view: SeatView, ev: Evaluator, depth: int
                                 ) -> tuple[int, int] | None:
    """Cards (and their points) left in hand after taking the pile down to `depth`, laying
    the contract down, laying off what the table then takes and throwing the highest of
    the rest; None if the contract cannot be made so."""
    pile = list(view.discard)
    taken = pile[len(pile) - 1 - depth:]
    cards = list(view.hand) + taken
    rn = view.schedule_round
    lay = find_contract(cards, view.rules, rn, must_include=taken[0]) or \
        find_contract(cards, view.rules, rn)
    if lay is None:
        return None
    stuck = sorted((ev.value(c) for c in ev.stuck(lay.deadwood, [*view.table, *lay.melds],
                                                   seat_rounds(view))), reverse=True)
    kept = stuck[1:]  # the highest is thrown
    return len(kept), sum(kept)


def wild_keeper_draw(view: SeatView, ev: Evaluator) -> Decision | None:
    """Contract down: the stock, when the top discard fits nowhere and scores no less than
    every card in hand but the wilds.  (`hard` weighs the discard against its highest
    card, a wild included, then keeps the wild and throws the card it took or its like:
    where a wild scores most, as deuces wild at 20, every seat can take and throw back
    low cards for ever, the stock never running out to end the deal.)"""
    card = view.top_discard
    stock = stock_or_first(view)
    if card is None or stock.kind != "draw_stock" or ev.is_wild(card) or \
            not ev.stuck([card], view.table, seat_rounds(view)):
        return None
    hand = list(view.hand)
    if not any(ev.is_wild(c) for c in hand):
        return None
    natural = [ev.value(c) for c in ev.stuck(hand, view.table, seat_rounds(view))
               if not ev.is_wild(c)]
    if natural and max(natural) > ev.value(card):
        return None
    return Decision(stock, f"{card} fits nowhere and scores as much as any card I would "
                    "throw for it (the wilds stay)")


class ContractExpert(HardBot):
    """`hard`, with the contract-game judgement above; `expert` inherits from it (a base to
    put first among `expert`'s bases: every other game is left to the next class)."""

    def draw(self, view: SeatView, ev: Evaluator) -> Decision:
        if play_mode(view) != "contract":
            return super().draw(view, ev)
        down = may_lay_off_now(view)
        if not down:
            deep = deep_draw(view, ev)
            if deep is not None:
                return deep
        plan = all_at_once_plan(view, ev)
        if plan == "race":
            return race_draw(view, ev)
        if plan == "whole hand":
            return whole_hand_draw(view, ev)
        if down:
            return wild_keeper_draw(view, ev) or super().draw(view, ev)
        # hard's draw, the deep draws left aside (hard would take the shallowest)
        top = top_take(view)
        return draw_before_contract(view, ev, top, stock_or_first(view))

    def buy(self, view: SeatView, ev: Evaluator) -> Decision:
        passing = options(view, "pass_buy")
        if passing and all_at_once_plan(view, ev) is not None:
            return Decision(passing[0], "a bought card and its penalty card would have to "
                            "be laid down with the whole hand, or score")
        return super().buy(view, ev)

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        allowed = list(view.discardable)
        plan = all_at_once_plan(view, ev) if allowed else None
        if plan == "race":
            return race_discard(view, ev, allowed)
        if plan == "whole hand":
            return whole_hand_discard(view, ev, allowed)
        return super().discard(view, ev)
