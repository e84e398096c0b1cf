"""Best arrangements of a hand: least penalty, going out, laying down a contract.

The engine scores hands with `best_arrangement`, checks and offers going out with
`going_out`, and bots lay contracts down with `find_contract`.  All of them are exact: the
search (in `solver_core` and `contract_search`) considers every way the cards can be split
into melds, pruning only what provably cannot beat the best found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import SUITS, Card
from ..meld import Meld
from ..meld_rules import card_penalty
from ..rules import Ruleset
from .context import BIG, Plan, context_for, work_budget
from .contract_check import contract_melds_ok
from .contract_search import search_contract
from .core import solve
from .quick import may_go_out

__all__ = ["Arrangement", "best_arrangement", "going_out", "find_contract",
           "contract_melds_ok"]


@dataclass(frozen=True)
class Arrangement:
    """Melds made from a hand, the cards left over, and what those score."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    penalty: int


def best_arrangement(hand: Sequence[Card], rules: Ruleset, round_no: int) -> Arrangement:
    """The arrangement of the whole hand leaving the fewest penalty points (exact within
    the solver's work budget, which only hands far beyond any deal reach: see `solve`)."""
    with work_budget():
        plan = solve(list(hand), context_for(rules, round_no, "penalty"))
    assert plan is not None
    # weighed by the "penalty" scheme, the plan's cost is the deadwood's points
    return _arrangement(plan, rules, round_no, penalty=plan.cost)


def going_out(hand: Sequence[Card], rules: Ruleset, round_no: int,
              arrangement: Arrangement | None = None
              ) -> tuple[Arrangement, Card | None] | None:
    """Melds of every card but the discard, and the discard (None when every card is
    melded); None if the hand cannot go out.  Among several possible discards the most
    valuable one goes, so the hand would score least if the declaration were refused.
    Under a laying-down limit (`going_out.deadwood_limit`) a hand that cannot meld every
    card may still go out keeping cards worth up to the limit: they are the arrangement's
    deadwood (the fewest points kept; a hand that melds everything keeps none).

    `arrangement`, the hand's `best_arrangement` when the caller has it, settles most
    hands at once: going out leaves at most one card, so at most the dearest card's points.
    Every search here shares one work budget: past it the answer is None ("no go-out can
    be proven"), never a go-out that is not there.
    """
    with work_budget():
        return _going_out(hand, rules, round_no, arrangement)


def _going_out(hand: Sequence[Card], rules: Ruleset, round_no: int,
               arrangement: Arrangement | None) -> tuple[Arrangement, Card | None] | None:
    rule = rules.going_out_discard(round_no)
    limit = 0 if rules.going_out.melding_during_play else rules.going_out.deadwood_limit
    exact = _going_out_exact(list(hand), rules, round_no, rule, arrangement)
    if exact is not None or limit <= 0 or not hand:
        return exact
    return _going_out_keeping(list(hand), rules, round_no, rule, limit, arrangement)


def _going_out_keeping(cards: list[Card], rules: Ruleset, round_no: int, rule: str,
                       limit: int, arrangement: Arrangement | None
                       ) -> tuple[Arrangement, Card | None] | None:
    """Going out keeping cards worth at most `limit` (the hand cannot meld them all):
    the fewest points kept, then the dearest discard."""
    whole = arrangement or best_arrangement(cards, rules, round_no)
    best: tuple[int, int, Arrangement, Card | None] | None = None
    if rule != "required" and whole.penalty <= limit:
        best = (whole.penalty, 0, whole, None)
    if rule == "forbidden":
        return None if best is None else (best[2], None)
    ctx = context_for(rules, round_no, "penalty")
    order = sorted(cards, key=lambda c: (-card_penalty(c, rules, round_no), c.sort_key()))
    tried: set[tuple[int, str]] = set()
    for card in order:
        value = card_penalty(card, rules, round_no)
        # the rest costs at least the whole hand's least less this card's points
        if value >= 0 and whole.penalty - value > (limit if best is None else best[0]):
            break
        if card.face in tried:
            continue
        tried.add(card.face)
        rest = [c for c in cards if c.uid != card.uid]
        plan = solve(rest, ctx, bound=limit if best is None else best[0])
        if plan is None:
            continue
        kept = _arrangement(plan, rules, round_no, penalty=plan.cost)
        if best is None or (kept.penalty, -value) < best[:2]:
            best = (kept.penalty, -value, kept, card)
    return None if best is None else (best[2], best[3])


def _going_out_exact(cards: list[Card], rules: Ruleset, round_no: int, rule: str,
                     arrangement: Arrangement | None
                     ) -> tuple[Arrangement, Card | None] | None:
    """`going_out` melding every card but the discard."""
    if arrangement is not None and cards:
        values = [card_penalty(c, rules, round_no) for c in cards]
        if min(values) >= 0 and arrangement.penalty > max(values):
            return None
    ctx = context_for(rules, round_no, "count")
    if not may_go_out(cards, ctx, spare=0 if rule == "forbidden" else 1):
        return None
    plan = solve(cards, ctx, bound=BIG + BIG // 2)
    if plan is None:
        return None
    left = len(plan.deadwood)
    if left == 0:
        if rule != "required":
            return _arrangement(plan, rules, round_no), None
        # everything melds, but a card must still go: find one whose loss breaks nothing
        order = sorted(cards, key=lambda c: (-card_penalty(c, rules, round_no), c.sort_key()))
        tried: set[tuple[int, str]] = set()
        for card in order:
            if card.face in tried:
                continue
            tried.add(card.face)
            rest = [c for c in cards if c.uid != card.uid]  # this copy, not a twin
            sub = solve(rest, ctx, bound=0)
            if sub is not None:
                return _arrangement(sub, rules, round_no), card
        return None
    if rule == "forbidden":
        return None
    (discard,) = plan.deadwood
    plan.deadwood = []
    return _arrangement(plan, rules, round_no), discard


def find_contract(hand: Sequence[Card], rules: Ruleset, round_no: int,
                  whole_hand: bool = False, must_include: Card | None = None,
                  first_found: bool = False) -> Arrangement | None:
    """A legal lay-down of exactly the round's contract leaving the fewest penalty points
    in hand (`whole_hand`: every card melded, as in all-at-once rounds); None if none.
    `must_include` asks for lay-downs that meld that physical card; `first_found` for any
    lay-down at all, not the best (a quicker yes/no)."""
    found = search_contract(list(hand), rules, round_no, whole_hand, must_include, first_found)
    if found is None:
        return None
    melds, rest = found
    rest = sorted(rest, key=Card.sort_key)
    return Arrangement(tuple(melds), tuple(rest),
                       sum(card_penalty(c, rules, round_no) for c in rest))


def _arrangement(plan: Plan, rules: Ruleset, round_no: int,
                 penalty: int | None = None) -> Arrangement:
    deadwood = tuple(sorted(plan.deadwood, key=_display_order))
    if penalty is None:
        penalty = sum(card_penalty(c, rules, round_no) for c in deadwood)
    return Arrangement(tuple(plan.melds), deadwood, penalty)


_SUIT_RANK = {suit: i for i, suit in enumerate(SUITS)}


def _display_order(card: Card) -> tuple[int, int, int]:
    """`Card.sort_key` (suits, then ranks, jokers last) without its method call."""
    return (_SUIT_RANK.get(card.suit, 4), card.rank, card.uid)
