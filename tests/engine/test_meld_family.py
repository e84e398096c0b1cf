"""Meld rules of the wider rummy family (#32): a round's own meld rules (`rounds[].melds`),
rounds of runs only or sets only (`melds.set.allowed` / `melds.run.allowed`) and a cap on
wilds per meld (`melds.max_wilds`).  The solver is held to the brute force under each."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from rulesets_helpers import MINIMAL, errors_of, write
from solver_checks import agrees_with_brute_force, finds_what_the_brute_force_finds, per_round
from solver_hands import Rulesets, cards, deals, examples
from solver_rules import contract_rummy, liverpool, three_thirteen, wild_heavy, with_melds

from tui.engine.meld_rules import MeldError, extend_meld, make_meld
from tui.engine.rules import MeldRules, RunRule, SetRule
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.solver.api import best_arrangement

WH = wild_heavy()
TT = three_thirteen()
FAMILY = Rulesets({
    "one_wild": with_melds(WH, max_wilds=1),
    "no_wild": with_melds(WH, max_wilds=0),
    "two_wilds_all_wild": with_melds(WH, max_wilds=3),
    "one_wild_even": with_melds(WH, max_wilds=1, wilds_may_outnumber_naturals=False,
                                min_natural=1),
    "runs_only": with_melds(WH, set=SetRule(allowed=False)),
    "sets_only": with_melds(WH, run=RunRule(allowed=False)),
    "sets_only_tt": with_melds(TT, run=RunRule(allowed=False)),
    "one_wild_mixed": with_melds(WH, max_wilds=1, run=RunRule(same_suit=False)),
    # rounds 1-3 by the game's rules, 4 runs only, 5 one wild, 6 mixed suits
    "per_round": per_round(TT, round_4=replace(TT.melds, set=SetRule(allowed=False)),
                           round_5=replace(TT.melds, max_wilds=1),
                           round_6=replace(TT.melds, run=RunRule(same_suit=False),
                                           max_wilds=0)),
})


@examples(400)
@given(deals(FAMILY))
def test_the_solver_matches_the_brute_force_under_the_new_meld_rules(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


@examples(150)
@given(deals(FAMILY, wild_only=True))
def test_hands_of_wilds_match_the_brute_force_under_the_new_meld_rules(deal):
    _, rules, round_no, hand = deal
    agrees_with_brute_force(rules, round_no, hand)


CR = contract_rummy()
LP = liverpool()
CONTRACTS = Rulesets({
    "one_wild": with_melds(LP, max_wilds=1),
    "no_wild_last_deals": per_round(CR, round_5=replace(CR.melds, max_wilds=0),
                                    round_6=replace(CR.melds, max_wilds=0),
                                    round_7=replace(CR.melds, max_wilds=0)),
    "mixed_runs_deal_3": per_round(CR, round_3=replace(CR.melds, run=RunRule(same_suit=False),
                                                       max_wilds=1)),
    "all_wild_capped": with_melds(LP, min_natural=0, max_wilds=3, run=RunRule(3, None)),
})


@examples(150)
@given(deals(CONTRACTS, max_cards=8, min_cards=3))
def test_find_contract_matches_the_brute_force_under_the_new_meld_rules(deal):
    finds_what_the_brute_force_finds(*deal[1:])


# --- the meld checks, by key -----------------------------------------------------------------


def test_max_wilds_counts_the_wilds_of_a_meld_laid_down_and_laid_off() -> None:
    rules = with_melds(contract_rummy(), max_wilds=1, set=SetRule(3, None))
    hand = cards("7H 7S JK JK 5C 6C JK")
    make_meld(hand[:3], rules, 1)  # one wild: fine
    with pytest.raises(MeldError) as caught:
        make_meld(hand[:4], rules, 1)
    assert caught.value.rule == "melds.max_wilds"
    assert "at most 1 wild card" in str(caught.value)
    with pytest.raises(MeldError, match="at most 1"):
        make_meld([hand[4], hand[5], hand[2], hand[3]], rules, 1)  # 5C 6C JK JK
    run = make_meld([hand[4], hand[5], hand[6]], rules, 1)
    with pytest.raises(MeldError) as caught:
        extend_meld(run, [hand[2]], rules, 1)
    assert caught.value.rule == "melds.max_wilds"
    assert make_meld(hand[:3], contract_rummy(), 1)  # no cap: the same melds are fine
    make_meld(hand[:4], with_melds(contract_rummy(), set=SetRule(3, None)), 1)


def test_max_wilds_zero_allows_no_wild_but_a_wild_rank_card_standing_for_itself() -> None:
    rules = with_melds(three_thirteen(), max_wilds=0)  # round 1: 3s wild
    with pytest.raises(MeldError, match="no wild card"):
        make_meld(cards("5H 6H 3S"), rules, 1)
    meld = make_meld(cards("2S 3S 4S"), rules, 1)  # the 3 stands for itself: natural
    assert [face for face in meld.stands_for] == [(2, "S"), (3, "S"), (4, "S")]


def test_a_round_of_runs_only_refuses_sets_by_their_key() -> None:
    rules = with_melds(three_thirteen(), set=SetRule(allowed=False))
    with pytest.raises(MeldError) as caught:
        make_meld(cards("8H 8S 8D"), rules, 2)
    assert caught.value.rule == "melds.set.allowed"
    assert make_meld(cards("8H 9H 10H"), rules, 2).kind == "run"
    with pytest.raises(MeldError) as caught:  # the run's own error, not "neither a set..."
        make_meld(cards("8H 9S 10H"), rules, 2)
    assert caught.value.rule == "melds.run"
    plan = best_arrangement(cards("8H 8S 8D 2C 2D 2H"), rules, 2)
    assert plan.melds == () or not any(m.kind == "set" for m in plan.melds)
    assert plan.penalty == 8 * 3 + 2 * 3


def test_a_round_of_sets_only_refuses_runs_by_their_key() -> None:
    rules = with_melds(three_thirteen(), run=RunRule(allowed=False))
    with pytest.raises(MeldError) as caught:
        make_meld(cards("8H 9H 10H"), rules, 2)
    assert caught.value.rule == "melds.run.allowed"
    assert best_arrangement(cards("8H 9H 10H 7C 7D 7S"), rules, 2).penalty == 27


def test_a_rounds_own_meld_rules_apply_to_that_round_only() -> None:
    rules = FAMILY["per_round"]
    run_of_mixed_suits = cards("8H 9S 10H")
    with pytest.raises(MeldError):
        make_meld(run_of_mixed_suits, rules, 5)
    assert make_meld(run_of_mixed_suits, rules, 6).kind == "run"
    with pytest.raises(MeldError, match="no wild"):
        make_meld(cards("8H 9S 8S"), rules, 6)  # 8s wild in round 6: 8S stands in for 10
    assert make_meld(cards("QH QS 7C"), rules, 5)  # round 5 (7s wild): one wild
    with pytest.raises(MeldError, match="at most 1"):
        make_meld(cards("QH 7D 7C"), rules, 5)
    assert make_meld(cards("QH 9D 9C"), rules, 7)  # round 7 (9s wild): the game's rules


# --- the YAML ---------------------------------------------------------------------------------


CARIOCA_LIKE = MINIMAL.replace("rounds:\n  - {cards: 7}\n", """\
melds:
  run: {min: 4}
  max_wilds: 1
