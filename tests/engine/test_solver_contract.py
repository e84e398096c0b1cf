"""Laying down contracts: `find_contract` agrees with a brute force that tries every choice
of melds, honours the rules tying a contract's melds together, and `contract_melds_ok`
says why a lay-down is not the contract."""

from __future__ import annotations

from dataclasses import replace

import pytest
from brute_force import brute_contract
from hypothesis import assume, given
from hypothesis import strategies as st
from solver_checks import finds_what_the_brute_force_finds
from solver_hands import SHOE, Rulesets, cards, deals, examples
from solver_rules import contract_rummy, liverpool, three_thirteen, with_melds

from tui.engine.cards import Card
from tui.engine.meld_rules import make_meld
from tui.engine.rules import Contract, ContractRules, RunRule
from tui.engine.solver.api import contract_melds_ok, find_contract

CR = contract_rummy()
LP = liverpool()


def with_contract(rules, runs_same_suit: str = "forbidden", sets_same_rank: bool = False):
    return replace(rules, contract=ContractRules(runs_same_suit, sets_same_rank))


RULESETS = Rulesets({
    "contract_rummy": CR,
    "liverpool": LP,
    "liverpool_short_runs": with_melds(LP, run=RunRule(3, None)),
    "allowed": with_contract(CR, "allowed", True),
    "separate_wrap": with_melds(with_contract(contract_rummy(wrap=True), "separate"),
                                run=RunRule(3, None)),
    "all_wild_melds": with_melds(LP, min_natural=0, run=RunRule(3, None)),
    "even_wilds": with_melds(CR, wilds_may_outnumber_naturals=False),
    "wild_ranks": replace(three_thirteen(), rounds=tuple(
        replace(r, contract=Contract(1, 1)) for r in three_thirteen().rounds)),
    "sizes_per_meld": replace(LP, rounds=tuple(
        replace(r, contract=Contract(1, 1, set_sizes=(2,), run_sizes=(3,))) if r.contract.runs
        else replace(r, contract=Contract(2, 0, set_sizes=(4, 2))) for r in LP.rounds)),
    "exact_sizes": replace(with_melds(LP, run=RunRule(3, None)), contract=replace(
        LP.contract, exact_size=True)),
    "two_ranks_apart": with_melds(replace(LP, contract=replace(LP.contract, same_suit_gap=2)),
                                  run=RunRule(3, None)),
    "may_touch_wrap": with_melds(replace(contract_rummy(wrap=True), contract=ContractRules(
        "separate", same_suit_gap=0)), run=RunRule(3, None)),
    "mixed_suit_runs": with_melds(CR, run=RunRule(3, None, same_suit=False)),
    "runs_above_2": with_melds(CR, run=RunRule(3, None, lowest=3)),
    "wilds_never_natural": with_melds(replace(three_thirteen(), rounds=tuple(
        replace(r, contract=Contract(1, 1)) for r in three_thirteen().rounds)),
        wild_rank_natural=False, min_natural=0),
})


@st.composite
def contract_hands(draw):
    """A hand holding a lay-down of the round's contract (shortest melds) plus a few other
    cards: so that a lay-down usually exists, with or without a given card."""
    name = draw(st.sampled_from(sorted(RULESETS)))
    rules = RULESETS[name]
    round_no = draw(st.integers(1, len(rules.rounds)))
    contract = rules.round(round_no).contract
    sizes = [rules.melds.set.min] * contract.sets + [rules.melds.run.min] * contract.runs
    assume(contract.required and sum(sizes) <= 8)
    shoe = list(SHOE)
    hand: list[Card] = []

    def take(rank: int, suit: str | None) -> None:
        card = next((c for c in shoe if c.rank == rank and suit in (None, c.suit)), None)
        assume(card is not None)
        shoe.remove(card)
        hand.append(card)

    for _ in range(contract.sets):
        rank = draw(st.integers(1, 13))
        for _ in range(rules.melds.set.min):
            take(rank, draw(st.sampled_from("CDHS")))
    for _ in range(contract.runs):
        suit = draw(st.sampled_from("CDHS"))
        start = draw(st.integers(1, 14 - rules.melds.run.min))
        for rank in range(start, start + rules.melds.run.min):
            take(rank, suit)
    for _ in range(draw(st.integers(0, 10 - len(hand)))):
        hand.append(shoe.pop(draw(st.integers(0, len(shoe) - 1))))
    return rules, round_no, draw(st.permutations(hand))


LAY_DOWNS = st.one_of(deals(RULESETS, max_cards=8, min_cards=3),
                     contract_hands().map(lambda deal: ("", *deal)))


@examples(150)
@given(LAY_DOWNS)
def test_find_contract_matches_brute_force(deal):
    finds_what_the_brute_force_finds(*deal[1:])


@pytest.mark.slow
@examples(2000)
@given(LAY_DOWNS)
def test_find_contract_matches_brute_force_on_many_hands(deal):
    finds_what_the_brute_force_finds(*deal[1:])


@examples(150)
@given(st.one_of(contract_hands(), deals(RULESETS, max_cards=8, min_cards=3).map(
    lambda deal: deal[1:])), st.data())
