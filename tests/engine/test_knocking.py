"""Knocking (Gin): `going_out.deadwood_limit` to knock under, `lay_off.onto_knocker`,
`scoring.undercut_bonus`, `going_out.gin_bonus` and `big_gin_bonus`.  Stacked deals of the
Gin recipe are scored with each key on and off, so each test fails if its key breaks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from table_rig import rig

from tui.engine.actions import DrawStock, GoOut
from tui.engine.game import Game
from tui.engine.ruleset.errors import RulesetError
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text
from tui.engine.ruleset.text import describe_rules

RECIPE = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "gin.yaml"
KNOCKER = "3C 4C 5C 7H 7D 7S 9S 10S JS 4D"  # draws KH, knocks keeping 4D (4 points)
GIN = "3C 4C 5C 7H 7D 7S 9S 10S JS 2C"  # draws KH: gin; draws 7C: big gin
# 888 and 4-6H meld; 6C and QS lay off onto the knocker's clubs and spades
DEFENDER = "6C QS 8S 8D 8C 4H 5H 6H AD KD"  # 6 + 10 + 1 + 10 = 27, 11 after laying off
UNDER = "6C QS 8S 8D 8C 4H 5H 6H AD 2H"  # 3 after laying off
EQUAL = "6C QS 8S 8D 8C 4H 5H 6H AD 3D"  # 4 after laying off


def gin(text: str = "") -> Game:
    """The Gin recipe with `text` (whole sections) written over it."""
    rules = load_ruleset_text(f"extends: {RECIPE.name}\n{text}",
                              file=str(RECIPE.parent / "house.yaml"), base_dir=RECIPE.parent)
    return Game(rules, ["P0", "P1"], 7)


def knock(g: Game, hand: str, defender: str, drawn: str = "KH") -> tuple[int, ...]:
    """Seat 0 draws `drawn` and goes out the way the engine offers; the deal's points."""
    rig(g, [hand, defender], discard="2S", stock_top=drawn, turn=0)
    g.apply(DrawStock(0))
    [out] = [a for a in g.legal_actions(0) if isinstance(a, GoOut)]
    g.apply(out)
    assert g.results[-1].went_out == 0
    return g.results[-1].points


def test_the_knocker_collects_the_difference_after_the_lay_offs() -> None:
    g = gin()
    assert knock(g, KNOCKER, DEFENDER) == (11 - 4, 0)
    result = g.results[-1]
    assert sorted(map(str, result.deadwood[1])) == ["AD", "KD"]
    assert sorted(map(str, result.melds[1][-1])) == ["6C", "QS"]  # the cards laid off


def test_without_lay_offs_onto_the_knocker_the_defender_keeps_them() -> None:
    assert knock(gin("lay_off: {onto_knocker: false}\n"), KNOCKER, DEFENDER) == (27 - 4, 0)


@pytest.mark.parametrize(("defender", "count"), [(UNDER, 3), (EQUAL, 4)])
def test_a_defender_holding_no_more_than_the_knocker_undercuts(defender: str,
                                                               count: int) -> None:
    assert knock(gin(), KNOCKER, defender) == (0, 4 - count + 25)


def test_without_the_undercut_the_knocker_collects_even_a_loss() -> None:
    g = gin("scoring: {score_best_arrangement: true, out_player_collects: true, "
            "undercut_bonus: null}\n")
    assert knock(g, KNOCKER, UNDER) == (3 - 4, 0)


def test_gin_scores_the_bonus_and_nobody_lays_off_onto_it() -> None:
    assert knock(gin(), GIN, DEFENDER) == (25 + 27, 0)
    plain = gin("going_out: {gin_bonus: 0, big_gin_bonus: null}\n")
    assert knock(plain, GIN, DEFENDER) == (27, 0)


def test_big_gin_melds_every_card_with_no_discard() -> None:
    g = gin()
    assert knock(g, GIN, DEFENDER, drawn="7C") == (31 + 27, 0)
    assert not [e for e in g.log if e.kind == "discard" and e.deal == g.round.number]
    # without a big gin bonus it is a gin like any other
    assert knock(gin("going_out: {big_gin_bonus: null}\n"), GIN, DEFENDER, "7C") == (52, 0)


@pytest.mark.parametrize(("text", "words"), [
    ("going_out: {deadwood_limit: 0}\n", "`going_out.gin_bonus` needs knocking"),
    ("going_out: {deadwood_limit: 0, gin_bonus: 0, big_gin_bonus: null}\n",
     "`lay_off.onto_knocker` needs knocking"),
    ("going_out: {discard: required}\n", "`going_out.big_gin_bonus` needs `going_out.discard: "
     "optional`"),
    ("scoring: {out_player_collects: false, undercut_bonus: 25}\n",
     "`scoring.undercut_bonus` needs `scoring.out_player_collects: true`"),
    ("going_out: {gin_bonus: ten}\n", "gin_bonus"),
])
def test_knocking_keys_without_knocking_are_refused_at_the_key(text: str, words: str) -> None:
    with pytest.raises(RulesetError) as err:
        gin(text)
    assert words in str(err.value)
    assert re.search(r"\.yaml:\d+:\d+: ", str(err.value))


def test_rules_show_tells_knocking_gin_and_the_undercut() -> None:
    text = " ".join(describe_rules(load_ruleset(RECIPE)).split())
    assert "Gin adds 25 points to the round score." in text
    assert "Big gin (every card melded, the one just drawn too, and no discard) adds 31" in text
    assert "lays off onto the knocker's melds" in text
    assert "that player (the lowest) collects the difference plus 25" in text