rounds:
  - {cards: 7}
  - {cards: 7, melds: {run: {same_suit: false}}}
  - {cards: 7, melds: {max_wilds: 0, set: {allowed: false}}}
""")


def test_a_rounds_melds_merge_over_the_games_key_by_key(tmp_path: Path) -> None:
    rules = load_ruleset(str(write(tmp_path, "c.yaml", CARIOCA_LIKE)))
    assert rules.round(1).melds is None and rules.melds_for(1) == rules.melds
    assert rules.melds.max_wilds == 1 and rules.melds.run.min == 4
    second = rules.melds_for(2)
    assert second.run.same_suit is False
    assert second.run.min == 4 and second.max_wilds == 1  # the game's keys it did not set
    third = rules.melds_for(3)
    assert third.max_wilds == 0 and not third.set.allowed and third.run.same_suit
    assert rules.melds_for(3) == MeldRules(set=SetRule(allowed=False), run=RunRule(min=4),
                                           max_wilds=0)


def test_round_defaults_may_set_melds_for_every_round(tmp_path: Path) -> None:
    text = CARIOCA_LIKE.replace("melds:\n  run: {min: 4}\n  max_wilds: 1\n",
                                "round_defaults:\n  melds: {run: {min: 5}}\n")
    rules = load_ruleset(str(write(tmp_path, "d.yaml", text)))
    assert rules.melds.run.min == 3  # the game's is untouched
    assert [rules.melds_for(n).run.min for n in (1, 2, 3)] == [5, 5, 5]
    assert rules.melds_for(2).run.same_suit is False  # merged with the round's own


def test_an_unknown_key_in_a_rounds_melds_is_a_located_error(tmp_path: Path) -> None:
    path = write(tmp_path, "e.yaml", CARIOCA_LIKE.replace("max_wilds: 0,", "max_wild: 0,"))
    [error] = errors_of(path)
    assert "max_wild" in error.message and "max_wilds" in error.message
    assert error.line == 11
