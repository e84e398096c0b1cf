"""Every meld rule: sets, runs, aces, wrap-around, wild counts, duplicates, laying off and
joker swaps.  Each refusal is checked for the ruleset key it names."""

from __future__ import annotations

import pytest
from solver_rules import contract_rummy, liverpool, three_thirteen, wild_heavy, with_melds

from tui.engine.cards import Card, parse_card, parse_cards
from tui.engine.meld import Meld
from tui.engine.meld_rules import MeldError, card_penalty, extend_meld, make_meld, swap_joker
from tui.engine.rules import RunRule, ScoringRules, SetRule

TT = three_thirteen()
CR = contract_rummy()


def cards(text: str, start: int = 0) -> list[Card]:
    """Cards with distinct uids, as dealt from a shoe."""
    return [parse_card(tok, uid=start + i) for i, tok in enumerate(text.split())]


def faces(meld: Meld) -> list[str]:
    """`describe` split per card: `7H` or `JK=6H`."""
    return meld.describe().split()


def refused(text: str, rules, round_no: int, rule: str, **kw) -> MeldError:
    with pytest.raises(MeldError) as info:
        make_meld(cards(text), rules, round_no, **kw)
    assert info.value.rule == rule, str(info.value)
    assert rule in str(info.value)
    return info.value


# --------------------------------------------------------------------------------- sets


def test_a_set_is_three_or_more_of_one_rank():
    meld = make_meld(cards("7C 7D 7S"), TT, 11)
    assert meld.kind == "set" and meld.rank == 7
    assert meld.stands_for == ((7, "C"), (7, "D"), (7, "S"))
    refused("7C 7D", TT, 11, "melds.set.min")


def test_a_set_has_a_maximum_size_when_the_rules_say_so():
    capped = with_melds(TT, set=SetRule(3, 4, False))
    make_meld(cards("7C 7D 7S 7H"), capped, 11)
    refused("7C 7D 7S 7H 7C", capped, 11, "melds.set.max")
    make_meld(cards("7C 7D 7S 7H 7C 7D"), TT, 11)  # no maximum in Three Thirteen


def test_distinct_suits_refuses_a_repeated_suit_and_wilds_take_missing_suits():
    refused("7S 7S 7H", CR, 1, "melds.set.distinct_suits")
    meld = make_meld(cards("7S 7D JK"), CR, 1)
    assert meld.stands_for[2] == (7, "C")  # the first suit the set lacks
    refused("7S 7D 7H 7C JK", CR, 1, "melds.set.distinct_suits")


def test_two_deck_sets_may_repeat_a_card_unless_suits_must_differ():
    meld = make_meld(cards("7S 7S 7H"), TT, 11)
    assert meld.kind == "set"
    refused("7S 7S 7H", CR, 1, "melds.set.distinct_suits")


def test_wilds_in_a_set_stand_for_its_rank_with_no_suit():
    meld = make_meld(cards("9C 9D KS"), TT, 11)
    assert faces(meld) == ["9C", "9D", "KS=9"]
    assert meld.stands_for[2] == (9, "")


def test_mixed_ranks_and_suits_are_no_meld():
    refused("7C 8D 9S", TT, 11, "melds")


# --------------------------------------------------------------------------------- runs


def test_a_run_is_three_or_more_in_sequence_in_one_suit():
    meld = make_meld(cards("7H 5H 6H"), TT, 11)
    assert meld.kind == "run"
    assert [str(c) for c in meld.cards] == ["5H", "6H", "7H"]  # laid out low to high
    refused("5H 6H", TT, 11, "melds.run.min")
    refused("5H 6H 8H", TT, 11, "melds.run")
    refused("5H 6H 7S 8H", TT, 11, "melds")


def test_a_run_has_a_maximum_length_when_the_rules_say_so():
    short = with_melds(TT, run=RunRule(3, 5))
    make_meld(cards("2H 3H 4H 5H 6H"), short, 11)
    refused("2H 3H 4H 5H 6H 7H", short, 11, "melds.run.max")


def test_runs_of_four_in_liverpool():
    make_meld(cards("5H 6H 7H 8H"), liverpool(), 3)
    refused("5H 6H 7H", liverpool(), 3, "melds.run.min")


def test_ace_low_only():
    make_meld(cards("AS 2S 3S"), TT, 11)
    refused("QS KS AS", TT, 1, "ace")


