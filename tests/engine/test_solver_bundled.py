"""The solver and meld rules under the bundled rulesets as loaded from their YAML files:
the examples of the rules reference, and agreement with the brute force."""

from __future__ import annotations

import pytest
from brute_force import brute_contract, brute_force
from hypothesis import given
from solver_hands import cards, check_partition, deals, examples

from tui.engine.meld_rules import MeldError, make_meld
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.solver.api import best_arrangement, find_contract, going_out

BUNDLED = ("three_thirteen", "three_thirteen_jokers", "contract_rummy", "liverpool")
LOADED = {key: load_ruleset(key) for key in BUNDLED}


def is_meld(text: str, key: str, round_no: int) -> bool:
    try:
        make_meld(cards(text), LOADED[key], round_no)
    except MeldError:
        return False
    return True


def test_three_thirteen_examples():
    assert is_meld("3H 3S 3D", "three_thirteen", 1)  # wild 3s standing for themselves
    assert is_meld("AS 2S 3S", "three_thirteen", 5)
    assert not is_meld("QS KS AS", "three_thirteen", 5)
    assert not is_meld("KS AS 2S", "three_thirteen", 5)
    assert is_meld("7S 7S 7H 7H 7D", "three_thirteen", 5)  # two decks, no maximum
    assert best_arrangement(cards("KH KS"), LOADED["three_thirteen"], 11).penalty == 20
    out = going_out(cards("5H 6H 7H 9C 9D 9S 2C"), LOADED["three_thirteen"], 5)
    assert out is not None and str(out[1]) == "2C"


def test_three_thirteen_jokers_examples():
    rules = LOADED["three_thirteen_jokers"]
    assert is_meld("JK JK JK", "three_thirteen_jokers", 1)
    assert best_arrangement(cards("JK JK QS"), rules, 1).penalty == 0
    assert best_arrangement(cards("QS KS"), rules, 1).penalty == 25  # Q 12 + K 13


def test_contract_rummy_examples():
    assert is_meld("QS KS AS", "contract_rummy", 1)
    assert is_meld("AS 2S 3S", "contract_rummy", 1)
    assert not is_meld("KS AS 2S", "contract_rummy", 1)
    assert not is_meld("7S 7S 7H", "contract_rummy", 1)
    assert not is_meld("7S 7D 7H 7C 7S", "contract_rummy", 1)
    rules = LOADED["contract_rummy"]
    hand = cards("2H 3H 4H 6S 7S 8S 9S JD QD KD AD JK")
    got = find_contract(hand, rules, 7, whole_hand=True)
    assert got is not None and not got.deadwood
    assert find_contract(cards("2H 3H 4H 6H 7H 8H JD QD KD"), rules, 7) is None


def test_liverpool_examples():
    assert not is_meld("5H 6H 7H", "liverpool", 3)
    assert is_meld("5H 6H 7H 8H", "liverpool", 3)
    assert is_meld("7S 7S 7H", "liverpool", 1)
    rules = LOADED["liverpool"]
    apart = cards("2H 3H 4H 5H 7H 8H 9H 10H")  # deal 3: two runs, one suit, not touching
    assert find_contract(apart, rules, 3) is not None
    touching = cards("2H 3H 4H 5H 6H 7H 8H 9H")
    assert find_contract(touching, rules, 3) is None


@pytest.mark.parametrize("key", BUNDLED)
def test_bundled_rulesets_match_brute_force(key):
    rules = LOADED[key]

    @examples(150)
    @given(deals({key: rules}, max_cards=8))
    def check(deal):
        _, rules, round_no, hand = deal
        expected, _, _ = brute_force(hand, rules, round_no)
        got = best_arrangement(hand, rules, round_no)
        assert got.penalty == expected
        check_partition(hand, got)
        if rules.round(round_no).contract.required:
            whole = rules.round(round_no).all_at_once
            want = brute_contract(hand, rules, round_no, whole)
            lay = find_contract(hand, rules, round_no, whole)
            assert (lay is None) == (want is None)
            assert lay is None or lay.penalty == want

    check()
