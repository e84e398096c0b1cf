"""The solver is exact: it agrees with the naive brute force on thousands of small hands,
under every kind of meld rule, and its arrangements are legal and account for every card."""

from __future__ import annotations

from dataclasses import replace

import pytest
from brute_force import brute_going_out
from hypothesis import given
from solver_checks import agrees_with_brute_force
from solver_hands import cards, check_partition, deals, examples
from solver_rules import (
    CONTRACT_LIKE,
    THREE_THIRTEEN_LIKE,
    WILD_HEAVY,
    contract_rummy,
    three_thirteen,
    wild_heavy,
    with_melds,
)

from tui.engine.cards import parse_card
from tui.engine.meld_rules import card_penalty, make_meld
from tui.engine.rules import RunRule, SetRule
from tui.engine.solver.api import best_arrangement, going_out


@examples(300)
@given(deals(THREE_THIRTEEN_LIKE))
def test_three_thirteen_rules_match_brute_force(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


@examples(300)
@given(deals(CONTRACT_LIKE))
def test_contract_rules_match_brute_force(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


@examples(250)
@given(deals(WILD_HEAVY))
def test_wild_heavy_rules_match_brute_force(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


@pytest.mark.slow
@examples(5000)
@given(deals(THREE_THIRTEEN_LIKE | CONTRACT_LIKE | WILD_HEAVY))
def test_many_hands_of_every_family_match_brute_force(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


@examples(300)
@given(deals(THREE_THIRTEEN_LIKE | {"wh_" + k: v for k, v in WILD_HEAVY.items()},
             wild_only=True))
def test_hands_of_only_wilds_match_brute_force(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


@examples(200)
@given(deals(THREE_THIRTEEN_LIKE | CONTRACT_LIKE, max_cards=8))
def test_going_out_matches_brute_force(deal):
    _, rules, round_no, hand = deal
    possible, discard_value = brute_going_out(hand, rules, round_no)
    got = going_out(hand, rules, round_no)
    assert (got is not None) == possible
    if got is None:
        return
    arrangement, discard = got
    assert arrangement.penalty == 0 and not arrangement.deadwood
    rest = [c for c in hand if discard is None or c.uid != discard.uid]
    check_partition(rest, arrangement)
    if discard is None:
        assert discard_value is None
    else:
        assert card_penalty(discard, rules, round_no) == discard_value


@examples(150)
@given(deals({"three_thirteen": three_thirteen(), "contract_rummy": contract_rummy(),
              "wild_heavy": wild_heavy()}, max_cards=16, min_cards=10))
def test_big_hands_are_legal_and_a_card_never_costs_more_than_itself(deal):
    """Hands too big for the brute force: legal, complete, and a card added to a hand
    costs at most its own value (the old arrangement plus that card as deadwood)."""
    _, rules, round_no, hand = deal
    whole = best_arrangement(hand, rules, round_no)
    check_partition(hand, whole)
    for meld in whole.melds:
        make_meld(meld.cards, rules, round_no)
    for i in range(0, len(hand), 3):
        rest = hand[:i] + hand[i + 1:]
        smaller = best_arrangement(rest, rules, round_no).penalty
        assert whole.penalty <= smaller + card_penalty(hand[i], rules, round_no)


# ---------------------------------------------------------------------------- examples


def test_a_set_and_a_run_competing_for_a_card():
    tt = three_thirteen()
    # greedy longest run (4H-7H) strands 7S 7D; the exact answer melds everything
    got = best_arrangement(cards("4H 5H 6H 7H 7S 7D"), tt, 1)
    assert got.penalty == 0
    assert sorted(m.kind for m in got.melds) == ["run", "set"]
    # here the set wins: the run would strand 14 points, the set only 11
    got = best_arrangement(cards("5H 6H 7H 7S 7D"), tt, 1)
    assert got.penalty == 11
    assert [m.kind for m in got.melds] == ["set"]


def test_two_identical_cards_in_two_runs():
    got = best_arrangement(cards("5H 6H 7H 7H 8H 9H"), three_thirteen(), 1)
    assert got.penalty == 0 and len(got.melds) == 2


def test_a_full_suit_and_a_joker_split_so_the_joker_melds_too():
    # 13 hearts fill a run; a 14th card cannot join it, so the suit splits in two runs
    hand = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK")
    got = best_arrangement(hand, contract_rummy(), 1)
    assert got.penalty == 0


def test_wild_rank_cards_standing_for_themselves():
    got = best_arrangement(cards("3H 3S 3D"), three_thirteen(), 1)
    assert got.penalty == 0
    got = best_arrangement(cards("KH KS"), three_thirteen(), 11)
    assert got.penalty == 20  # two wilds make no meld: both score face value


def test_unmelded_wilds_score_and_cheapest_wilds_stay_out():
    rules = wild_heavy()  # jokers score 20, kings (wild in round 11) 13
    got = best_arrangement(cards("5H 6H JK KS"), rules, 11)
    assert got.penalty == 0  # 5H 6H + two wilds, or an all-wild meld: either way all melded
    capped = with_melds(rules, run=RunRule(3, 3), set=SetRule(3, 3, False))
    got = best_arrangement(cards("5H 6H JK KS"), capped, 11)
    # runs of exactly 3: 6H and both wilds, leaving the 5H (the brute force agrees).  The
    # solver once said 13 (5H 6H JK, the king kept): its per-suit tables dropped the run
    # needing two wilds as "no better" than the one needing one, though the one took a
    # single wild and left the other in hand.
    assert got.penalty == 5
    assert [str(c) for c in got.deadwood] == ["5H"]


def test_all_wild_melds_when_allowed():
    assert best_arrangement(cards("JK JK JK"), wild_heavy(), 1).penalty == 0
    assert best_arrangement(cards("JK JK JK"), contract_rummy(), 1).penalty == 45


def test_jokers_that_are_not_wild_are_always_deadwood():
    got = best_arrangement(cards("5H 6H JK"), three_thirteen(), 1)
    assert [str(c) for c in got.deadwood] == ["5H", "6H", "JK"]


def test_empty_hand():
    got = best_arrangement([], three_thirteen(), 1)
    assert got.penalty == 0 and not got.melds and not got.deadwood


def test_going_out_discards_the_most_valuable_spare_card():
    tt = three_thirteen()
    arrangement, discard = going_out(cards("5H 6H 7H 8H"), tt, 2)  # round 2: 4 cards, 4s wild
    assert str(discard) == "8H"
    assert len(arrangement.melds) == 1 and len(arrangement.melds[0].cards) == 3
    arrangement, discard = going_out(cards("5H 6H 7H QS"), tt, 2)
    assert str(discard) == "QS"
    assert going_out(cards("5H 6H 9H QS"), tt, 2) is None


def test_going_out_without_a_discard():
    optional = contract_rummy()
    arrangement, discard = going_out(cards("5H 6H 7H 7S 7D 7C"), optional, 1)
    assert discard is None and arrangement.penalty == 0
    arrangement, discard = going_out(cards("5H 6H 7H 7S 7D 7C KD"), optional, 1)
    assert str(discard) == "KD"
    forbidden = replace(optional, going_out=replace(optional.going_out, discard="forbidden"))
    assert going_out(cards("5H 6H 7H 7S 7D 7C KD"), forbidden, 1) is None
    assert going_out(cards("5H 6H 7H 7S 7D 7C"), forbidden, 1) is not None


def test_the_solver_caches_are_bounded(monkeypatch):
    import tui.engine.solver.context as solver_context

    monkeypatch.setattr(solver_context, "CACHE_ENTRIES", 0)
    monkeypatch.setattr(solver_context, "_solves", 0)
    rules = three_thirteen()
    shoe = [parse_card(f"{r}{s}", uid=i) for i, (r, s) in enumerate(
        (r, s) for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())]
    import random

    rng = random.Random(3)
    for _ in range(255):
        best_arrangement(rng.sample(shoe, 12), rules, 10)
    assert sum(ctx.entries() for ctx in solver_context._CONTEXTS.values()) > 0
    best_arrangement(rng.sample(shoe, 12), rules, 10)  # the 256th solve checks the size
    assert sum(ctx.entries() for ctx in solver_context._CONTEXTS.values()) == 0


def test_cost_only_plans_match_full_ones():
    """`solve(..., melds=False)`, used by bots weighing options, skips building melds only."""
    import random

    from tui.engine.cards import build_shoe
    from tui.engine.solver.core import context_for, solve

    rng = random.Random(11)
    for rules, round_no, jokers in ((three_thirteen(), 11, 0), (contract_rummy(), 5, 2),
                                    (wild_heavy(), 9, 4)):
        shoe = build_shoe(2, jokers)
        ctx = context_for(rules, round_no)
        for _ in range(60):
            hand = rng.sample(shoe, 14)
            full = solve(hand, ctx)
            bare = solve(hand, ctx, melds=False)
            assert bare.cost == full.cost and not bare.melds
            assert sorted(c.uid for c in bare.deadwood) == sorted(c.uid for c in full.deadwood)
