"""`going_out.one_turn_multiplier`: going out "rummy" (the whole hand melded in one turn,
nothing melded before) multiplies what every other hand pays, in basic rummy doubling it.
Each test plays a stacked deal both ways, so it fails if the key stops changing the game."""

from __future__ import annotations

import pytest
from table_rig import cards, rig

from tui.engine.actions import Discard, DrawStock, LayDown, MeldSpec
from tui.engine.game import Game
from tui.engine.ruleset.errors import RulesetError
from tui.engine.ruleset.loader import load_ruleset_text
from tui.engine.ruleset.text import describe_rules

BASIC = """extends: three_thirteen
name: Basic rummy
players: {min: 2, max: 6}
decks: [{players: 2, decks: 1, jokers: 0}]
rounds:
  - {cards: [{players: 2, cards: 10}, {players: 3, cards: 7}, {players: 5, cards: 6}]}
lay_off: {when: after_contract}
going_out: {melding_during_play: true, final_turns: false, discard: optional<going>}
scoring: {score_best_arrangement: false<scoring>}
end: {point_limit: 100, max_rounds: 30<end>}
"""
HANDS = ["7C 7D 7H 2S 3S 4S KH", "AC 5D 9H JC QD 2H 8C", "3C 6D 10H KC KD 4H 8S"]
OTHERS = (1 + 5 + 9 + 10 + 10 + 2 + 8, 3 + 6 + 10 + 10 + 10 + 4 + 8)  # 45, 51


def basic_rules(going: str = "", scoring: str = "", end: str = "") -> str:
    """Basic rummy, with more keys written into its `going_out`, `scoring` and `end`."""
    text = BASIC
    for key, keys in (("going", going), ("scoring", scoring), ("end", end)):
        text = text.replace(f"<{key}>", keys and f", {keys}")
    return text


def basic(going: str = "", scoring: str = "", end: str = "") -> Game:
    rules = load_ruleset_text(basic_rules(going, scoring, end), file="basic.yaml")
    g = Game(rules, ["P0", "P1", "P2"], 3)
    rig(g, HANDS, discard="9S", stock_top="5S 6C 6H 6S", turn=0)
    return g


def lay(g: Game, seat: int, *melds: str) -> None:
    g.apply(LayDown(seat, tuple(MeldSpec(cards(g, seat, m)) for m in melds)))


def out_in_one_turn(g: Game) -> None:
    g.apply(DrawStock(0))  # 5S
    lay(g, 0, "7C 7D 7H", "2S 3S 4S 5S")
    g.apply(Discard(0, cards(g, 0, "KH")[0]))


@pytest.mark.parametrize("times", [1, 2, 3])
def test_going_rummy_multiplies_the_others_hands(times: int) -> None:
    g = basic(f"one_turn_multiplier: {times}")
    out_in_one_turn(g)
    result = g.results[-1]
    assert result.went_out == 0 and g.round.in_one_turn
    assert result.points == (0, OTHERS[0] * times, OTHERS[1] * times)


def test_going_out_over_several_turns_is_not_multiplied() -> None:
    g = basic("one_turn_multiplier: 2")
    g.apply(DrawStock(0))  # 5S
    lay(g, 0, "7C 7D 7H")
    g.apply(Discard(0, cards(g, 0, "KH")[0]))
    for seat in (1, 2):
        g.apply(DrawStock(seat))  # 6C, 6H
        g.apply(Discard(seat, g.round.hands[seat][-1]))
    g.apply(DrawStock(0))  # 6S
    lay(g, 0, "2S 3S 4S 5S 6S")
    result = g.results[-1]
    assert result.went_out == 0 and not g.round.in_one_turn
    assert result.points[0] == 0
    # each other hand holds its cards as dealt but the 6 drawn and discarded
    assert result.points[1:] == OTHERS


def test_the_player_who_collects_collects_the_multiplied_points() -> None:
    g = basic("one_turn_multiplier: 2, one_turn_bonus: 10", "out_player_collects: true",
              "winner: highest")
    out_in_one_turn(g)
    assert g.results[-1].points == (2 * sum(OTHERS) + 10, 0, 0)


def test_the_multiplier_is_a_whole_number_from_one() -> None:
    for bad in ("0", "-2", "1.5", "two"):
        with pytest.raises(RulesetError, match="one_turn_multiplier"):
            load_ruleset_text(basic_rules(f"one_turn_multiplier: {bad}"), file="basic.yaml")


def test_rules_show_says_the_others_pay_double() -> None:
    plain = describe_rules(load_ruleset_text(basic_rules(), file="basic.yaml"))
    double = describe_rules(load_ruleset_text(basic_rules("one_turn_multiplier: 2"),
                                              file="basic.yaml"))
    assert "multiplies" not in plain
    assert "multiplies the points left in every other hand by 2" in " ".join(double.split())
