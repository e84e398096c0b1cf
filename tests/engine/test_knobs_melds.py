"""House-rule knobs that change what a meld or a contract is (#15): each one written in
YAML, read by the meld rules, the solver and `rules check`, and each test fails if the knob
stops working (the same hand is judged both ways)."""

from __future__ import annotations

import pytest
from solver_hands import cards

from tui.engine.meld_rules import MeldError, extend_meld, make_meld
from tui.engine.ruleset.dump import standalone_yaml
from tui.engine.ruleset.errors import RulesetError
from tui.engine.ruleset.loader import load_ruleset_text
from tui.engine.ruleset.text import describe_rules
from tui.engine.solver.api import best_arrangement, contract_melds_ok, find_contract

THREE_THIRTEEN = "extends: three_thirteen\n"
LIVERPOOL = "extends: liverpool\n"


def rules(base: str, text: str = ""):
    return load_ruleset_text(base + text, file="house.yaml")


def refused(hand: str, ruleset, round_no: int = 1, **kw) -> str:
    with pytest.raises(MeldError) as caught:
        make_meld(cards(hand), ruleset, round_no, **kw)
    return caught.value.rule


# --- wilds ---------------------------------------------------------------------------------


def test_a_wild_rank_that_never_stands_for_itself() -> None:
    # round 1 of Three Thirteen: 3s wild
    usual = rules(THREE_THIRTEEN)
    always = rules(THREE_THIRTEEN, "melds: {wild_rank_natural: false}\n")
    assert make_meld(cards("3C 3D 3H"), usual, 1).kind == "set"  # three natural 3s
    assert refused("3C 3D 3H", always) == "melds.min_natural"  # three wilds, no natural
    assert best_arrangement(cards("3C 3D 3H"), usual, 1).penalty == 0
    assert best_arrangement(cards("3C 3D 3H"), always, 1).penalty == 9
    assert best_arrangement(cards("3C 3D 3H KS"), always, 1).penalty == 0  # KS with wilds
    all_wild = rules(THREE_THIRTEEN, "melds: {wild_rank_natural: false, min_natural: 0}\n")
    assert make_meld(cards("3C 3D 3H"), all_wild, 1).kind in ("set", "run")


def test_all_wild_melds_allowed_while_mostly_wild_ones_are_not() -> None:
    base = "extends: three_thirteen_jokers\n"
    strict = rules(base, "melds: {wilds_may_outnumber_naturals: false}\n")  # min_natural 0
    # round 1: 3s and jokers wild
    assert make_meld(cards("JK JK JK"), strict, 1).cards  # wilds only: allowed
    assert refused("7H JK JK", strict, 1) == "melds.wilds_may_outnumber_naturals"
    assert make_meld(cards("7H 7S JK"), strict, 1).kind == "set"
    hand = cards("JK JK JK 7H 9C")
    assert best_arrangement(hand, strict, 1).penalty == 16
    one_natural = rules(base, "melds: {wilds_may_outnumber_naturals: false, min_natural: 1}\n")
    assert refused("JK JK JK", one_natural, 1) == "melds.min_natural"
    assert best_arrangement(hand, one_natural, 1).penalty > 16


def test_the_wild_ratio_at_lay_down_only() -> None:
    text = "melds: {wilds_may_outnumber_naturals: false, wild_ratio_on_lay_off: %s}\n"
    everywhere = rules(LIVERPOOL, text % "true")
    lay_down = rules(LIVERPOOL, text % "false")
    for ruleset in (everywhere, lay_down):
        assert refused("7H 8H JK JK JK", ruleset) == "melds.wilds_may_outnumber_naturals"
    hand = cards("7H 8H 9H 10H JK JK JK JK JK")
    meld = make_meld(hand[:4], lay_down, 1)
    grown = extend_meld(meld, hand[4:], lay_down, 1)
    assert len(grown.cards) == 9
    with pytest.raises(MeldError):
        extend_meld(meld, hand[4:], everywhere, 1)


# --- runs ----------------------------------------------------------------------------------


def test_runs_between_a_lowest_and_a_highest_rank() -> None:
    free = rules(LIVERPOOL, "melds: {run: {min: 3}}\n")  # ace high or low
    bounded = rules(LIVERPOOL, "melds: {run: {min: 3, lowest: 3, highest: K}}\n")
    for hand in ("2H 3H 4H", "AH 2H 3H", "QH KH AH"):
        assert make_meld(cards(hand), free, 1).kind == "run"
        assert refused(hand, bounded).startswith("melds.run.")
    assert make_meld(cards("3H 4H 5H"), bounded, 1).kind == "run"
    run = make_meld(cards("3H 4H JK"), bounded, 1)
    assert run.low == 3 and run.high == 5  # the joker cannot be the 2
    assert best_arrangement(cards("2H 3H 4H 9C"), free, 1).penalty == 9
    assert best_arrangement(cards("2H 3H 4H 9C"), bounded, 1).penalty == 18
    ace_high = rules(LIVERPOOL, "melds: {run: {min: 3, highest: A}}\n")
    assert make_meld(cards("QH KH AH"), ace_high, 1).kind == "run"


