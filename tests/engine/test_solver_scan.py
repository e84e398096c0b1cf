"""The place-by-place scan used for very large hands agrees with the brute force on small
hands and with the main search on medium ones; its arrangements are legal and complete."""

from __future__ import annotations

import random

import pytest
from brute_force import brute_force
from hypothesis import given
from solver_hands import deals, examples
from solver_rules import contract_rummy, liverpool, three_thirteen, wild_heavy, with_melds

from tui.engine.cards import build_shoe
from tui.engine.meld_rules import make_meld
from tui.engine.rules import RunRule, SetRule
from tui.engine.solver.api import best_arrangement
from tui.engine.solver.core import _solve_split, context_for
from tui.engine.solver.scan import scan_applies, solve_scan

RULESETS = {
    "three_thirteen": three_thirteen(),
    "ace_both": three_thirteen(ace="both"),
    "contract_rummy": contract_rummy(),
    "ace_high": contract_rummy(ace="high"),
    "liverpool": liverpool(),
    "short_runs": with_melds(contract_rummy(), run=RunRule(3, 5)),
    "wild_heavy": wild_heavy(),
    "capped": with_melds(wild_heavy(), set=SetRule(3, 3, False), run=RunRule(4, 6)),
    "distinct_suits": with_melds(wild_heavy(), set=SetRule(3, None, True)),
    "one_natural": with_melds(wild_heavy(), min_natural=1),
}


def split(hand, rules, round_no):
    ctx = context_for(rules, round_no)
    p = ctx.p
    naturals = [c for c in hand if c.rank not in p.wild_ranks and c.rank != 0]
    wilds = [c for c in hand if c.rank in p.wild_ranks]
    dead = [c for c in hand if c.rank == 0 and 0 not in p.wild_ranks]
    flags = (p.outnumber and p.min_natural <= 1, p.min_natural == 1)
    return ctx, naturals, wilds, dead, flags


def check_plan(plan, hand_part, rules, round_no) -> None:
    placed = sorted([c.uid for m in plan.melds for c in m.cards]
                    + [c.uid for c in plan.deadwood])
    assert placed == sorted(c.uid for c in hand_part)
    for meld in plan.melds:
        declared = {c.uid: f for c, f in zip(meld.cards, meld.stands_for, strict=True)}
        make_meld(meld.cards, rules, round_no, declared, kind=meld.kind)


SMALL_HANDS = deals(RULESETS, max_cards=9)
MEDIUM_HANDS = deals(RULESETS, max_cards=22, min_cards=12)


@examples(150)
@given(SMALL_HANDS)
def test_scan_matches_brute_force(deal):
    scan_agrees_with_brute_force(*deal[1:])


@examples(50)
@given(MEDIUM_HANDS)
def test_scan_matches_the_main_search(deal):
    scan_agrees_with_the_main_search(*deal[1:])


@pytest.mark.slow
@examples(2000)
@given(SMALL_HANDS)
def test_scan_matches_brute_force_on_many_hands(deal):
    scan_agrees_with_brute_force(*deal[1:])


@pytest.mark.slow
@examples(600)
@given(MEDIUM_HANDS)
def test_scan_matches_the_main_search_on_many_hands(deal):
    scan_agrees_with_the_main_search(*deal[1:])


def scan_agrees_with_brute_force(rules, round_no, hand) -> None:
    ctx, naturals, wilds, dead, (allow, anchored) = split(hand, rules, round_no)
    assert scan_applies(ctx)
    plan = solve_scan(ctx, naturals, wilds, allow, anchored, None)
    expected, _, _ = brute_force(hand, rules, round_no)
    assert plan.cost + sum(ctx.weight[c.rank] for c in dead) == expected
    check_plan(plan, naturals + wilds, rules, round_no)


def scan_agrees_with_the_main_search(rules, round_no, hand) -> None:
    ctx, naturals, wilds, _, (allow, anchored) = split(hand, rules, round_no)
    plan = solve_scan(ctx, naturals, wilds, allow, anchored, None)
    main = _solve_split(ctx, naturals, [], wilds, allow, anchored, None)
    assert plan.cost == main.cost
    check_plan(plan, naturals + wilds, rules, round_no)


def test_a_forty_card_hand_is_solved_legally():
    rules = three_thirteen()
    hand = random.Random(7).sample(build_shoe(2, 0), 40)
    got = best_arrangement(hand, rules, 11)
    check_plan(got, hand, rules, 11)
    assert got.penalty == sum(rules.value(c.rank) for c in got.deadwood)