def test_a_card_that_must_be_melded_matches_brute_force(deal, data):
    """The deep-draw question: is there a lay-down that melds this very card?"""
    rules, round_no, hand = deal
    card = data.draw(st.sampled_from(hand))
    expected = brute_contract(hand, rules, round_no, must_include=card)
    quick = find_contract(hand, rules, round_no, must_include=card, first_found=True)
    best = find_contract(hand, rules, round_no, must_include=card)
    assert (quick is None) == (expected is None), (str(card), [str(c) for c in hand])
    assert (best is None) == (expected is None)
    if best is not None:
        assert best.penalty == expected
        assert any(c.uid == card.uid for m in best.melds for c in m.cards)
        assert any(c.uid == card.uid for m in quick.melds for c in m.cards)


def test_the_contract_leaves_the_fewest_points():
    # deal 1: two sets.  Kings and queens beat twos.
    got = find_contract(cards("2C 2D 2S KC KD KS QC QD QS 5H"), CR, 1)
    assert sorted(m.rank for m in got.melds) == [12, 13]
    assert got.penalty == 2 + 2 + 2 + 5


def test_sets_of_one_contract_have_different_ranks():
    hand = cards("7C 7D 7S 7H 7C 7D 5H")
    assert find_contract(hand, CR, 1) is None
    got = find_contract(hand, with_contract(CR, sets_same_rank=True), 1)
    assert [m.rank for m in got.melds] == [7, 7]


def test_runs_of_one_suit_forbidden_separate_or_allowed():
    hand = cards("2H 3H 4H 5H 6H 7H 9S")
    assert find_contract(hand, CR, 3) is None  # deal 3: two runs, suits must differ
    separate = with_contract(CR, "separate")
    assert find_contract(hand, separate, 3) is None  # 2-4 and 5-7 would touch
    apart = cards("2H 3H 4H 6H 7H 8H 9S")
    got = find_contract(apart, separate, 3)
    assert got is not None and got.penalty == 9
    got = find_contract(hand, with_contract(CR, "allowed"), 3)
    assert got is not None and got.penalty == 9


def test_separate_runs_keep_their_wilds_apart():
    separate = with_contract(CR, "separate")
    # JK can extend one run but must not close the gap between them
    got = find_contract(cards("2H 3H 4H 6H 7H 8H JK"), separate, 3)
    assert got is not None
    assert contract_melds_ok(got.melds, separate, 3) is None
    assert got.penalty == 0  # the joker goes to an outer end


def test_whole_hand_rounds_meld_every_card():
    hand = cards("2H 3H 4H 6S 7S 8S 9S JD QD KD AD 5C")
    assert find_contract(hand, CR, 7) is not None
    assert find_contract(hand, CR, 7, whole_hand=True) is None
    whole = cards("2H 3H 4H 6S 7S 8S 9S JD QD KD AD JK")
    got = find_contract(whole, CR, 7, whole_hand=True)
    assert got is not None and not got.deadwood


def test_no_contract_no_lay_down():
    assert find_contract(cards("7C 7D 7S"), three_thirteen(), 1) is None


def test_contract_melds_ok_names_the_problem():
    def meld(text):
        return make_meld(cards(text), CR, 1)

    sets = [meld("7C 7D 7S"), meld("9C 9D 9S")]
    assert contract_melds_ok(sets, CR, 1) is None
    assert "2 sets" in contract_melds_ok(sets[:1], CR, 1)
    assert "different ranks" in contract_melds_ok([meld("7C 7D 7S"), meld("7H 7C 7D")], CR, 1)
    runs = [meld("2H 3H 4H"), meld("8H 9H 10H")]
    assert "different suits" in contract_melds_ok(runs, CR, 3)
    separate = with_contract(CR, "separate")
    assert contract_melds_ok(runs, separate, 3) is None
    touching = [meld("2H 3H 4H"), meld("5H 6H 7H")]
    assert "joining up" in contract_melds_ok(touching, separate, 3)
    assert contract_melds_ok(touching, with_contract(CR, "allowed"), 3) is None
    assert "no contract" in contract_melds_ok(sets, three_thirteen(), 1)


def test_same_suit_runs_apart_around_the_corner_get_their_wilds() -> None:
    """Two club runs kept apart where runs wrap: the one laid out as Q-K-A takes its two
    wilds (the span Q..A was once counted as 12..1, a negative number of cards)."""
    rules = RULESETS["separate_wrap"]
    hand = [Card(1, "C", 0), Card(3, "C", 2), Card(1, "C", 52), Card(3, "C", 54),
            *(Card(0, "*", 104 + i) for i in range(4))]
    lay = find_contract(hand, rules, 3)  # deal 3: two runs
    assert lay is not None and contract_melds_ok(lay.melds, rules, 3) is None
    assert lay.penalty == brute_contract(hand, rules, 3)
    for meld in lay.melds:
        make_meld(meld.cards, rules, 3, dict(zip((c.uid for c in meld.cards),
                                                 meld.stands_for, strict=True)), kind="run")