def test_runs_of_mixed_suits() -> None:
    usual = rules(THREE_THIRTEEN)
    mixed = rules(THREE_THIRTEEN, "melds: {run: {same_suit: false}}\n")
    assert refused("5H 6S 7H", usual, 1)
    run = make_meld(cards("5H 6S 7H"), mixed, 1)
    assert [str(c) for c in run.cards] == ["5H", "6S", "7H"] and not run.wild_cards()
    assert refused("5H 5S 6H", mixed, 1)  # still one card a place
    hand = cards("5H 6S 7D KC")
    assert best_arrangement(hand, usual, 2).penalty == 28
    assert best_arrangement(hand, mixed, 2).penalty == 10
    contract = rules(LIVERPOOL, "melds: {run: {same_suit: false}}\n")
    lay = find_contract(cards("5H 6S 7D 8C 9H 10S JD QC 2C"), contract, 3)  # 2 runs of 4
    assert lay is not None and len(lay.melds) == 2 and lay.penalty == 2


# --- contracts -----------------------------------------------------------------------------


def test_a_gap_between_two_same_suit_runs_of_a_contract() -> None:
    def two_runs(gap: int):
        return rules(LIVERPOOL, f"melds: {{run: {{min: 3}}}}\ncontract: {{same_suit_gap: {gap}}}\n")

    low, high = (make_meld(cards(h), two_runs(1), 3) for h in ("3C 4C 5C", "7C 8C 9C"))
    assert contract_melds_ok([low, high], two_runs(1), 3) is None  # the 6 between
    assert "fewer than 2 ranks" in contract_melds_ok([low, high], two_runs(2), 3)
    touching = make_meld(cards("6C 7C 8C"), two_runs(0), 3)
    assert contract_melds_ok([low, touching], two_runs(0), 3) is None
    assert "touch" in contract_melds_ok([low, touching], two_runs(1), 3)
    hand = cards("3C 4C 5C 7C 8C 9C KD")
    assert find_contract(hand, two_runs(1), 3) is not None
    assert find_contract(hand, two_runs(2), 3) is None


def test_contract_melds_of_exactly_their_size() -> None:
    usual = rules(LIVERPOOL)
    exact = rules(LIVERPOOL, "contract: {exact_size: true}\n")
    hand = cards("7C 7D 7H 7S 9C 9D 9H KD")
    assert find_contract(hand, usual, 1).penalty == 10  # 7777 999, KD left
    lay = find_contract(hand, exact, 1)
    assert sorted(len(m.cards) for m in lay.melds) == [3, 3] and lay.penalty == 17
    four = make_meld(cards("7C 7D 7H 7S"), exact, 1)
    three = make_meld(cards("9C 9D 9H"), exact, 1)
    assert contract_melds_ok([four, three], usual, 1) is None
    assert "exactly" in contract_melds_ok([four, three], exact, 1)


def test_sizes_per_meld_in_a_contract() -> None:
    text = "rounds:\n  - {cards: 10, contract: {sets: [2], runs: [4]}}\n"
    ruleset = rules(LIVERPOOL, text)
    assert ruleset.round(1).contract.describe() == "1 set of 2 + 1 run of 4"
    pair = make_meld(cards("AC AD"), ruleset, 1, use="contract")
    assert pair.kind == "set"
    assert refused("AC AD", ruleset) == "melds.set.min"  # a pair only inside the contract
    run = make_meld(cards("5H 6H 7H 8H"), ruleset, 1)
    assert contract_melds_ok([pair, run], ruleset, 1) is None
    short = make_meld(cards("5H 6H 7H 8H"), rules(LIVERPOOL), 1)
    lay = find_contract(cards("AC AD 5H 6H 7H 8H QS"), ruleset, 1)
    assert lay is not None and lay.penalty == 10
    assert find_contract(cards("AC KD 5H 6H 7H 8H QS"), ruleset, 1) is None
    larger = rules(LIVERPOOL, "rounds:\n  - {cards: 10, contract: {sets: [3, 4]}}\n")
    sets = [make_meld(cards("7C 7D 7H"), larger, 1), make_meld(cards("9C 9D 9H"), larger, 1)]
    assert "at least 4, 3" in contract_melds_ok(sets, larger, 1)
    assert contract_melds_ok([sets[0], make_meld(cards("9C 9D 9H 9S"), larger, 1)],
                             larger, 1) is None
    assert short.kind == "run"


