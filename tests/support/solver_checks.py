"""What the solver's property tests check of one hand: the solver's answer against the
brute force's (`brute_force`), and that the answer is legal and accounts for every card."""

from __future__ import annotations

from dataclasses import replace

from brute_force import brute_contract, brute_force
from solver_hands import check_partition

from tui.engine.meld_rules import card_penalty, make_meld
from tui.engine.rules import Ruleset
from tui.engine.solver.api import best_arrangement, contract_melds_ok, find_contract


def per_round(rules: Ruleset, **melds_by_round) -> Ruleset:
    """`rules` whose round N (from `round_N=...` keywords) sets its own `MeldRules`."""
    rounds = list(rules.rounds)
    for key, melds in melds_by_round.items():
        number = int(key.removeprefix("round_"))
        rounds[number - 1] = replace(rounds[number - 1], melds=melds)
    return replace(rules, rounds=tuple(rounds))


def agrees_with_brute_force(rules, round_no, hand) -> None:
    """`best_arrangement` leaves the brute force's fewest points, its penalty is its
    deadwood's, and each of its melds is legal as declared (standing for the same faces)
    and without declarations."""
    expected, _, _ = brute_force(hand, rules, round_no)
    got = best_arrangement(hand, rules, round_no)
    assert got.penalty == expected, (
        f"{' '.join(map(str, hand))}: solver {got.penalty} "
        f"{[m.describe() for m in got.melds]}, brute force {expected}")
    check_partition(hand, got)
    assert got.penalty == sum(card_penalty(c, rules, round_no) for c in got.deadwood)
    for meld in got.melds:
        declared = {c.uid: face for c, face in zip(meld.cards, meld.stands_for, strict=True)}
        again = make_meld(meld.cards, rules, round_no, declared, kind=meld.kind)
        assert again.stands_for == meld.stands_for
        make_meld(meld.cards, rules, round_no)  # legal without declarations too


def finds_what_the_brute_force_finds(rules, round_no, hand) -> None:
    """`find_contract`, for part of the hand and for the whole hand, finds a lay-down just
    when the brute force does, leaving its fewest points, in legal melds that make the
    contract and account for every card."""
    for whole_hand in (False, True):
        expected = brute_contract(hand, rules, round_no, whole_hand)
        got = find_contract(hand, rules, round_no, whole_hand)
        assert (got is None) == (expected is None), (whole_hand, [str(c) for c in hand])
        if got is None:
            continue
        assert got.penalty == expected, [str(c) for c in hand]
        check_partition(hand, got)
        assert got.penalty == sum(card_penalty(c, rules, round_no) for c in got.deadwood)
        assert contract_melds_ok(got.melds, rules, round_no) is None
        for meld in got.melds:
            declared = {c.uid: f for c, f in zip(meld.cards, meld.stands_for, strict=True)}
            make_meld(meld.cards, rules, round_no, declared, kind=meld.kind, use="contract")
        if whole_hand:
            assert not got.deadwood
