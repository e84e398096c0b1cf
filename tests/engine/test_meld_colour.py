"""Melds of one colour (#32, Phase 10 with a standard deck): `melds.set.one_colour` and
`melds.run.one_colour` (with runs of mixed suits), set for the game or for one round.
Red is hearts and diamonds, black clubs and spades; a wild fills in for either colour.
The solver is held to the brute force under each."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from rulesets_helpers import MINIMAL, errors_of, position, write
from solver_checks import agrees_with_brute_force, finds_what_the_brute_force_finds, per_round
from solver_hands import Rulesets, cards, deals, examples
from solver_rules import contract_rummy, liverpool, three_thirteen, wild_heavy, with_melds

from tui.engine.meld_rules import MeldError, extend_meld, make_meld
from tui.engine.rules import RunRule, SetRule
from tui.engine.ruleset.loader import load_ruleset, ruleset_warnings
from tui.engine.ruleset.text import describe_rules
from tui.engine.solver.api import best_arrangement, find_contract

RED_SETS = SetRule(one_colour=True)
COLOUR_RUNS = RunRule(same_suit=False, one_colour=True)
WH = wild_heavy()
TT = three_thirteen()
COLOURED = Rulesets({
    "sets": with_melds(WH, set=RED_SETS),
    "sets_distinct": with_melds(WH, set=SetRule(2, None, distinct_suits=True, one_colour=True)),
    "runs": with_melds(WH, run=COLOUR_RUNS),
    "both_one_wild": with_melds(WH, set=RED_SETS, run=COLOUR_RUNS, max_wilds=1),
    "both_tt": with_melds(TT, set=RED_SETS, run=COLOUR_RUNS),
    "round_4_only": per_round(TT, round_4=replace(TT.melds, set=RED_SETS, run=COLOUR_RUNS)),
})


@examples(400)
@given(deals(COLOURED))
def test_the_solver_matches_the_brute_force_with_melds_of_one_colour(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


@examples(150)
@given(deals(COLOURED, wild_only=True))
def test_hands_of_wilds_match_the_brute_force_with_melds_of_one_colour(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


LP = liverpool()
CR = contract_rummy()
CONTRACTS = Rulesets({
    "sets": with_melds(LP, set=RED_SETS),
    "runs": with_melds(LP, run=COLOUR_RUNS),
    "both_deal_3": per_round(CR, round_3=replace(CR.melds, run=COLOUR_RUNS),
                             round_1=replace(CR.melds, set=SetRule(3, 4, one_colour=True))),
})


@examples(150)
@given(deals(CONTRACTS, max_cards=8, min_cards=3))
def test_find_contract_matches_the_brute_force_with_melds_of_one_colour(deal):
    finds_what_the_brute_force_finds(*deal[1:])


# --- the meld rules, by key -------------------------------------------------------------------


def test_a_set_of_one_colour_refuses_a_card_of_the_other_colour() -> None:
    rules = with_melds(contract_rummy(), set=SetRule(3, None, one_colour=True))
    make_meld(cards("7H 7D 7H"), rules, 1)
    make_meld(cards("7C 7S 7C 7S"), rules, 1)
    with pytest.raises(MeldError) as caught:
        make_meld(cards("7H 7D 7S"), rules, 1)
    assert caught.value.rule == "melds.set.one_colour"
    make_meld(cards("7H 7D 7S"), contract_rummy(), 1)  # without the key: a set


def test_a_wild_fills_either_colour_and_laying_off_keeps_the_sets_colour() -> None:
    rules = with_melds(contract_rummy(), set=SetRule(3, None, one_colour=True))
    hand = cards("7C JK 7S 7C 7D")
    meld = make_meld(hand[:3], rules, 1)  # a joker in a black set
    extend_meld(meld, hand[3:4], rules, 1)
    with pytest.raises(MeldError) as caught:
        extend_meld(meld, hand[4:], rules, 1)
    assert caught.value.rule == "melds.set.one_colour"
    with pytest.raises(MeldError, match="red card|black card|one colour"):
        joker = cards("7C 7S JK")
        make_meld(joker, rules, 1, {joker[2].uid: (7, "H")})


def test_a_set_of_one_colour_and_distinct_suits_has_two_cards_at_most() -> None:
    rules = with_melds(contract_rummy(), set=SetRule(2, None, distinct_suits=True,
                                                      one_colour=True))
    make_meld(cards("7C 7S"), rules, 1)
    meld = make_meld(cards("7H JK"), rules, 1)
    assert meld.stands_for[1] == (7, "D")  # the wild stands for the missing red suit
    with pytest.raises(MeldError) as caught:
        make_meld(cards("7H 7D JK"), rules, 1)
    assert caught.value.rule == "melds.set.one_colour"


def test_a_run_of_one_colour_mixes_red_suits_or_black_suits_only() -> None:
    rules = with_melds(contract_rummy(), run=COLOUR_RUNS)
    make_meld(cards("5H 6D 7H 8D"), rules, 1)
    make_meld(cards("5C JK 7S"), rules, 1)
    with pytest.raises(MeldError) as caught:
        make_meld(cards("5H 6S 7H"), rules, 1)
    assert caught.value.rule == "melds.run.one_colour"
    hand = cards("5H 6D 7H 8H 8C")
    run = make_meld(hand[:3], rules, 1)
    extend_meld(run, hand[3:4], rules, 1)
    with pytest.raises(MeldError) as caught:
        extend_meld(run, hand[4:], rules, 1)
    assert caught.value.rule == "melds.run.one_colour"
    make_meld(cards("5H 6S 7H"), with_melds(contract_rummy(), run=RunRule(same_suit=False)), 1)


def test_a_wild_rank_card_of_the_other_colour_is_a_wild_in_a_run_of_one_colour() -> None:
    rules = with_melds(three_thirteen(), run=COLOUR_RUNS)  # round 3: 5s wild
    meld = make_meld(cards("3H 4D 5S"), rules, 3)
    assert meld.stands_for[2] == (5, "")  # the 5S stands in as a wild, not as itself
    with pytest.raises(MeldError):  # no wild may stand for itself, two naturals need one
        make_meld(cards("3H 5S 4C"), rules, 3)


def test_the_solver_keeps_a_red_set_and_a_black_set_of_one_rank_apart() -> None:
    rules = with_melds(liverpool(), set=RED_SETS)
    hand = cards("9H 9D 9H 9C 9S 9C")
    got = best_arrangement(hand, rules, 1)
    assert got.penalty == 0 and len(got.melds) == 2
    assert best_arrangement(cards("9H 9D 9C 9S 2D"), rules, 1).penalty > 0
    assert find_contract(hand, rules, 1) is None  # deal 1: two sets, of two ranks
    same_rank = replace(rules, contract=replace(rules.contract, sets_same_rank=True))
    found = find_contract(hand, same_rank, 1)
    assert found is not None and found.penalty == 0


def test_a_rounds_own_one_colour_rule_binds_that_round_only() -> None:
    rules = per_round(three_thirteen(), round_4=replace(TT.melds, set=RED_SETS))
    with pytest.raises(MeldError):
        make_meld(cards("8H 8D 8S"), rules, 4)  # round 4: 6s wild; sets of one colour
    make_meld(cards("8H 8D 8S"), rules, 5)


# --- the ruleset: loading, checks, words ------------------------------------------------------


def test_one_colour_loads_from_yaml_for_the_game_and_for_a_round(tmp_path: Path) -> None:
    path = write(tmp_path, "colour.yaml", """