def test_a_contract_set_of_a_fixed_rank() -> None:
    """`sets: [{size: 2, rank: A}, 3]`: a pair that must be aces, and a set of 3 of another
    rank; the solver lays it down only with the aces, the check refuses other pairs."""
    text = "rounds:\n  - {cards: 10, contract: {sets: [{size: 2, rank: A}, 3]}}\n"
    aces = rules(LIVERPOOL, text)
    any_pair = rules(LIVERPOOL, "rounds:\n  - {cards: 10, contract: {sets: [2, 3]}}\n")
    assert aces.round(1).contract.describe() == "1 set of 3 + 1 set of 2 As"
    queens_hand = cards("QC QD KC KD KH 5S 7S 9S")
    assert find_contract(queens_hand, any_pair, 1) is not None
    assert find_contract(queens_hand, aces, 1) is None
    lay = find_contract(cards("AC AD KC KD KH 5S 7S QS"), aces, 1)
    assert lay is not None and sorted(m.rank for m in lay.melds) == [1, 13]
    lay = find_contract(cards("AC JK KC KD KH QS"), aces, 1)  # the joker makes up the pair
    assert lay is not None and {m.rank for m in lay.melds} == {1, 13}
    kings = make_meld(cards("KC KD KH"), aces, 1)
    pair_of = {name: make_meld(cards(f"{name}C {name}D"), aces, 1, use="contract")
               for name in ("A", "Q")}
    assert contract_melds_ok([pair_of["A"], kings], aces, 1) is None
    assert contract_melds_ok([pair_of["Q"], kings], any_pair, 1) is None
    assert "2 As" in contract_melds_ok([pair_of["Q"], kings], aces, 1)
    three_aces = make_meld(cards("AC AD AH"), aces, 1)  # the pair may be longer, but the
    assert "2 As" in contract_melds_ok([pair_of["Q"], three_aces], aces, 1)  # 3 not aces
    # all wild: with min_natural 0 two jokers are the pair of aces
    wild = rules(LIVERPOOL, text + "melds: {min_natural: 0}\n")
    lay = find_contract(cards("JK JK KC KD KH 5S"), wild, 1)
    assert lay is not None and sorted(m.rank for m in lay.melds) == [1, 13]
    assert contract_melds_ok(lay.melds, wild, 1) is None
    # written out standalone and read back, the same rules; and the rules text says it
    again = load_ruleset_text(standalone_yaml(aces))
    assert again.round(1).contract == aces.round(1).contract
    assert "1 set of 2 As" in describe_rules(aces)
    assert "must be of that rank" in " ".join(describe_rules(aces).split())


# --- rules check ---------------------------------------------------------------------------


def test_the_card_count_check_knows_hands_grow_with_buys() -> None:
    shanghai = ("rounds:\n  - {cards: 11, contract: {sets: 1, runs: 3}}\n"
                "melds: {run: {min: 4}}\ncontract: {runs_same_suit: allowed}\n")
    with pytest.raises(RulesetError, match="at most 12"):
        rules(LIVERPOOL, shanghai + "buying: {enabled: false}\n")
    assert rules(LIVERPOOL, shanghai).round(1).contract.runs == 3  # 3 buys: 12 + 6 cards
    with pytest.raises(RulesetError, match="plus 2 from 1 buy"):
        rules(LIVERPOOL, shanghai + "buying: {limit_per_deal: 1}\n")  # 14 < 15
    assert rules(LIVERPOOL, shanghai + "buying: {limit_per_deal: null}\n")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("melds: {run: {lowest: 1O}}\n", "no rank"),
        ("ranks: {wrap: true}\nmelds: {run: {lowest: 3}}\n", "ranks.wrap"),
        ("melds: {run: {lowest: 9, highest: 10}}\n", "only use 2 ranks"),
        ("rounds:\n  - {cards: 10, contract: {sets: [5]}}\nmelds: {set: {max: 4}}\n",
         "a set of 5 cards"),
        ("going_out: {deadwood_limit: 5}\n", "melding_during_play: false"),
        ("rounds:\n  - {cards: 10, contract: {sets: [{size: 2, rank: JK}]}}\n", "no rank"),
        ("rounds:\n  - {cards: 10, contract: {sets: [{size: 2, rank: A}, {size: 3, rank: 1}]}}"
         "\n", "two sets of rank 1"),
    ],
)
def test_rules_check_refuses_knobs_that_cannot_work(text: str, words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        rules(LIVERPOOL, text)


def test_a_huge_bought_hand_still_finds_its_contract() -> None:
    """Shanghai's last contract with a hand grown by buys to 26 cards: far too many ways to
    choose cores for an exact search, so the search settles after its step budget, and
    still lays a legal contract down."""
    shanghai = rules("extends: liverpool\n", "rounds:\n  - {cards: 12, contract: "
                     "{sets: [3], runs: [4, 4, 4]}}\ncontract: {runs_same_suit: separate, "
                     "same_suit_gap: 2}\nmelds: {run: {min: 3}}\n")
    hand = cards("3C 4C 5C 6C 9C 10C JC QC 3H 4H 5H 7H 8H 9H 10H KD KS KH JK JK JK "
                 "2S 5S 8D AD QD")
    lay = find_contract(hand, shanghai, 1)
    assert lay is not None and contract_melds_ok(lay.melds, shanghai, 1) is None
    assert find_contract(hand, shanghai, 1, first_found=True) is not None
