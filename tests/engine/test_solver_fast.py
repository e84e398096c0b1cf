"""The direct search for hands with at most one wild agrees with the general search on
hands too big for the brute force, and lays out legal melds."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from solver_hands import cards, check_partition, deals, examples
from solver_rules import CONTRACT_LIKE, THREE_THIRTEEN_LIKE, three_thirteen

from tui.engine.meld_rules import make_meld
from tui.engine.solver import core as solver_core
from tui.engine.solver.api import best_arrangement
from tui.engine.solver.core import context_for, solve
from tui.engine.solver.fast import solve_few_wilds

RULESETS = {k: v for k, v in (THREE_THIRTEEN_LIKE | CONTRACT_LIKE).items()}


def general(hand, ctx, bound=None):
    saved = solver_core.FAST_MOST
    solver_core.FAST_MOST = -1
    try:
        return solve(hand, ctx, bound)
    finally:
        solver_core.FAST_MOST = saved


HANDS = deals(RULESETS, max_cards=16, min_cards=1)


@examples(300)
@given(HANDS)
def test_matches_the_general_search(deal):
    agrees_with_the_general_search(*deal[1:])


@pytest.mark.slow
@examples(3000)
@given(HANDS)
def test_many_hands_match_the_general_search(deal):
    agrees_with_the_general_search(*deal[1:])


def agrees_with_the_general_search(rules, round_no, hand) -> None:
    knobs = context_for(rules, round_no)  # (the same meld rules under either weighing)
    assume(knobs.plain and sum(1 for c in hand if c.rank in knobs.p.wild_ranks) <= 1)
    for scheme in ("penalty", "count"):
        ctx = context_for(rules, round_no, scheme)
        fast = solve_few_wilds(hand, ctx, None, True)
        slow = general(hand, ctx)
        assert fast is not None and slow is not None
        assert fast.cost == slow.cost, (scheme, " ".join(map(str, hand)))
        placed = [c.uid for m in fast.melds for c in m.cards] + [c.uid for c in fast.deadwood]
        assert sorted(placed) == sorted(c.uid for c in hand)
        for meld in fast.melds:
            declared = {c.uid: f for c, f in zip(meld.cards, meld.stands_for, strict=True)}
            make_meld(meld.cards, rules, round_no, declared, kind=meld.kind)
        # a bound the best arrangement misses by one point finds nothing
        assert solve_few_wilds(hand, ctx, fast.cost - 1, True) is None
        cost_only = solve_few_wilds(hand, ctx, None, False)
        assert cost_only is not None and cost_only.cost == fast.cost


def test_twin_melds_do_not_both_take_the_spare_wild():
    """A bug hypothesis found: with two decks the same run can be chosen twice, and the
    spare wild was laid in both copies, one card in two melds."""
    hand = cards("AC 2C 3C AC 2C 3C 4C")  # round 2: fours wild
    got = best_arrangement(hand, three_thirteen(), 2)
    assert got.penalty == 0
    check_partition(hand, got)
    assert sorted(len(m.cards) for m in got.melds) == [3, 4]


def test_a_spare_wild_joins_a_meld_with_room():
    rules = three_thirteen()  # round 1: threes wild
    hand = cards("5H 6H 7H 3C 9S")
    got = best_arrangement(hand, rules, 1)
    check_partition(hand, got)
    assert got.penalty == 9 and [c.uid for c in got.deadwood] == [4]
    assert any(c.uid == 3 for m in got.melds for c in m.cards)  # the wild 3C melded


def test_the_wild_stands_in_for_a_card_that_melds_elsewhere():
    """A bug that happened: two clubs runs A-2-3 from AC AC 2C 2C 3C and a wild 4C need
    the wild to stand in for the one 3C (the other run has it), leaving just the AD."""
    rules = three_thirteen(ace="both")  # round 2: fours wild
    hand = cards("AC 2C 3C AD AC 2C 4C")
    got = best_arrangement(hand, rules, 2)
    assert got.penalty == 1 and [str(c) for c in got.deadwood] == ["AD"]
    check_partition(hand, got)


def test_twin_cards_make_the_same_meld_twice():
    """A bug that happened: AC 2C 3C twice, no wild, is two runs, not one."""
    hand = cards("AC 2C AC 2C 3C 3C")
    got = best_arrangement(hand, three_thirteen(ace="both"), 2)
    assert got.penalty == 0 and len(got.melds) == 2


def test_a_wild_of_the_runs_suit_stands_for_itself():
    """Threes wild: 3C 4C 5C reads as itself, not as 4C 5C with the 3C standing for 6C;
    so too with a second wild (the general search lays melds out the same way)."""
    rules = three_thirteen()
    for text in ("3C 4C 5C KD 7H", "3C 4C 5C 3D"):
        hand = cards(text)
        run = next(m for m in best_arrangement(hand, rules, 1).melds if m.kind == "run")
        three = next(k for k, c in enumerate(run.cards) if str(c) == "3C")
        assert run.stands_for[three] == (3, "C"), run.describe()