def test_ace_high_only():
    high = three_thirteen(ace="high")
    meld = make_meld(cards("QS KS AS"), high, 1)
    assert meld.stands_for[-1] == (14, "S")
    refused("AS 2S 3S", high, 1, "ace")


def test_ace_both_but_never_both_ends():
    meld = make_meld(cards("QS KS AS"), CR, 1)
    assert meld.stands_for == ((12, "S"), (13, "S"), (14, "S"))
    meld = make_meld(cards("AS 2S 3S"), CR, 1)
    assert meld.stands_for[0] == (1, "S")
    full = " ".join(f"{r}H" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
    assert len(make_meld(cards(full), CR, 1).cards) == 13
    with pytest.raises(MeldError):  # the ace would have to be low and high at once
        make_meld(cards(full + " AH"), CR, 1)


def test_no_wrap_around_unless_allowed():
    refused("KS AS 2S", CR, 1, "wrap")
    wrapping = contract_rummy(wrap=True)
    meld = make_meld(cards("2S KS AS"), wrapping, 1)
    assert meld.stands_for == ((13, "S"), (1, "S"), (2, "S"))
    meld = make_meld(cards("QS KS AS"), wrapping, 1)
    assert meld.stands_for == ((12, "S"), (13, "S"), (14, "S"))
    refused(" ".join(f"{r}S" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()) + " JK",
            wrapping, 1, "melds.run")


def test_wilds_fill_gaps_then_the_high_end_then_the_low_end():
    assert faces(make_meld(cards("5H KS 7H"), TT, 11)) == ["5H", "KS=6H", "7H"]
    assert faces(make_meld(cards("5H 6H KS"), TT, 11)) == ["5H", "6H", "KS=7H"]
    jokers = three_thirteen(jokers_wild=True)
    run = make_meld(cards("QH 5S JK"), jokers, 3, kind="run")  # K high, so J-Q-K
    assert run.stands_for == ((11, "H"), (12, "H"), (13, "H"))
    assert str(run.cards[1]) == "QH"
    assert make_meld(cards("QH 5S JK"), jokers, 3).kind == "set"  # either reads; sets first


def test_declared_wilds_stand_where_declared():
    hand = cards("5H 6H JK")
    meld = make_meld(hand, CR, 1, {hand[2].uid: (4, "H")})
    assert faces(meld) == ["JK=4H", "5H", "6H"]
    with pytest.raises(MeldError) as info:
        make_meld(hand, CR, 1, {hand[0].uid: (4, "H")})
    assert info.value.rule == "declare"


def test_identical_cards_cannot_share_a_run():
    refused("7H 7H 8H", TT, 11, "melds.run")


# --------------------------------------------------------------------------- wild counts


def test_a_meld_needs_a_natural_card():
    refused("JK JK JK", CR, 1, "melds.min_natural")
    meld = make_meld(cards("JK JK JK"), wild_heavy(), 1)  # min_natural 0 allows it
    assert len(meld.cards) == 3


def test_wild_rank_cards_standing_for_themselves_are_natural():
    meld = make_meld(cards("3H 3S 3D"), TT, 1)  # 3s are wild in round 1
    assert meld.kind == "set"
    assert not meld.wild_cards()
    strict = with_melds(TT, min_natural=2)
    make_meld(cards("5H 4H 7H"), strict, 2)  # 4s wild: 5H, 7H natural, 4H=6H
    refused("5H 4S 4D", strict, 2, "melds.min_natural")


def test_wilds_may_not_outnumber_naturals_when_the_rules_say_so():
    even = with_melds(CR, wilds_may_outnumber_naturals=False)
    make_meld(cards("7H 8H JK"), even, 1)
    refused("7H JK JK", even, 1, "melds.wilds_may_outnumber_naturals")
    make_meld(cards("7H JK JK"), CR, 1)


def test_jokers_that_are_not_wild_cannot_be_melded():
    refused("7H 8H JK", TT, 11, "jokers_wild")


# ---------------------------------------------------------------------------- laying off


def test_laying_off_at_either_end_of_a_run():
    meld = make_meld(cards("5H 6H 7H"), CR, 1).with_identity(owner=2, meld_id=9)
    high = extend_meld(meld, cards("8H", 10), CR, 1)
    assert [str(c) for c in high.cards] == ["5H", "6H", "7H", "8H"]
    assert (high.owner, high.id) == (2, 9)
    low = extend_meld(meld, cards("4H 3H", 10), CR, 1)
    assert [str(c) for c in low.cards][:2] == ["3H", "4H"]
    with pytest.raises(MeldError):
        extend_meld(meld, cards("9H", 10), CR, 1)
    with pytest.raises(MeldError):
        extend_meld(meld, cards("8S", 10), CR, 1)


def test_a_wild_laid_off_goes_to_the_end_asked_for():
    meld = make_meld(cards("5H 6H 7H"), CR, 1)
    assert faces(extend_meld(meld, cards("JK", 10), CR, 1, end="low"))[0] == "JK=4H"
    assert faces(extend_meld(meld, cards("JK", 10), CR, 1, end="high"))[-1] == "JK=8H"
    assert faces(extend_meld(meld, cards("JK", 10), CR, 1))[-1] == "JK=8H"
    top = make_meld(cards("JH QH KH"), three_thirteen(jokers_wild=True, ace="low"), 1)
    ext = extend_meld(top, cards("JK", 10), three_thirteen(jokers_wild=True, ace="low"), 1)
    assert faces(ext)[0] == "JK=10H"  # nothing above the king: the low end


def test_wilds_already_in_a_meld_keep_their_place():
    hand = cards("5H JK 7H")
    meld = make_meld(hand, CR, 1)
    longer = extend_meld(meld, cards("8H", 10), CR, 1)
    assert faces(longer) == ["5H", "JK=6H", "7H", "8H"]


def test_laying_off_on_a_set_respects_its_limits():
    meld = make_meld(cards("7C 7D 7S"), CR, 1)
    four = extend_meld(meld, cards("7H", 10), CR, 1)
    assert len(four.cards) == 4
    with pytest.raises(MeldError) as info:
        extend_meld(four, cards("JK", 11), CR, 1)
    assert info.value.rule == "melds.set.distinct_suits"
    with pytest.raises(MeldError):
        extend_meld(meld, cards("7S", 10), CR, 1)
    with pytest.raises(MeldError):
        extend_meld(meld, cards("8H", 10), CR, 1)


# ---------------------------------------------------------------------------- joker swap


def test_a_natural_card_takes_the_place_of_the_joker_in_a_run():
    meld = make_meld(cards("5H JK 7H"), CR, 1).with_identity(owner=1, meld_id=3)
    six = parse_card("6H", uid=20)
    new, joker = swap_joker(meld, six, CR, 1)
    assert joker.is_joker
    assert [str(c) for c in new.cards] == ["5H", "6H", "7H"]
    assert not new.wild_cards()
    assert (new.owner, new.id) == (1, 3)
    with pytest.raises(MeldError) as info:
        swap_joker(meld, parse_card("8H", uid=21), CR, 1)
    assert info.value.rule == "joker_swap"


def test_jokers_in_sets_are_dead_when_only_runs_swap():
    meld = make_meld(cards("7C 7D JK"), CR, 1)
    with pytest.raises(MeldError) as info:
        swap_joker(meld, parse_card("7H", uid=20), CR, 1)
    assert info.value.rule == "joker_swap.runs_only"


def test_sets_swap_when_the_rules_allow_it():
    from dataclasses import replace

    rules = replace(liverpool(), joker_swap=replace(liverpool().joker_swap, runs_only=False))
    meld = make_meld(cards("7C 7D JK"), rules, 1)
    new, joker = swap_joker(meld, parse_card("7C", uid=20), rules, 1)
    assert joker.is_joker and not new.wild_cards()


def test_no_swapping_when_the_rules_forbid_it():
    rules = three_thirteen(jokers_wild=True)
    meld = make_meld(cards("5H JK 7H"), rules, 1)
    with pytest.raises(MeldError) as info:
        swap_joker(meld, parse_card("6H", uid=20), rules, 1)
    assert info.value.rule == "joker_swap.enabled"


# ------------------------------------------------------------------------------- scoring


def test_penalty_values_and_unmelded_wilds():
    assert card_penalty(parse_card("KS"), TT, 1) == 10
    assert card_penalty(parse_card("KS"), TT, 11) == 10  # wild, scored at face value
    assert card_penalty(parse_card("AS"), CR, 1) == 15
    assert card_penalty(parse_card("JK"), CR, 1) == 15
    fixed = three_thirteen(scoring=ScoringRules(values=dict(TT.scoring.values),
                                                wild_unmelded="fixed", wild_value=25))
    assert card_penalty(parse_card("KS"), fixed, 11) == 25
    assert card_penalty(parse_card("KS"), fixed, 1) == 10


def test_parse_helpers_agree():
    assert [str(c) for c in parse_cards("10h qs")] == ["10H", "QS"]
