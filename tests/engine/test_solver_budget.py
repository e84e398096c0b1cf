"""The solver's work budget: past it a search answers conservatively and correctly (a
real arrangement, never a go-out that is not there) instead of running for minutes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_hands import check_partition

from tui.engine.cards import build_shoe
from tui.engine.meld_rules import card_penalty
from tui.engine.ruleset import load_ruleset
from tui.engine.solver import best_arrangement, going_out
from tui.engine.solver.context import work_budget

RULES = {key: load_ruleset(key) for key in ("three_thirteen", "contract_rummy")}
SHOE = build_shoe(4, 4)


def dealt(seed: int, size: int) -> list:
    rng = random.Random(seed)
    shoe = list(SHOE)
    rng.shuffle(shoe)
    return shoe[:size]


def check_go_out(hand: list, rules, round_no: int, answer) -> None:  # noqa: ANN001
    """A go-out the solver offers is a real one: every card but the discard is melded."""
    if answer is None:
        return
    arrangement, discard = answer
    rest = [c for c in hand if discard is None or c.uid != discard.uid]
    check_partition(rest, arrangement)
    assert arrangement.deadwood == ()


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(RULES)), st.integers(0, 10_000), st.integers(3, 16),
       st.integers(0, 400))
def test_a_spent_budget_gives_a_real_arrangement_never_a_better_one(
        key: str, seed: int, size: int, steps: int) -> None:
    rules = RULES[key]
    round_no = len(rules.rounds)
    hand = dealt(seed, size)
    exact = best_arrangement(hand, rules, round_no)
    with work_budget(steps):
        cut_short = best_arrangement(hand, rules, round_no)
        out = going_out(hand, rules, round_no)
    check_partition(hand, cut_short)
    assert cut_short.penalty == sum(card_penalty(c, rules, round_no) for c in cut_short.deadwood)
    assert cut_short.penalty >= exact.penalty  # conservative: never better than the truth
    check_go_out(hand, rules, round_no, out)
    if out is not None:  # a go-out found on a tight budget is one the full search finds
        assert going_out(hand, rules, round_no) is not None


@pytest.mark.slow
def test_a_hand_of_sixty_cards_is_answered() -> None:
    """Before the budget, one view of such a hand took half a minute (the fault campaign);
    now the searches stop at the budget and answer with what they can prove."""
    rules = RULES["three_thirteen"]
    hand = dealt(2, 60)
    arrangement = best_arrangement(hand, rules, 11)
    check_partition(hand, arrangement)
    check_go_out(hand, rules, 11, going_out(hand, rules, 11))


def test_real_hands_stay_exact_within_the_budget() -> None:
    """The budget is far above what dealt hands need: a tight budget changes the answer
    somewhere, the default one never does for hands of up to 20 cards."""
    rules = RULES["contract_rummy"]
    differs = 0
    for seed in range(30):
        hand = dealt(seed, 20)
        exact = best_arrangement(hand, rules, 7)
        with work_budget(10**9):
            unlimited = best_arrangement(hand, rules, 7)
        assert exact.penalty == unlimited.penalty
        with work_budget(5):
            differs += best_arrangement(hand, rules, 7).penalty != exact.penalty
    assert differs > 0
