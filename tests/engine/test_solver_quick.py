"""The quick test before the exact search never turns away a hand that can go out, and
does turn away the plainly hopeless ones (else it would save nothing)."""

from __future__ import annotations

import pytest
from hypothesis import given
from solver_hands import deals, examples
from solver_rules import CONTRACT_LIKE, THREE_THIRTEEN_LIKE, WILD_HEAVY, three_thirteen

from tui.engine.cards import parse_cards as cards
from tui.engine.solver.core import context_for, solve
from tui.engine.solver.quick import may_go_out


def exact_left_over(hand, rules, round_no) -> int:
    """Fewest cards left out of melds, by the exact search alone."""
    plan = solve(hand, context_for(rules, round_no, "count"))
    assert plan is not None
    return len(plan.deadwood)


HANDS = deals(THREE_THIRTEEN_LIKE | CONTRACT_LIKE | WILD_HEAVY, max_cards=14, min_cards=3)


@examples(400)
@given(HANDS)
def test_never_refuses_a_hand_that_melds(deal):
    lets_through_every_hand_that_melds(*deal[1:])


@pytest.mark.slow
@examples(5000)
@given(HANDS)
def test_never_refuses_any_of_many_hands_that_meld(deal):
    lets_through_every_hand_that_melds(*deal[1:])


def lets_through_every_hand_that_melds(rules, round_no, hand) -> None:
    left = exact_left_over(hand, rules, round_no)
    p = context_for(rules, round_no, "count")
    for spare in (0, 1):
        if left <= spare:
            assert may_go_out(hand, p, spare), (" ".join(map(str, hand)), spare)


def test_refuses_cards_with_no_partner_and_too_few_wilds():
    rules = three_thirteen()
    p = context_for(rules, 1, "count")  # three cards a hand: threes wild
    # 9S and KD have no partner: one may be the discard, not both
    assert not may_go_out(cards("4H 5H 6H 9S KD"), p, spare=1)
    assert may_go_out(cards("4H 5H 6H 9S"), p, spare=1)
    # one wild cannot rescue two lone cards of different suits and ranks...
    assert not may_go_out(cards("3C 5H 7H 9S 9D JC"), p, spare=0)
    # ...but can close the gap between two cards of one suit
    assert may_go_out(cards("3C 5H 7H 9S 9D 9C"), p, spare=0)
