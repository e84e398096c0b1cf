"""Groups of one colour (#32, Phase 10's phase 8, "7 cards of one colour"): cards all red
or all black in any ranks, laid down where a contract asks (`contract.colours`), sized by
`melds.colour`, grown by laying off a card of the colour or a wild.  The contract search
is held to the brute force; Phase 10 is played from phase 8 to the end by bots."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from bot_games import play_out
from brute_force import brute_contract
from hypothesis import given
from solver_checks import finds_what_the_brute_force_finds
from solver_hands import Rulesets, cards, deals, examples

from tui.bots import make_bot
from tui.engine.actions import LayDown, LayOff
from tui.engine.game import Game
from tui.engine.meld_rules import MeldError, extend_meld, make_meld
from tui.engine.rules import ColourRule, Contract, Ruleset
from tui.engine.ruleset.errors import RulesetError
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text
from tui.engine.ruleset.text import describe_rules
from tui.engine.solver.api import contract_melds_ok, find_contract
from tui.service.wire import view_from_wire, view_to_wire

PHASE10 = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "phase10.yaml"


def more(text: str) -> list:
    """Cards other than those `cards` made (uids from 100)."""
    return [replace(c, uid=100 + i) for i, c in enumerate(cards(text))]


def phase10() -> Ruleset:
    return load_ruleset(PHASE10)


def with_contracts(rules: Ruleset, *contracts: Contract, **colour: int | None) -> Ruleset:
    """`rules` whose rounds ask for `contracts` (each dealt as its first round), with
    `melds.colour` changed by `colour`."""
    first = rules.rounds[0]
    rounds = tuple(replace(first, contract=c) for c in contracts)
    return replace(rules, rounds=rounds,
                   melds=replace(rules.melds, colour=replace(rules.melds.colour, **colour)))


# --- the meld, by key ----------------------------------------------------------------------


def test_seven_cards_of_one_colour_in_any_ranks_make_phase_8() -> None:
    rules = phase10()
    group = make_meld(cards("3H 9D QH 5D AH KD 2S"), rules, 8, use="contract")
    assert group.kind == "colour" and group.colour == "red"
    assert group.describe().endswith("2S=red")  # the wild stands for a red card
    assert contract_melds_ok([group], rules, 8) is None
    black = make_meld(cards("3C 9S QC 5S AC KS 4C"), rules, 8, use="contract")
    assert black.colour == "black"


def test_a_card_of_the_other_colour_breaks_the_group() -> None:
    with pytest.raises(MeldError) as caught:
        make_meld(cards("3H 9D QH 5D AH KD 4S"), phase10(), 8, use="contract")
    assert caught.value.rule == "melds.colour"


def test_a_group_of_one_colour_exists_only_where_the_contract_asks_for_one() -> None:
    rules = phase10()
    with pytest.raises(MeldError) as caught:  # phase 1 asks for two sets
        make_meld(cards("3H 9D QH"), rules, 1, kind="colour", use="contract")
    assert caught.value.rule == "contract.colours"
    run = make_meld(cards("3H 4D 5H 6D 7H 8D 9H"), rules, 4, use="contract")
    assert contract_melds_ok([run], rules, 8) is not None  # a run is not phase 8


def test_the_contract_size_and_melds_colour_bound_the_group() -> None:
    rules = phase10()
    with pytest.raises(MeldError) as caught:
        make_meld(cards("3H 9D QH 5D AH KD"), rules, 8, kind="colour", use="contract")
    assert caught.value.rule == "melds.colour.min"
    capped = with_contracts(rules, Contract(colours=1, colour_sizes=(3,)), max=4)
    group = make_meld(cards("3H 9D QH 5D"), capped, 1, use="contract")
    with pytest.raises(MeldError) as caught:
        extend_meld(group, more("AH"), capped, 1)
    assert caught.value.rule == "melds.colour.max"


def test_the_wild_rules_count_a_wild_in_a_group() -> None:
    rules = with_contracts(phase10(), Contract(colours=1, colour_sizes=(4,)))
    make_meld(cards("3H JK JK 9D"), rules, 1, use="contract")
    strict = replace(rules, melds=replace(rules.melds, wilds_may_outnumber_naturals=False))
    with pytest.raises(MeldError) as caught:
        make_meld(cards("3H JK JK JK"), strict, 1, use="contract")
    assert caught.value.rule == "melds.wilds_may_outnumber_naturals"
    one = replace(rules, melds=replace(rules.melds, max_wilds=1))
    with pytest.raises(MeldError) as caught:
        make_meld(cards("3H 9D JK JK"), one, 1, use="contract")
    assert caught.value.rule == "melds.max_wilds"
    # a 2 of the group's colour stands for itself (`melds.wild_rank_natural`)
    assert make_meld(cards("3H 2D 2H 9D"), strict, 1, use="contract").wild_cards() == []


def test_laying_off_onto_a_group_takes_its_colour_or_a_wild() -> None:
    rules = phase10()
    group = make_meld(cards("3H 9D QH 5D AH KD 4H"), rules, 8, use="contract")
    grown = extend_meld(group, more("8D"), rules, 8)
    assert len(grown.cards) == 8 and grown.kind == "colour"
    extend_meld(group, more("JK"), rules, 8)
    with pytest.raises(MeldError):
        extend_meld(group, more("8S"), rules, 8)


# --- the contract search, against the brute force ---------------------------------------------

P10 = phase10()
ONLY_COLOURS = Rulesets({
    "one_of_4": with_contracts(P10, Contract(colours=1, colour_sizes=(4,))),
    "two_of_3": with_contracts(P10, Contract(colours=2, colour_sizes=(3, 3))),
    "count_form": with_contracts(P10, Contract(colours=1), min=5),
    "not_outnumbered": replace(with_contracts(P10, Contract(colours=1, colour_sizes=(4,))),
                               melds=replace(P10.melds, wilds_may_outnumber_naturals=False)),
    "one_wild": replace(with_contracts(P10, Contract(colours=1, colour_sizes=(3,))),
                        melds=replace(P10.melds, max_wilds=1)),
})
MIXED = Rulesets({
    "set_and_colour": with_contracts(P10, Contract(sets=1, set_sizes=(3,), colours=1,
                                                   colour_sizes=(3,))),
    "run_and_colour": with_contracts(P10, Contract(runs=1, run_sizes=(3,), colours=1,
                                                   colour_sizes=(3,))),
    "capped": with_contracts(P10, Contract(colours=1, colour_sizes=(3,)), max=4),
})


@examples(200)
@given(deals(ONLY_COLOURS, max_cards=9))
def test_find_contract_matches_the_brute_force_with_groups_of_one_colour(deal) -> None:
    finds_what_the_brute_force_finds(*deal[1:])


@examples(120)
@given(deals(MIXED, max_cards=8, min_cards=3))
def test_a_contract_of_colours_with_sets_or_runs_is_found_whenever_it_can_be(deal) -> None:
    """With sets or runs too the search finds a lay-down whenever there is one (the
    fewest points left is not promised: the group takes its colour's cards greedily)."""
    _, rules, round_no, hand = deal
    expected = brute_contract(hand, rules, round_no)
    got = find_contract(hand, rules, round_no)
    assert (got is None) == (expected is None), [str(c) for c in hand]
    if got is not None:
        assert got.penalty >= expected
        assert contract_melds_ok(got.melds, rules, round_no) is None
        for meld in got.melds:
            make_meld(meld.cards, rules, round_no, kind=meld.kind, use="contract")


def test_a_card_that_must_be_melded_goes_into_the_group() -> None:
    rules = phase10()
    hand = cards("3H 9D QH 5D AH KD 4H 5C 6S 7S 8S")
    owed = hand[0]
    found = find_contract(hand, rules, 8, must_include=owed)
    assert found is not None and any(c.uid == owed.uid for m in found.melds for c in m.cards)
    black = hand[-1]  # 5C 6S 7S 8S are only four
    assert find_contract(hand, rules, 8, must_include=black) is None


# --- the ruleset: loading, checks, words -----------------------------------------------------


def text_with(change: str) -> str:
    return PHASE10.read_text().replace("  - {contract: {colours: [7]}}", change)


def test_contract_colours_loads_in_both_forms_and_composes() -> None:
    rules = load_ruleset_text(text_with("  - {contract: {sets: [3], colours: [4]}}"), "x.yaml")
    contract = rules.round(8).contract
    assert (contract.sets, contract.colours, contract.colour_sizes) == (1, 1, (4,))
    assert contract.describe() == "1 set of 3 + 4 cards of one colour"
    counted = load_ruleset_text(text_with("  - {contract: {colours: 2}}"), "x.yaml")
    assert counted.round(8).contract.describe() == "2 groups of one colour"


@pytest.mark.parametrize(("change", "where", "words"), [
    ("  - {contract: {colours: [12]}}", "{colours", "needs at least 12 cards"),
    ("  - {contract: {colours: [7]}, melds: {colour: {max: 6}}}", "[7]",
     "has at most 6"),
    ("  - {contract: {colours: [7]}, melds: {colour: {min: 8, max: 6}}}", "8,",
     "cannot be made"),
])
def test_a_group_that_can_never_be_made_is_an_error_at_its_key(change: str, where: str,
                                                                 words: str) -> None:
    text = text_with(change)
    with pytest.raises(RulesetError) as caught:
        load_ruleset_text(text, "phase10.yaml")
    errors = [e for e in caught.value.errors if words in e.message]
    assert errors, caught.value.errors
    line = text.splitlines()[errors[0].line - 1]
    assert line.startswith("  - {contract: {colours:")
    assert line[errors[0].column - 1:].startswith(where)


def test_game_wide_colour_bounds_out_of_order_are_an_error() -> None:
    text = PHASE10.read_text().replace("  run: {min: 3, same_suit: false}",
                                       "  run: {min: 3, same_suit: false}\n"
                                       "  colour: {min: 5, max: 4}")
    with pytest.raises(RulesetError, match=r"melds\.colour\.min` \(5\) is greater"):
        load_ruleset_text(text, "phase10.yaml")


def test_rules_show_tells_the_group_of_one_colour() -> None:
    words = " ".join(describe_rules(phase10()).split())
    assert "7 cards of one colour" in words
    assert "A group of one colour is cards all red (hearts, diamonds) or all black" in words
    assert "a card of its colour or a wild may then be laid off onto it" in words
    plain = " ".join(describe_rules(load_ruleset("contract_rummy")).split())
    assert "group of one colour" not in plain


def test_melds_colour_defaults_cost_nothing_where_no_contract_asks() -> None:
    rules = load_ruleset("contract_rummy")
    assert rules.melds.colour == ColourRule(3, None)
    assert not any(c.colours for r in rules.rounds for c in r.contract.options())


# --- at the table -----------------------------------------------------------------------------


def test_a_group_of_one_colour_crosses_the_wire() -> None:
    rules = phase10()
    game = Game(rules, ["ann", "bob"], 2)
    game.phases_made[:] = [7, 7]
    hands = [cards("3H 9D QH 5D AH KD 4H 8S 9S 10S"), list(game.round.hands[1])]
    game.stack_deal(*_stacked(game, hands), turn=0)
    game.apply(next(a for a in game.view(0).legal if a.kind == "draw_stock"))
    lay = next(a for a in game.view(0).legal if isinstance(a, LayDown))
    game.apply(lay)
    view = game.view(1)
    assert [m.kind for m in view.table] == ["colour"]
    back = view_from_wire(json.loads(json.dumps(view_to_wire(view, 0))), rules, [])
    assert back.table == view.table


def _stacked(game: Game, hands: list[list]) -> tuple[list, list, list]:
    """`hands` as the deal's (cards by face from the shoe), the rest as the stock."""
    shoe = list(game.shoe)
    dealt = []
    for hand in hands:
        mine = []
        for card in hand:
            found = next(c for c in shoe if c.face == card.face)
            shoe.remove(found)
            mine.append(found)
        dealt.append(mine)
    return dealt, shoe[1:], shoe[:1]


def test_others_lay_off_onto_a_red_group_red_cards_only() -> None:
    rules = phase10()
    game = Game(rules, ["ann", "bob"], 2)
    game.phases_made[:] = [7, 0]
    hands = [cards("3H 9D QH 5D AH KD 4H 8S 9S 10S"), cards("7H 7D 7C KC KS 4C 8D 6C 6S JS")]
    game.stack_deal(*_stacked(game, hands), turn=0)
    game.apply(next(a for a in game.view(0).legal if a.kind == "draw_stock"))
    game.apply(next(a for a in game.view(0).legal if isinstance(a, LayDown)))
    game.apply(next(a for a in game.view(0).legal if a.kind == "discard"))
    game.apply(next(a for a in game.view(1).legal if a.kind == "draw_stock"))
    lay = next(a for a in game.view(1).legal if isinstance(a, LayDown))  # bob's phase 1
    game.apply(lay)
    offs = [a for a in game.view(1).legal if isinstance(a, LayOff)
            and game.round.table[0].id == a.meld_id]
    assert offs and {c.suit for a in offs for c in a.cards} <= {"H", "D"}


@pytest.mark.parametrize("end", ["fewest", "most"])
def test_phase10_from_phase_8_is_played_to_the_end_by_bots(end: str) -> None:
    rules = phase10()
    players = rules.players_min if end == "fewest" else rules.players_max
    game = Game(rules, [f"p{i}" for i in range(players)], 21)
    game.phases_made[:] = [7] * players
    game.stack_deal([list(h) for h in game.round.hands], list(game.round.stock),
                    list(game.round.discard))
    bots = [make_bot("medium" if seat % 2 else "hard", seat) for seat in range(players)]
    groups = 0

    def count_groups(game: Game, _action: object) -> None:
        nonlocal groups
        groups = max(groups, sum(1 for m in game.round.table if m.kind == "colour"))

    play_out(game, bots, after=count_groups, check_every_action=True, actions=20000)
    assert game.phase == "game_over"
    assert groups >= 1
    assert len(rules.rounds) in game.phases_made


def test_a_group_staged_by_hand_without_a_kind_lays_phase_8_down() -> None:
    """The table sends the cards a player grouped with no kind: they read as a group of
    one colour where the contract asks for one."""
    from tui.engine.actions import MeldSpec

    game = Game(phase10(), ["ann", "bob"], 2)
    game.phases_made[:] = [7, 7]
    hands = [cards("3H 9D QH 5D AH KD 4H 8S 9S 10S"), list(game.round.hands[1])]
    game.stack_deal(*_stacked(game, hands), turn=0)
    game.apply(next(a for a in game.view(0).legal if a.kind == "draw_stock"))
    red = [c for c in game.round.hands[0] if c.suit in "HD"][:7]
    game.apply(LayDown(0, (MeldSpec(tuple(red)),)))
    assert [m.kind for m in game.round.table] == ["colour"] and game.contract_down(0)