name: Test game
players: {min: 2, max: 4}
decks:
  - {players: 2, decks: 1}
melds:
  set: {one_colour: true}
rounds:
  - {cards: 7}
  - {cards: 7, melds: {run: {same_suit: false, one_colour: true}}}
""")
    rules = load_ruleset(path)
    assert rules.melds.set.one_colour and not rules.melds.run.one_colour
    assert rules.melds_for(2).run.one_colour and rules.melds_for(2).set.one_colour
    text = " ".join(describe_rules(rules).split())
    assert "Every set is of one colour: all red (hearts, diamonds)" in text
    assert "runs of one colour" in text  # round 2's note


def test_a_bad_one_colour_value_is_a_located_error(tmp_path: Path) -> None:
    path = write(tmp_path, "colour.yaml", MINIMAL + """
melds:
  set: {one_colour: red}
""")
    errors = errors_of(path)
    assert any("one_colour" in str(e) for e in errors), errors


COLOUR_DISTINCT = """
name: Test game
players: {min: 2, max: 4}
decks:
  - {players: 2, decks: 2}
melds:
  set: {distinct_suits: true, one_colour: true, min: %s}
rounds:
  - {cards: 7}
  - {cards: 7, contract: {sets: [2, 2]}}
"""


def test_sets_of_one_colour_and_distinct_suits_over_two_cards_are_an_error_at_the_key(
        tmp_path: Path) -> None:
    path = write(tmp_path, "colour.yaml", COLOUR_DISTINCT % 3)
    errors = errors_of(path)
    assert errors and all("at most 2 cards" in str(e) for e in errors), errors
    line, _ = position(path, "one_colour: true", "one_colour")
    assert {e.line for e in errors} == {line}
    load_ruleset(write(tmp_path, "pairs.yaml", COLOUR_DISTINCT % 2))  # sets of 2: fine


def test_a_rounds_own_one_colour_is_checked_where_the_round_writes_it(tmp_path: Path) -> None:
    path = write(tmp_path, "colour.yaml", """
name: Test game
players: {min: 2, max: 4}
decks:
  - {players: 2, decks: 2}
melds:
  set: {distinct_suits: true}
rounds:
  - {cards: 7}
  - {cards: 7, melds: {set: {one_colour: true}}}
""")
    (error,) = errors_of(path)
    assert "round 2" in str(error)
    assert error.line == position(path, "one_colour: true", "one_colour")[0]


def test_runs_of_one_colour_without_mixed_suits_are_warned(tmp_path: Path) -> None:
    text = MINIMAL + "melds:\n  run: {one_colour: true%s}\n"
    warned = ruleset_warnings(str(write(tmp_path, "one.yaml", text % "")))
    assert any("does nothing" in str(w) for w in warned)
    mixed = ruleset_warnings(str(write(tmp_path, "mixed.yaml", text % ", same_suit: false")))
    assert not any("does nothing" in str(w) for w in mixed)
