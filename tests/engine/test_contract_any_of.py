"""Alternative contracts (`rounds[].contract.any_of`, #32): any one of several patterns
makes the contract; the search finds the best lay-down over all of them, the check takes
any, and the bots count toward the pattern their hand is closest to."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from brute_force import brute_contract
from hypothesis import given
from rulesets_helpers import MINIMAL, errors_of, write
from solver_hands import Rulesets, cards, deals, examples
from solver_rules import contract_rummy, liverpool, with_melds

from tui.bots.evaluate import Evaluator
from tui.engine.contract_options import option_rulesets
from tui.engine.meld_rules import make_meld
from tui.engine.rules import Contract, RunRule, SetRule
from tui.engine.ruleset.dump import standalone_yaml
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text
from tui.engine.solver.api import contract_melds_ok, find_contract


def with_patterns(rules, *patterns: Contract):
    """`rules` whose every round's contract is any one of `patterns`."""
    contract = replace(patterns[0], alternatives=tuple(patterns[1:]))
    return replace(rules, rounds=tuple(replace(r, contract=contract) for r in rules.rounds))


RUNS_ONLY = with_melds(contract_rummy(), set=SetRule(allowed=False), run=RunRule(3, None))
PATTERNS = Rulesets({
    "runs_3_or_4": with_patterns(RUNS_ONLY, Contract(runs=2), Contract(runs=1, run_sizes=(5,))),
    "set_or_runs": with_patterns(with_melds(liverpool(), run=RunRule(3, None)),
                                 Contract(sets=2), Contract(runs=1)),
    "sized": with_patterns(liverpool(), Contract(sets=1, runs=1, set_sizes=(2,), run_sizes=(4,)),
                           Contract(sets=2, set_sizes=(4, 2))),
})


@examples(120)
@given(deals(PATTERNS, max_cards=8, min_cards=3))
def test_the_best_lay_down_over_every_pattern_matches_the_brute_force(deal):
    _, rules, round_no, hand = deal
    for whole_hand in (False, True):
        each = [brute_contract(hand, option, round_no, whole_hand)
                for option in option_rulesets(rules, round_no)]
        found = [left for left in each if left is not None]
        got = find_contract(hand, rules, round_no, whole_hand)
        assert (got is None) == (not found), [str(c) for c in hand]
        if got is not None:
            assert got.penalty == min(found)
            assert contract_melds_ok(got.melds, rules, round_no) is None


def test_either_pattern_is_accepted_and_neither_is_refused() -> None:
    rules = PATTERNS["set_or_runs"]
    hand = cards("7H 7S 7D 9C 9D 9S 4H 5H 6H 7C")
    sets = [make_meld(hand[:3], rules, 1), make_meld(hand[3:6], rules, 1)]
    run = [make_meld(hand[6:9], rules, 1)]
    assert contract_melds_ok(sets, rules, 1) is None
    assert contract_melds_ok(run, rules, 1) is None
    why = contract_melds_ok([*sets, *run], rules, 1)
    assert why is not None and "2 sets, or 1 run" in why
    one_set = contract_melds_ok(sets[:1], rules, 1)
    assert one_set is not None and "the contract is 2 sets, or 1 run" in one_set


def test_the_search_takes_the_pattern_leaving_the_least() -> None:
    rules = PATTERNS["set_or_runs"]
    hand = cards("7H 7S 7D 9C 9D 9S KH QH JH 2C")
    got = find_contract(hand, rules, 1)
    assert got is not None and [m.kind for m in got.melds] == ["set", "set"]
    assert got.penalty == 32  # KH QH JH and 2C left; the run KH-QH-JH would leave 50
    only_run = find_contract(cards("7H 7S 4H 5H 6H"), rules, 1)
    assert only_run is not None and [m.kind for m in only_run.melds] == ["run"]


def test_the_bots_count_toward_the_closest_pattern() -> None:
    rules = PATTERNS["set_or_runs"]
    ev = Evaluator(rules, 1)
    assert ev.contract_need(cards("4H 5H 2C 9D KS")).missing == 1  # a run short of one card
    assert ev.contract_need(cards("7H 7S 9D 9C KS")).missing == 2  # two sets short of two
    single = Evaluator(with_patterns(with_melds(liverpool(), run=RunRule(3, None)),
                                     Contract(sets=2)), 1)
    assert single.contract_need(cards("4H 5H 2C 9D KS")).missing > 1


CONTINENTAL_LIKE = MINIMAL.replace("rounds:\n  - {cards: 7}\n", """\
melds: {set: {allowed: false}}
rounds:
  - cards: 7
    contract:
      any_of:
        - {runs: [3, 3]}
        - {runs: [4]}
""")


def test_any_of_loads_checks_and_round_trips(tmp_path: Path) -> None:
    rules = load_ruleset(str(write(tmp_path, "c.yaml", CONTINENTAL_LIKE)))
    contract = rules.round(1).contract
    assert [(c.runs, c.run_sizes) for c in contract.options()] == [(2, (3, 3)), (1, (4,))]
    assert contract.describe() == "2 runs of 3, or 1 run of 4"
    again = load_ruleset_text(standalone_yaml(rules))
    assert again.rounds == rules.rounds
    own = CONTINENTAL_LIKE.replace("    contract:\n", "    contract:\n      runs: [5]\n")
    assert load_ruleset(str(write(tmp_path, "d.yaml", own))).round(1).contract.describe() \
        == "1 run of 5, or 2 runs of 3, or 1 run of 4"
    bad = CONTINENTAL_LIKE.replace("{runs: [4]}", "{sets: 1}")
    [error] = errors_of(write(tmp_path, "e.yaml", bad))
    assert "pattern 2 asks for sets" in error.message and error.line == 11
    big = CONTINENTAL_LIKE.replace("{runs: [4]}", "{runs: [5, 4]}")
    [error] = errors_of(write(tmp_path, "f.yaml", big))
    assert "pattern 2 needs at least 9 cards" in error.message
